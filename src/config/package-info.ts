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

function readManifest(): Record<string, unknown> {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
    if (typeof manifest === 'object' && manifest !== null) return manifest as Record<string, unknown>;
  } catch {
    // A damaged install must still start; name and version are only shown and compared, never relied on.
  }
  return {};
}

const manifest = readManifest();

/** The version in the package's own `package.json`. */
export const VERSION: string = typeof manifest['version'] === 'string' ? manifest['version'] : '0.0.0';

/** The package's name in its own `package.json`: the name the update check asks the registry about. */
export const PACKAGE_NAME: string = typeof manifest['name'] === 'string' ? manifest['name'] : 'flower-agent';

/** `<package root>/plugin`, loaded into every agent session when it exists (docs/configuration.md). */
export const PLUGIN_DIR: string = join(PACKAGE_ROOT, 'plugin');

/**
 * True when flower runs from a source checkout (the package root holds `.git`): only then is a `.env` at
 * the package root read, and the update check is skipped.
 */
export function isSourceCheckout(root: string = PACKAGE_ROOT): boolean {
  return existsSync(join(root, '.git'));
}

/**
 * True when flower runs from npx's cache (`…/_npx/<hash>/node_modules/…`): such a copy is fetched afresh
 * whenever npx decides to, so telling its user to update would be noise.
 */
export function isNpxCache(root: string = PACKAGE_ROOT): boolean {
  return /[\\/]_npx[\\/]/.test(root);
}
