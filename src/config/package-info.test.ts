import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isSourceCheckout, PACKAGE_ROOT, PLUGIN_DIR, VERSION } from './package-info.js';

describe('package info', () => {
  test('reads the version from the package root', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    expect(manifest.name).toBe('flower-agent');
    expect(VERSION).toBe(manifest.version);
  });

  test('puts the plugin directory at the package root', () => {
    expect(PLUGIN_DIR).toBe(join(PACKAGE_ROOT, 'plugin'));
    expect(existsSync(join(PLUGIN_DIR, 'README.md'))).toBe(true);
  });

  test('calls a root with .git a source checkout', () => {
    const root = mkdtempSync(join(tmpdir(), 'flower-package-'));
    try {
      expect(isSourceCheckout(root)).toBe(false);
      mkdirSync(join(root, '.git'));
      expect(isSourceCheckout(root)).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
