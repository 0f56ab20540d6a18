import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Env } from '../config/process-environment.js';
import {
  calibrationKey,
  calibrationPath,
  learnedWindow,
  readCalibration,
  rememberOverflow,
} from './window-calibration.js';

let root: string;
let env: Env;
let file: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flower-window-calibration-'));
  env = { HOME: root, XDG_CONFIG_HOME: join(root, 'config'), ANTHROPIC_MODEL: 'claude-opus-4-5[1m]' };
  file = join(root, 'config', 'flower', '.windows');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function onDisk(): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('calibrationKey', () => {
  test('joins the base URL and the model, each "default" when unset', () => {
    expect(calibrationKey({})).toBe('default|default');
    expect(calibrationKey({ ANTHROPIC_BASE_URL: 'https://gw.example', ANTHROPIC_MODEL: 'm-1' })).toBe(
      'https://gw.example|m-1',
    );
    expect(calibrationKey({ ANTHROPIC_MODEL: '', ANTHROPIC_DEFAULT_OPUS_MODEL: 'opus-x' })).toBe(
      'default|opus-x',
    );
  });

  test('lives in CFG/.windows', () => {
    expect(calibrationPath(env)).toBe(file);
    expect(calibrationPath({ HOME: root })).toBe(join(root, '.config', 'flower', '.windows'));
  });
});

describe('rememberOverflow', () => {
  test('creates the file with the overflow point of this endpoint and model', () => {
    const record = rememberOverflow(174_321.7, { env });
    expect(record).toEqual({
      key: 'default|claude-opus-4-5[1m]',
      window: 174_321,
      lowered: true,
      quarantined: null,
      error: null,
    });
    expect(onDisk()).toEqual({ 'default|claude-opus-4-5[1m]': 174_321 });
    expect(learnedWindow(env)).toBe(174_321);
  });

  test('only ever lowers an entry', () => {
    rememberOverflow(180_000, { env });
    expect(rememberOverflow(190_000, { env })).toMatchObject({ window: 180_000, lowered: false });
    expect(rememberOverflow(180_000, { env })).toMatchObject({ window: 180_000, lowered: false });
    expect(onDisk()).toEqual({ 'default|claude-opus-4-5[1m]': 180_000 });
    expect(rememberOverflow(170_000, { env })).toMatchObject({ window: 170_000, lowered: true });
    expect(onDisk()).toEqual({ 'default|claude-opus-4-5[1m]': 170_000 });
  });

  test('keeps the other entries, unusable ones included, as they are', () => {
    mkdirSync(join(root, 'config', 'flower'), { recursive: true });
    writeFileSync(file, JSON.stringify({ 'https://other|m': 90_000, 'default|x': 'junk' }));
    rememberOverflow(160_000, { env });
    expect(onDisk()).toEqual({
      'https://other|m': 90_000,
      'default|x': 'junk',
      'default|claude-opus-4-5[1m]': 160_000,
    });
    expect(readCalibration(env)).toEqual({
      'https://other|m': 90_000,
      'default|claude-opus-4-5[1m]': 160_000,
    });
  });

  test('replaces an unusable value of its own key', () => {
    mkdirSync(join(root, 'config', 'flower'), { recursive: true });
    writeFileSync(file, JSON.stringify({ 'default|claude-opus-4-5[1m]': -3 }));
    expect(rememberOverflow(160_000, { env })).toMatchObject({ window: 160_000, lowered: true });
  });

  test('quarantines a corrupt file instead of overwriting it', () => {
    mkdirSync(join(root, 'config', 'flower'), { recursive: true });
    writeFileSync(file, '{"default|claude-opus-4-5[1m]": 1200');
    expect(readCalibration(env)).toEqual({});
    expect(readFileSync(file, 'utf8')).toBe('{"default|claude-opus-4-5[1m]": 1200');
    const record = rememberOverflow(160_000, { env, runId: 'run-7' });
    expect(record.quarantined?.path).toBe(`${file}.corrupt-run-7`);
    expect(record.quarantined?.reason).not.toBe('');
    expect(readFileSync(`${file}.corrupt-run-7`, 'utf8')).toBe('{"default|claude-opus-4-5[1m]": 1200');
    expect(onDisk()).toEqual({ 'default|claude-opus-4-5[1m]': 160_000 });
  });

  test('quarantines a file that is JSON but not an object', () => {
    mkdirSync(join(root, 'config', 'flower'), { recursive: true });
    writeFileSync(file, '[1, 2]');
    const record = rememberOverflow(160_000, { env, runId: 'r' });
    expect(record.quarantined?.path).toBe(`${file}.corrupt-r`);
    expect(onDisk()).toEqual({ 'default|claude-opus-4-5[1m]': 160_000 });
  });

  test('records nothing for a context that was not measured', () => {
    for (const context of [0, -10, Number.NaN]) {
      expect(rememberOverflow(context, { env })).toMatchObject({ window: null, lowered: false, error: null });
    }
    expect(existsSync(join(root, 'config'))).toBe(false);
    rememberOverflow(150_000, { env });
    expect(rememberOverflow(0, { env })).toMatchObject({ window: 150_000, lowered: false });
  });

  test('reports a failed write instead of throwing', () => {
    writeFileSync(join(root, 'config'), 'not a folder');
    const record = rememberOverflow(150_000, { env });
    expect(record.lowered).toBe(false);
    expect(record.window).toBeNull();
    expect(record.error).toMatch(/EEXIST|ENOTDIR/);
  });

  test('leaves no lock or temporary file behind', () => {
    rememberOverflow(150_000, { env });
    rememberOverflow(140_000, { env });
    expect(readdirSync(join(root, 'config', 'flower'))).toEqual(['.windows']);
  });
});
