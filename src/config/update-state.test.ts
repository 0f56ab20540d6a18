import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readUpdateState, updateStateFile, writeUpdateState } from './update-state.js';

let dir: string | null = null;

afterEach(() => {
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function scratch(): string {
  dir = mkdtempSync(join(tmpdir(), 'flower-update-state-'));
  return dir;
}

describe('update state', () => {
  test('lives in CFG/.update-node.json, apart from the Python flower’s .update', () => {
    expect(updateStateFile('/home/you/.config/flower')).toBe('/home/you/.config/flower/.update-node.json');
  });

  test('round-trips through a file it creates with its folder, leaving no temporary file', () => {
    const file = join(scratch(), 'not-yet', '.update-node.json');
    expect(readUpdateState(file)).toBeNull();
    writeUpdateState(file, { checked: 1_800_000_000, latest: '0.2.0' });
    expect(readUpdateState(file)).toEqual({ checked: 1_800_000_000, latest: '0.2.0' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ checked: 1_800_000_000, latest: '0.2.0' });
    expect(readdirSync(join(dir as string, 'not-yet'))).toEqual(['.update-node.json']);
  });

  test.each([['{not json'], ['[]'], ['{"checked":"yesterday","latest":"0.2.0"}'], ['{"checked":1}']])(
    'reads %s as no state',
    (content) => {
      const file = join(scratch(), '.update-node.json');
      writeFileSync(file, content);
      expect(readUpdateState(file)).toBeNull();
    },
  );
});
