import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { LockedJsonFile, moveAside } from './locked-json-file.js';

let directory: string;
let path: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'flower-locked-json-'));
  path = join(directory, 'state.json');
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('LockedJsonFile', () => {
  test('writes indented JSON with non-ASCII kept and leaves no lock or temporary file', () => {
    const file = new LockedJsonFile(path);
    const outcome = file.update('run-a', () => ({ name: 'café 完成', items: [1] }));
    expect(outcome).toEqual({
      written: { name: 'café 完成', items: [1] },
      quarantined: null,
      locked: true,
    });
    expect(readFileSync(path, 'utf8')).toBe('{\n  "name": "café 完成",\n  "items": [\n    1\n  ]\n}\n');
    expect(readdirSync(directory)).toEqual(['state.json']);
  });

  test('passes the current content to the change and writes the merge', () => {
    const file = new LockedJsonFile(path, { accepts: Array.isArray });
    file.update('run-a', () => ['first']);
    const seen: unknown[] = [];
    file.update('run-b', (current) => {
      seen.push(current);
      return [...(current as string[]), 'second'];
    });
    expect(seen).toEqual([['first']]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(['first', 'second']);
  });

  test('writes nothing when the change returns undefined', () => {
    const file = new LockedJsonFile(path);
    const outcome = file.update('run-a', (current) => {
      expect(current).toBeUndefined();
      return undefined;
    });
    expect(outcome.written).toBeUndefined();
    expect(readdirSync(directory)).toEqual([]);
  });

  test('creates a missing folder', () => {
    const nested = new LockedJsonFile(join(directory, 'a', 'b', 'state.json'));
    nested.update('run-a', () => ({}));
    expect(existsSync(join(directory, 'a', 'b', 'state.json'))).toBe(true);
  });

  test('quarantines unparseable and wrongly shaped content instead of overwriting it', () => {
    const file = new LockedJsonFile(path, { accepts: Array.isArray });
    writeFileSync(path, '[{"half": ');
    const first = file.update('run-z', (current) => {
      expect(current).toBeUndefined();
      return ['new'];
    });
    expect(first.quarantined?.path).toBe(`${path}.corrupt-run-z`);
    expect(first.quarantined?.reason).toMatch(/JSON/);
    expect(readFileSync(`${path}.corrupt-run-z`, 'utf8')).toBe('[{"half": ');
    writeFileSync(path, '{"an": "object"}');
    const second = file.update('run-z', () => ['newer']);
    expect(second.quarantined).toEqual({ path: `${path}.corrupt-run-z-2`, reason: 'unexpected JSON shape' });
    expect(readFileSync(`${path}.corrupt-run-z-2`, 'utf8')).toBe('{"an": "object"}');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(['newer']);
  });

  test('reads missing, parsed and unreadable content without creating anything', () => {
    const file = new LockedJsonFile(join(directory, 'absent', 'state.json'), { accepts: Array.isArray });
    expect(file.read()).toEqual({ kind: 'missing' });
    expect(readdirSync(directory)).toEqual([]);
    const here = new LockedJsonFile(path, { accepts: Array.isArray });
    writeFileSync(path, '[1]');
    expect(here.read()).toEqual({ kind: 'parsed', value: [1] });
    writeFileSync(path, '{}');
    expect(here.read()).toEqual({ kind: 'unreadable', reason: 'unexpected JSON shape' });
    expect(readdirSync(directory)).toEqual(['state.json']);
  });

  test('takes over a stale lock', () => {
    const lock = `${path}.lock`;
    writeFileSync(lock, '999999 dead\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const outcome = new LockedJsonFile(path).update('run-a', () => ({}));
    expect(outcome.locked).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  test('waits for a live lock, then writes unlocked through its own temporary file', () => {
    const lock = `${path}.lock`;
    writeFileSync(lock, '1 other\n');
    const started = Date.now();
    const outcome = new LockedJsonFile(path, { waitMs: 150 }).update('run-a', () => ({ ok: true }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(outcome.locked).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe('1 other\n');
    expect(readdirSync(directory).sort()).toEqual(['state.json', 'state.json.lock']);
  });

  test('holds the lock while the change runs, so a second writer waits', () => {
    const file = new LockedJsonFile(path, { waitMs: 50 });
    file.update('run-a', () => {
      expect(existsSync(`${path}.lock`)).toBe(true);
      const inner = file.update('run-b', () => ({ inner: true }));
      expect(inner.locked).toBe(false);
      return { outer: true };
    });
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  test('leaves a lock alone that another writer took over meanwhile', () => {
    const file = new LockedJsonFile(path);
    file.withLock((locked) => {
      expect(locked).toBe(true);
      writeFileSync(`${path}.lock`, '4242 someone-else\n');
    });
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe('4242 someone-else\n');
  });
});

describe('moveAside', () => {
  test('never overwrites an earlier copy', () => {
    writeFileSync(path, 'one');
    expect(moveAside(path, 'corrupt-r')).toBe(`${path}.corrupt-r`);
    writeFileSync(path, 'two');
    expect(moveAside(path, 'corrupt-r')).toBe(`${path}.corrupt-r-2`);
    expect(readFileSync(`${path}.corrupt-r`, 'utf8')).toBe('one');
    expect(readFileSync(`${path}.corrupt-r-2`, 'utf8')).toBe('two');
    expect(existsSync(path)).toBe(false);
  });
});
