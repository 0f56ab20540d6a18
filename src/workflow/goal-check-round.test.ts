import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { CheckRecord } from '../runtime/check-record.js';
import { Goal } from '../roles/goal.js';
import { Verdict } from '../roles/verdict.js';
import {
  bindVerdict,
  checksFeedback,
  checksForJudge,
  ensureBase,
  runGoalChecks,
  summaryLine,
  writeChecksNote,
  type CheckPlaces,
} from './goal-check-round.js';

let workspace = '';
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'flower-round-test-'));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const git = (...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: workspace,
    encoding: 'utf8',
  });

/** sum.js must print 5; "the test" always passes; a macOS item cannot be checked here. */
const GOAL = new Goal({
  statement: 'sum.js adds.',
  checks: ['node sum.js 2 3 prints 5', 'the test passes', 'runs on a Mac'],
  blocks: ['run: node sum.js 2 3\nstdout: ^5$', 'run: exit 0', 'manual: start it on a Mac\nneeds: macOS'],
});

function places(): CheckPlaces {
  const runDir = join(workspace, 'runs');
  mkdirSync(runDir, { recursive: true });
  return { workspace, runDir, exclude: [runDir, join(workspace, '.flower')] };
}

describe('runGoalChecks in a git repository', () => {
  test('checks run on a commit of their own ref, negative control on the base; the user branch and index are untouched', async () => {
    writeFileSync(join(workspace, 'README.md'), 'hello\n');
    git('init', '-q', '-b', 'main');
    git('add', 'README.md');
    git('commit', '-q', '-m', 'first');
    const at = places();
    ensureBase(at);
    // The work: an uncommitted new file, which the snapshot includes.
    writeFileSync(
      join(workspace, 'sum.js'),
      'console.log(Number(process.argv[2]) + Number(process.argv[3]));\n',
    );
    const statusBefore = git('status', '--porcelain');
    const head = git('rev-parse', 'HEAD');

    const record = (await runGoalChecks(GOAL, at, { negativeControl: true })) as CheckRecord;

    expect(record.items.map((item) => [item.passes_on_round, item.passes_on_base])).toEqual([
      [true, false],
      [true, true],
      [null, null],
    ]);
    expect(record.items[1]?.why).toMatch(/passes on the base tree too/);
    expect(record.verified).toBe(1);
    expect(record.summary).toBe('1 of 3 items verified here; 1 needs macOS; 1 failing');
    expect(record.tree).toMatch(/^refs\/flower\/rounds\/1 \([0-9a-f]{12}\)$/);
    expect(record.base).toMatch(/^refs\/flower\/base /);
    expect(record.host).toMatchObject({ os: process.platform, arch: process.arch });
    // Nothing of the user's changed: same HEAD, same status, same branch; no worktree left behind.
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(git('status', '--porcelain')).toBe(statusBefore);
    expect(git('symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    // The run directory is not part of the checked tree.
    expect(git('ls-tree', '-r', '--name-only', 'refs/flower/rounds/1').trim().split('\n')).toEqual([
      'README.md',
      'sum.js',
    ]);
    // Each check runs on the base once: the next round reads the result back.
    const next = (await runGoalChecks(GOAL, at, { negativeControl: true })) as CheckRecord;
    expect(next.tree).toMatch(/^refs\/flower\/rounds\/2 /);
    expect(next.items[1]?.passes_on_base).toBe(true);
    const state = JSON.parse(readFileSync(join(at.runDir ?? '', 'checks', 'state.json'), 'utf8')) as {
      baseResults: object;
    };
    expect(Object.keys(state.baseResults)).toHaveLength(2);
  });

  test('a repository without commits works too', async () => {
    git('init', '-q');
    const at = places();
    ensureBase(at);
    writeFileSync(join(workspace, 'sum.js'), 'console.log(5)\n');
    const record = (await runGoalChecks(GOAL, at, { negativeControl: true })) as CheckRecord;
    expect(record.items[0]).toMatchObject({ passes_on_round: true, passes_on_base: false });
  });
});

describe('runGoalChecks outside git', () => {
  test('the base and the round are copies; the run directory is left out', async () => {
    const at = places();
    writeFileSync(join(at.runDir ?? '', 'big.log'), 'x');
    ensureBase(at);
    expect(existsSync(join(at.runDir ?? '', 'checks', 'base-tree', 'runs'))).toBe(false);
    writeFileSync(join(workspace, 'sum.js'), 'console.log(5)\n');
    const record = (await runGoalChecks(GOAL, at, { negativeControl: true })) as CheckRecord;
    expect(record.items[0]).toMatchObject({ passes_on_round: true, passes_on_base: false });
    expect(record.items[1]).toMatchObject({ passes_on_round: true, passes_on_base: true });
  });

  test('a goal without blocks or unverifiable items has nothing for flower to run', async () => {
    expect(
      await runGoalChecks(new Goal({ statement: 's', checks: ['a'] }), places(), { negativeControl: true }),
    ).toBe(null);
  });
});

function record(items: Partial<CheckRecord['items'][number]>[]): CheckRecord {
  const full = items.map((item) => ({
    item: 'x',
    check: 'c',
    kind: 'command' as const,
    needs: null,
    passes_on_round: true,
    passes_on_base: false,
    exit: 0,
    duration_ms: 1,
    stdout_tail: '',
    stderr_tail: '',
    why: '',
    ...item,
  }));
  const made: CheckRecord = {
    judge: '',
    result: '',
    reason: '',
    host: { os: 'linux', arch: 'x64', release: '6' },
    tree: 't',
    base: 'b',
    items: full,
    verified: full.filter((item) => item.kind === 'command' && item.passes_on_round && !item.passes_on_base)
      .length,
    total: full.length,
    summary: '',
  };
  made.summary = summaryLine(made);
  return made;
}

describe('bindVerdict', () => {
  const achieved = new Verdict({ state: 'ACHIEVED', reason: 'looks done' });

  test('ACHIEVED while a check fails becomes NOT_YET naming the failing check; both words are recorded', () => {
    const checks = record([
      { item: 'a' },
      { item: 'b', passes_on_round: false, exit: 1, why: 'exit 1, expected 0', stdout_tail: 'FAIL sum' },
    ]);
    const bound = bindVerdict(achieved, checks);
    expect(bound.state).toBe('NOT_YET');
    expect(bound.failed).toEqual(['b']);
    expect(bound.reason).toContain('b (exit 1, expected 0)');
    expect(checks).toMatchObject({ judge: 'ACHIEVED', result: 'NOT_YET' });
    expect(checksFeedback(checks)).toContain('FAIL sum');
    expect(checksForJudge(checks)).toContain('[FAIL] b');
  });

  test('a check that passes on the base tree does not count', () => {
    const checks = record([{ item: 'a', passes_on_base: true, why: 'passes on the base tree too' }]);
    expect(bindVerdict(achieved, checks).state).toBe('NOT_YET');
    expect(checksForJudge(checks)).toContain('[BLIND] a');
  });

  test('an item needing another environment is never ACHIEVED: UNREACHABLE with the closing line', () => {
    const checks = record([
      { item: 'a' },
      { item: 'b' },
      ...['m1', 'm2', 'm3'].map((item) => ({
        item,
        kind: 'manual' as const,
        needs: 'macOS',
        passes_on_round: null,
      })),
    ]);
    const bound = bindVerdict(achieved, checks);
    expect(bound.state).toBe('UNREACHABLE');
    expect(bound.reason).toMatch(
      /^2 of 5 items verified here; 3 need macOS: "m1", "m2", "m3" cannot be verified/,
    );
  });

  test('all verified: the judge word stands; flower never turns NOT_YET into a pass', () => {
    const green = record([{ item: 'a' }]);
    expect(bindVerdict(achieved, green)).toBe(achieved);
    expect(green).toMatchObject({ judge: 'ACHIEVED', result: 'ACHIEVED', reason: '' });
    const notYet = new Verdict({ state: 'NOT_YET', reason: 'no README' });
    expect(bindVerdict(notYet, record([{ item: 'a' }]))).toBe(notYet);
  });

  test('the results are written to the workbench beside the goal', () => {
    const goalPath = join(workspace, 'notes', 'goal.md');
    const path = writeChecksNote(
      goalPath,
      record([{ item: 'a', passes_on_round: false, why: 'exit 1' }]),
      'work/verdict#1',
    );
    expect(readFileSync(path, 'utf8')).toContain('- [FAIL] a');
  });
});
