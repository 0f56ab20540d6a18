/**
 * Facts about the installed package: its version, its root directory, the plugin directory shipped with it,
 * and whether it runs from a source checkout.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// This file sits at src/config/ under vitest and at dist/config/ when built, so the package root is two
// levels up in both cases.
const packageRootUrl = new URL('../../', import.meta.url);

/** The package's root directory (the folder holding `package.json`). */
export const PACKAGE_ROOT: string = fileURLToPath(packageRootUrl).replace(/[\\/]$/, '');

function readVersion(): string {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
    if (typeof manifest === 'object' && manifest !== null && 'version' in manifest) {
      const version = (manifest as { version: unknown }).version;
      if (typeof version === 'string') return version;
    }
  } catch {
    // A damaged install must still start; the version is only shown, never relied on.
  }
  return '0.0.0';
}

/** The version in the package's own `package.json`. */
export const VERSION: string = readVersion();

/** `<package root>/plugin`, loaded into every agent session when it exists (cli-and-config.md §11.3). */
export const PLUGIN_DIR: string = join(PACKAGE_ROOT, 'plugin');

/**
 * True when flower runs from a source checkout (the package root holds `.git`): only then is a `.env` at
 * the package root read, and the update check is skipped.
 */
export function isSourceCheckout(root: string = PACKAGE_ROOT): boolean {
  return existsSync(join(root, '.git'));
}
