import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { EventLog } from '../runtime/event-log.js';
import { writeManifest } from '../runtime/manifest.js';
import { runStatus } from '../runtime/run-status.js';
import { errorOutcome } from '../runtime/step-outcome.js';
import type { StepResult } from '../runtime/step-result.js';
import { statusLines } from './status-lines.js';

let workspace: string;
let runDir: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'flower-run-status-'));
  runDir = join(workspace, 'runs');
});

afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
});

function result(step: string, ok: boolean, costUsd: number, extra: Partial<StepResult> = {}): StepResult {
  return {
    step,
    sessionId: `s-${step}`,
    ok,
    costUsd,
    numTurns: 3,
    text: '',
    error: ok ? null : 'tests still fail',
    outcome: ok ? { kind: 'ok' } : errorOutcome('tests still fail'),
    startedAt: 1_754_380_800,
    endedAt: 1_754_380_860,
    attempts: 1,
    errors: [],
    resumed: false,
    retired: [],
    context: 36_849,
    ...extra,
  };
}

/** Every file under `dir` with its content: what looking must not change. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path] = readFileSync(path, 'base64');
    }
  }
  return files;
}

describe('runStatus', () => {
  test('steps, verdicts, the manifest total and the last context; written by nobody, read without a change', () => {
    writeManifest(runDir, 'run-1', [
      result('clarify', true, 0.01, { numTurns: 1 }),
      result('work', false, 0.2),
    ]);
    const log = new EventLog(runDir, { pid: 999_999_999 });
    const base = { at: 1_754_380_900, step: 'judge', text: '' };
    log.sink({ ...base, kind: 'verdict', round: 1, state: 'NOT_YET', reason: 'tests fail', failed: ['2'] });
    log.sink({
      ...base,
      kind: 'context',
      tokens: 153_100,
      sessionId: 's-work',
      window: 200_000,
      threshold: 150_000,
    });
    log.close();
    mkdirSync(join(workspace, '.flower', 'notes'), { recursive: true });
    const before = snapshot(workspace);

    const status = runStatus(workspace, runDir);

    expect(status).toMatchObject({
      found: true,
      live: false,
      holder: null,
      lastActivity: expect.any(Number) as unknown,
    });
    expect(status.costUsd).toBeCloseTo(0.21, 10);
    expect(status.steps.map((step) => [step.step, step.state, step.turns])).toEqual([
      ['clarify', 'ok', 1],
      ['work', 'failed', 3],
    ]);
    expect(status.verdicts).toEqual([
      { round: 1, state: 'NOT_YET', reason: 'tests fail', at: 1_754_380_900 },
    ]);
    expect(status.context).toEqual({ tokens: 153_100, window: 200_000 });
    expect(snapshot(workspace)).toEqual(before);

    const lines = statusLines(status, { env: { HOME: '/nowhere' }, lang: 'en' });
    expect(lines).toContain('  clarify · ok · $0.0100 · 1 turn · context 36.8K');
    expect(lines).toContain('  work · failed · $0.2000 · 3 turns · context 36.8K · tests still fail');
    expect(lines).toContain('verdict round 1: NOT_YET · tests fail');
    expect(lines.at(-1)).toBe('total $0.2100 · context 153.1K/200K');
    expect(lines[1]).toMatch(/^not running · last activity /);
  });

  test('a folder without a run: not found, and nothing is created', () => {
    const status = runStatus(workspace, runDir);
    expect(status.found).toBe(false);
    expect(readdirSync(workspace)).toEqual([]);
    expect(statusLines(status, { env: { HOME: '/nowhere' }, lang: 'en' })).toEqual([
      `No flower run in ${workspace} (nothing in ${runDir}); start one with: flower "..."`,
    ]);
  });

  test('a log whose writer is alive and has not closed it reads as live', () => {
    const log = new EventLog(runDir);
    writeFileSync(join(workspace, 'unrelated.txt'), 'x');
    const status = runStatus(workspace, runDir);
    expect(status.live).toBe(true);
    expect(status.holder).toEqual({ pid: process.pid, host: null, since: null, go: false });
    log.close();
    expect(runStatus(workspace, runDir).live).toBe(false);
  });
});
