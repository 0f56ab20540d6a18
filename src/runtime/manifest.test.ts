import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { manifestRow, markVerdictStale, readManifest, staleVerdict, writeManifest } from './manifest.js';
import { newStepResult, type StepResult } from './step-result.js';

let runDir: string;

beforeEach(() => {
  runDir = mkdtempSync(join(tmpdir(), 'flower-manifest-'));
});

afterEach(() => {
  rmSync(runDir, { recursive: true, force: true });
});

function finished(step: string, extra: Partial<StepResult> = {}): StepResult {
  return { ...newStepResult(step, 1000), endedAt: 1012.345, ok: true, attempts: 1, ...extra };
}

describe('writeManifest', () => {
  test('writes snake_case rows with duration_s and run, indented, with non-ASCII kept', () => {
    const path = writeManifest(runDir, 'run-a', [
      finished('ad-hoc', { text: 'café 完成', sessionId: 's1', costUsd: 0.25 }),
    ]);
    expect(path).toBe(join(runDir, 'manifest.json'));
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('café 完成');
    expect(text).toContain('\n  {\n    "step": "ad-hoc"');
    expect(JSON.parse(text)).toEqual([
      {
        step: 'ad-hoc',
        session_id: 's1',
        ok: true,
        cost_usd: 0.25,
        num_turns: 0,
        text: 'café 完成',
        error: null,
        started_at: 1000,
        ended_at: 1012.345,
        attempts: 1,
        errors: [],
        resumed: false,
        retired: [],
        context: 0,
        duration_s: 12.35,
        run: 'run-a',
      },
    ]);
  });

  test('keeps other runs rows in file order and replaces only its own', () => {
    writeManifest(runDir, 'run-a', [finished('clarify')]);
    writeManifest(runDir, 'run-b', [finished('work')]);
    writeManifest(runDir, 'run-a', [finished('clarify'), finished('goal')]);
    expect(readManifest(runDir).map((row) => `${row.run}/${row.step}`)).toEqual([
      'run-b/work',
      'run-a/clarify',
      'run-a/goal',
    ]);
  });

  test('quarantines an unparseable manifest instead of overwriting it', () => {
    const path = join(runDir, 'manifest.json');
    writeFileSync(path, '[{"step": "precious"');
    writeManifest(runDir, 'run-z', [finished('ad-hoc')]);
    expect(readFileSync(`${path}.corrupt-run-z`, 'utf8')).toBe('[{"step": "precious"');
    expect(readManifest(runDir).map((row) => row.step)).toEqual(['ad-hoc']);
    writeFileSync(path, 'not json either');
    writeManifest(runDir, 'run-z', [finished('ad-hoc')]);
    expect(readFileSync(`${path}.corrupt-run-z-2`, 'utf8')).toBe('not json either');
  });

  test('takes over a stale lock and removes it afterwards', () => {
    const lock = join(runDir, 'manifest.json.lock');
    writeFileSync(lock, '999999\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    writeManifest(runDir, 'run-a', [finished('ad-hoc')]);
    expect(existsSync(lock)).toBe(false);
    expect(readManifest(runDir)).toHaveLength(1);
  });

  test('waits for a live lock, then writes anyway and leaves the other writer its lock', () => {
    const lock = join(runDir, 'manifest.json.lock');
    writeFileSync(lock, '1\n');
    const started = Date.now();
    writeManifest(runDir, 'run-a', [finished('ad-hoc')], { waitMs: 100 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(existsSync(lock)).toBe(true);
    expect(readManifest(runDir)).toHaveLength(1);
  });
});

describe('manifestRow', () => {
  test('gives an unfinished step a duration of 0, never negative', () => {
    expect(manifestRow(newStepResult('work', Date.now() / 1000), 'r').duration_s).toBe(0);
  });
});

describe('readManifest', () => {
  test('returns no rows for a missing or unreadable file', () => {
    expect(readManifest(runDir)).toEqual([]);
    writeFileSync(join(runDir, 'manifest.json'), '{}');
    expect(readManifest(runDir)).toEqual([]);
  });
});

describe('markVerdictStale', () => {
  const record = (result: string): NonNullable<StepResult['checks']> => ({
    judge: 'ACHIEVED',
    result,
    reason: '',
    host: { os: 'linux', arch: 'x64', release: '6' },
    tree: 't',
    base: 'b',
    items: [],
    verified: 1,
    total: 1,
    summary: '1 of 1 item verified here',
  });

  test('marks the last ACHIEVED verdict of the step, keeps the other rows, and a passing verify clears it', () => {
    writeManifest(runDir, 'run-a', [
      finished('work'),
      finished('work/verdict#1', { checks: record('NOT_YET') }),
      finished('work#round2'),
      finished('work/verdict#2', { checks: record('ACHIEVED') }),
      finished('bequest'),
    ]);
    expect(markVerdictStale(runDir, 'work', { at: 5, failed: ['a'] })).toBe(true);
    const rows = readManifest(runDir);
    expect(rows.map((row) => row.checks?.stale ?? null)).toEqual([
      null,
      null,
      null,
      { at: 5, failed: ['a'] },
      null,
    ]);
    expect(staleVerdict(runDir, 'work')?.stale.failed).toEqual(['a']);
    expect(markVerdictStale(runDir, 'work', null)).toBe(true);
    expect(staleVerdict(runDir, 'work')).toBe(null);
    expect(readManifest(runDir)).toHaveLength(5);
  });

  test('a NOT_YET verdict, a row without a check record, or no manifest is left alone', () => {
    expect(markVerdictStale(runDir, 'work', { at: 5, failed: ['a'] })).toBe(false);
    writeManifest(runDir, 'run-a', [finished('work/verdict#1', { checks: record('NOT_YET') })]);
    expect(markVerdictStale(runDir, 'work', { at: 5, failed: ['a'] })).toBe(false);
    writeManifest(runDir, 'run-b', [finished('work/verdict#1')]);
    expect(markVerdictStale(runDir, 'work', { at: 5, failed: ['a'] })).toBe(false);
  });
});
