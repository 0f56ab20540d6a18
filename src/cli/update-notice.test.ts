import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { readUpdateState, updateStateFile, writeUpdateState } from '../config/update-state.js';
import { CHECK_INTERVAL_SECONDS, updateNotice, type UpdateCheckRequest } from './update-notice.js';

const NOW_SECONDS = 1_800_000_000;

let dir: string | null = null;

afterEach(() => {
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A scratch CFG and an installed-looking package root (no .git), plus a launcher that only records. */
function setUp(env: Record<string, string> = {}) {
  dir = mkdtempSync(join(tmpdir(), 'flower-update-notice-'));
  const packageRoot = join(dir, 'lib', 'node_modules', 'flower-agent');
  mkdirSync(packageRoot, { recursive: true });
  const config = loadConfig({
    env: { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), ...env },
    cwd: dir,
    packageRoot: null,
  });
  const launched: UpdateCheckRequest[] = [];
  const notice = (overrides: { packageRoot?: string } = {}) =>
    updateNotice({
      config,
      now: () => NOW_SECONDS * 1000,
      packageRoot: overrides.packageRoot ?? packageRoot,
      version: '0.1.0',
      launch: (request) => launched.push(request),
    });
  return { config, launched, notice, stateFile: updateStateFile(config.configDir) };
}

describe('updateNotice', () => {
  test('with no state yet: no line, and one check of <registry>/flower-agent/latest writing CFG/.update-node.json', () => {
    const { notice, launched, stateFile } = setUp({ npm_config_registry: 'http://127.0.0.1:9/' });
    expect(notice()).toBeNull();
    expect(launched).toEqual([{ url: 'http://127.0.0.1:9/flower-agent/latest', stateFile }]);
  });

  test('a newer version recorded today: the notice names it and the update command, and nothing is asked', () => {
    const { notice, launched, stateFile } = setUp();
    writeUpdateState(stateFile, { checked: NOW_SECONDS - 60, latest: '0.2.0' });
    expect(notice()).toBe(
      'flower-agent 0.2.0 is available (this is 0.1.0). Update with: npm install -g flower-agent@latest',
    );
    expect(launched).toEqual([]);
  });

  test('the same or an older version recorded: no line', () => {
    const { notice, stateFile } = setUp();
    writeUpdateState(stateFile, { checked: NOW_SECONDS, latest: '0.1.0' });
    expect(notice()).toBeNull();
    writeUpdateState(stateFile, { checked: NOW_SECONDS, latest: '0.0.9' });
    expect(notice()).toBeNull();
  });

  test('a day-old check is repeated, and the known newer version is still shown meanwhile', () => {
    const { notice, launched, stateFile } = setUp();
    writeUpdateState(stateFile, { checked: NOW_SECONDS - CHECK_INTERVAL_SECONDS + 1, latest: '0.2.0' });
    expect(notice()).not.toBeNull();
    expect(launched).toHaveLength(0);
    writeUpdateState(stateFile, { checked: NOW_SECONDS - CHECK_INTERVAL_SECONDS, latest: '0.2.0' });
    expect(notice()).toContain('0.2.0');
    expect(launched).toHaveLength(1);
  });

  test('a check time in the future (clock set back) is repeated', () => {
    const { notice, launched, stateFile } = setUp();
    writeUpdateState(stateFile, { checked: NOW_SECONDS + 3600, latest: '0.1.0' });
    notice();
    expect(launched).toHaveLength(1);
  });

  test('FLOWER_NO_UPDATE: no line and no check, even with a newer version on record', () => {
    const { notice, launched, stateFile } = setUp({ FLOWER_NO_UPDATE: '1' });
    writeUpdateState(stateFile, { checked: 0, latest: '9.0.0' });
    expect(notice()).toBeNull();
    expect(launched).toEqual([]);
    expect(readUpdateState(stateFile)).toEqual({ checked: 0, latest: '9.0.0' });
  });

  test('a source checkout or an npx cache copy: no line and no check', () => {
    const { notice, launched, stateFile } = setUp();
    writeUpdateState(stateFile, { checked: 0, latest: '9.0.0' });
    const checkout = join(dir as string, 'checkout');
    mkdirSync(join(checkout, '.git'), { recursive: true });
    expect(notice({ packageRoot: checkout })).toBeNull();
    const npx = join(dir as string, '.npm', '_npx', '1a2b3c', 'node_modules', 'flower-agent');
    mkdirSync(npx, { recursive: true });
    expect(notice({ packageRoot: npx })).toBeNull();
    expect(launched).toEqual([]);
  });

  test('a launcher that throws changes nothing for the run', () => {
    const { config } = setUp();
    expect(
      updateNotice({
        config,
        packageRoot: join(dir as string, 'lib', 'node_modules', 'flower-agent'),
        launch: () => {
          throw new Error('spawn EAGAIN');
        },
      }),
    ).toBeNull();
  });
});
