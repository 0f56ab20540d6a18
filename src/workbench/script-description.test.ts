import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { describeText, MAX_DESCRIPTION_LENGTH, scriptDescription } from './script-description.js';

describe('describeText', () => {
  test('reads a desc line after a shebang', () => {
    expect(describeText('#!/bin/sh\n# desc: rebuilds the parser\necho hi\n')).toBe('rebuilds the parser');
  });

  test('accepts //, --, any case, spaces and a full-width colon', () => {
    expect(describeText('// DESC: checks the build')).toBe('checks the build');
    expect(describeText('  --   Desc  ：  counts rows  ')).toBe('counts rows');
    expect(describeText('#desc:tight')).toBe('tight');
  });

  test('prefers a desc line over an earlier plain comment', () => {
    expect(describeText('# helper\n# desc: the real one\n')).toBe('the real one');
  });

  test('looks only at the first 8 lines', () => {
    const late = `${'x = 1\n'.repeat(8)}# desc: too late\n`;
    expect(describeText(late)).toBeNull();
    const inTime = `${'x = 1\n'.repeat(7)}# desc: just in time\n`;
    expect(describeText(inTime)).toBe('just in time');
  });

  test('falls back to the first comment longer than 3 characters, markers stripped', () => {
    expect(describeText('#!/usr/bin/env node\n// ok\n// Sets up the fixtures\n')).toBe(
      'Sets up the fixtures',
    );
    expect(describeText('## Decision: keep SQLite\n\nBecause…')).toBe('Decision: keep SQLite');
    expect(describeText('/** Builds the parser. */\nexport {}')).toBe('Builds the parser.');
  });

  test('falls back to a docstring opener', () => {
    expect(describeText('"""Measures the cache hit rate."""\nimport os\n')).toBe(
      'Measures the cache hit rate.',
    );
    expect(describeText("'''Loads rows\nmore'''\n")).toBe('Loads rows');
  });

  test('is null without any comment, and a shebang is no description', () => {
    expect(describeText('#!/bin/bash\nset -e\nmake\n')).toBeNull();
    expect(describeText('plain text\n')).toBeNull();
    expect(describeText('# abc\n')).toBeNull();
  });

  test('clips a description to 100 characters', () => {
    const long = describeText(`# desc: ${'é'.repeat(150)}`);
    expect(Array.from(long ?? '')).toHaveLength(MAX_DESCRIPTION_LENGTH);
    expect(long?.endsWith('…')).toBe(true);
    expect(describeText(`# desc: ${'a'.repeat(100)}`)).toBe('a'.repeat(100));
  });
});

describe('scriptDescription', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('reads the description of a file, and none from a binary, missing or unreadable one', () => {
    dir = mkdtempSync(join(tmpdir(), 'flower-desc-'));
    writeFileSync(join(dir, 'a.sh'), '#!/bin/sh\n# desc: says hi\necho hi\n');
    writeFileSync(join(dir, 'b.bin'), Buffer.from([0x23, 0x20, 0x61, 0x62, 0x63, 0x64, 0x00, 0x01]));
    writeFileSync(join(dir, 'c.sh'), '# desc: secret\n');
    chmodSync(join(dir, 'c.sh'), 0o000);
    expect(scriptDescription(join(dir, 'a.sh'))).toBe('says hi');
    expect(scriptDescription(join(dir, 'b.bin'))).toBeNull();
    expect(scriptDescription(join(dir, 'missing.sh'))).toBeNull();
    expect(scriptDescription(dir)).toBeNull();
    // Root reads any file, so only check the unreadable case where permissions apply.
    if (process.getuid?.() !== 0) expect(scriptDescription(join(dir, 'c.sh'))).toBeNull();
  });
});
