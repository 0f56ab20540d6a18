import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { isFlowerError } from '../errors.js';
import { ScriptedBackend } from '../testing/scripted-backend.js';
import { scriptedTurn } from '../testing/scripted-turn.js';
import { FileRunRecords } from './file-run-records.js';
import type { RunRecords } from './run-records.js';
import { isNoSpaceError, runDirFullText } from './run-dir-full.js';
import { Runtime } from './runtime.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const spec = agentSpec({ name: 'ad-hoc', instructions: 'be brief' });

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-run-dir-full-')));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The error Node's fs gives a write that found no space. */
function noSpace(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
}

/** The manifest files of `runDir`, whose row writes fail with `failure()` while it returns an error. */
function failingRecords(runDir: string, failure: () => Error | null): RunRecords {
  const real = new FileRunRecords(runDir);
  return Object.assign(Object.create(real) as RunRecords, {
    updateRows: (...args: Parameters<RunRecords['updateRows']>) => {
      const error = failure();
      if (error !== null) throw error;
      return real.updateRows(...args);
    },
  });
}

describe('isNoSpaceError', () => {
  test('knows the file system, quota and SQLite codes, also as a cause', () => {
    expect(isNoSpaceError(noSpace())).toBe(true);
    expect(isNoSpaceError(Object.assign(new Error('quota'), { code: 'EDQUOT' }))).toBe(true);
    expect(
      isNoSpaceError(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })),
    ).toBe(true);
    expect(isNoSpaceError(new Error('write failed', { cause: noSpace() }))).toBe(true);
    expect(isNoSpaceError(Object.assign(new Error('denied'), { code: 'EACCES' }))).toBe(false);
    expect(isNoSpaceError(new Error('ENOSPC in the text only'))).toBe(false);
    expect(isNoSpaceError('ENOSPC')).toBe(false);
    expect(isNoSpaceError(null)).toBe(false);
  });
});

describe('Runtime with a full run directory', () => {
  test('a manifest write that finds no space cuts the step and stops the run before its next step', async () => {
    let full = false;
    const runDir = join(dir, 'ws', 'runs');
    const backend = new ScriptedBackend([
      scriptedTurn('sess-1', 'first'),
      scriptedTurn('sess-2', 'second'),
      scriptedTurn('sess-3', 'never'),
    ]);
    const runtime = new Runtime({
      workspace: join(dir, 'ws'),
      config,
      backend,
      records: failingRecords(runDir, () => (full ? noSpace() : null)),
    });
    expect((await runtime.run(spec, 'one')).ok).toBe(true);

    full = true;
    const second = await runtime.run(spec, 'two');
    // Cut at its first write (the in-flight row): it did not finish, and its session stays resumable.
    expect(second.ok).toBe(false);
    expect(runtime.uiErrors).toContain('manifest: Error: ENOSPC: no space left on device, write');

    full = false;
    const third = await runtime.run(spec, 'three').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isFlowerError(third) && third.code).toBe('RUN_DIR_FULL');
    expect((third as Error).message).toBe(runDirFullText(runDir));
    expect((third as Error).message.split('\n')).toHaveLength(1);
    expect(backend.requests).toHaveLength(2);
    await runtime.close();
  });

  test('a write that fails for another reason is recorded and the run goes on', async () => {
    const runDir = join(dir, 'ws', 'runs');
    const denied = Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' });
    let failing = true;
    const runtime = new Runtime({
      workspace: join(dir, 'ws'),
      config,
      backend: new ScriptedBackend([scriptedTurn('sess-1', 'first'), scriptedTurn('sess-2', 'second')]),
      records: failingRecords(runDir, () => (failing ? denied : null)),
    });
    expect((await runtime.run(spec, 'one')).ok).toBe(true);
    expect(runtime.uiErrors[0]).toBe('manifest: Error: EACCES: permission denied, open');
    failing = false;
    expect((await runtime.run(spec, 'two')).ok).toBe(true);
    await runtime.close();
  });
});
