/**
 * flower's own run of the goal's machine checks after a work round (docs/goal-checks.md, decisions.md D118):
 * every command check runs in a clean copy of the round's tree, and once against the goal's base tree (the
 * tree before the work began) as a negative control — a check that passes there tests nothing. The record
 * goes to the workbench (`notes/checks.md`), into the judge's request, and onto the verdict's manifest row;
 * {@link bindVerdict} then holds the judge to it.
 *
 * @module
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform, release, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { CheckOutcome, CheckRecord, HostFacts } from '../runtime/check-record.js';
import {
  checkKey,
  describeCheck,
  goalChecks,
  type CheckedItem,
  type CommandCheck,
  type GoalChecks,
} from '../roles/goal-checks.js';
import type { Goal } from '../roles/goal.js';
import { Verdict } from '../roles/verdict.js';
import { runCheck, type CheckRun } from './check-runner.js';
import { freezeDocument } from './freeze-document.js';
import {
  cleanCopy,
  snapshotExists,
  snapshotName,
  snapshotTree,
  type CleanCopy,
  type TreeSnapshot,
} from './tree-snapshot.js';

/** Where the checks run and where their state is kept. */
export interface CheckPlaces {
  /** The workspace whose tree is checked. */
  readonly workspace: string;
  /** The run directory (`<runDir>/checks/` holds the base and its results); null keeps them in memory. */
  readonly runDir: string | null;
  /** Folders left out of every snapshot: the run directory and the workbench. */
  readonly exclude: readonly string[];
}

/** The base tree and what each check did on it, kept across rounds and wakes. */
interface CheckState {
  base: TreeSnapshot | null;
  /** Snapshots taken so far (the next round's ref number is one more). */
  rounds: number;
  /** By {@link checkKey}: whether the check passed on the base tree. */
  baseResults: Record<string, { passed: boolean; why: string }>;
}

/** The git ref of the goal's base tree. */
export const BASE_REF = 'refs/flower/base';
/** The prefix of the refs of the rounds' trees. */
export const ROUNDS_REF = 'refs/flower/rounds/';

const memory = new Map<string, CheckState>();

/** The host the checks run on. */
export function hostFacts(): HostFacts {
  return { os: platform(), arch: arch(), release: release() };
}

/**
 * Records the goal's base tree when none is recorded yet: the tree before the first work round. Kept until
 * the run starts over (`--new`), so a wake does not move the base past the work already done. Never throws:
 * a base that cannot be taken leaves the negative control unrun (its cells stay empty).
 */
export function ensureBase(places: CheckPlaces): void {
  const state = readState(places);
  if (state.base !== null && snapshotExists(state.base)) return;
  try {
    state.base = snapshotTree(places.workspace, {
      ref: BASE_REF,
      copyTo:
        places.runDir === null ? freshFolder('flower-base-') : join(places.runDir, 'checks', 'base-tree'),
      exclude: places.exclude,
      message: 'flower: the goal base (the tree before the work began)',
    });
    state.baseResults = {};
  } catch {
    state.base = null;
  }
  writeState(places, state);
}

/** Forgets the base (the run starts over); its ref and copy are left for git and the archive. */
export function forgetBase(runDir: string): void {
  rmSync(join(runDir, 'checks', 'state.json'), { force: true });
}

/** Options of {@link runGoalChecks}. */
export interface RunGoalChecksOptions {
  /** Run each check against the base tree too (once per check definition); true for judged rounds. */
  negativeControl: boolean;
  /** The git ref for this tree; `refs/flower/rounds/<n>` by default. */
  ref?: string;
}

/**
 * Runs every check of `goal` on a clean copy of the workspace's tree as it is now. Returns null when the goal
 * has no machine checks (a checklist of prose stays the judge's alone). `judge`, `result` and `reason` are
 * left for {@link bindVerdict}.
 */
export async function runGoalChecks(
  goal: Goal,
  places: CheckPlaces,
  options: RunGoalChecksOptions,
): Promise<CheckRecord | null> {
  const checks = goalChecks(goal);
  if (!checks.active && goal.unverifiable.length === 0) return null;
  const state = readState(places);
  const round = state.rounds + 1;
  const ref = options.ref ?? `${ROUNDS_REF}${round}`;
  let snapshot: TreeSnapshot | null = null;
  let copy: CleanCopy | null = null;
  let treeProblem = '';
  // Only a command check needs the tree: manual items alone cost no snapshot.
  const needsTree = checks.items.some((entry) => entry.check?.kind === 'command');
  try {
    if (needsTree) {
      const taken = snapshotTree(places.workspace, {
        ref,
        copyTo: freshFolder('flower-round-'),
        exclude: places.exclude,
        message: `flower: the tree checked as ${ref}`,
      });
      snapshot = taken;
      copy =
        taken.kind === 'git'
          ? cleanCopy(taken)
          : { workspace: taken.path, remove: () => rmSync(taken.path, { recursive: true, force: true }) };
    }
  } catch (error) {
    treeProblem = `flower could not copy the tree: ${(error as Error).message.split('\n')[0] ?? ''}`;
  }
  if (options.ref === undefined) state.rounds = round;
  const base = options.negativeControl ? new BaseRunner(state) : null;
  const items: CheckOutcome[] = [];
  try {
    for (const entry of checks.items) {
      items.push(await outcome(entry, copy, treeProblem, base));
    }
  } finally {
    copy?.remove();
    base?.close();
    writeState(places, state);
  }
  const record: CheckRecord = {
    judge: '',
    result: '',
    reason: '',
    host: hostFacts(),
    // A copy outside git is removed once checked; its path would point nowhere.
    tree:
      snapshot === null
        ? ''
        : snapshot.kind === 'git'
          ? snapshotName(snapshot)
          : 'a temporary copy of the workspace',
    base: state.base === null ? '' : snapshotName(state.base),
    items,
    verified: items.filter(isVerified).length,
    total: items.length,
    summary: '',
  };
  record.summary = summaryLine(record);
  return record;
}

async function outcome(
  entry: CheckedItem,
  copy: CleanCopy | null,
  treeProblem: string,
  base: BaseRunner | null,
): Promise<CheckOutcome> {
  const empty = { exit: null, duration_ms: 0, stdout_tail: '', stderr_tail: '' };
  const check = entry.check;
  if (check === null) {
    return {
      item: entry.item,
      check: describeCheck(null),
      kind: 'invalid',
      needs: null,
      passes_on_round: null,
      passes_on_base: null,
      ...empty,
      why: `malformed check: ${entry.problem ?? 'unreadable'}`,
    };
  }
  if (check.kind === 'manual') {
    return {
      item: entry.item,
      check: describeCheck(check),
      kind: 'manual',
      needs: check.needs,
      passes_on_round: null,
      passes_on_base: null,
      ...empty,
      why: check.needs === null ? '' : `needs ${check.needs}: cannot be verified on this host`,
    };
  }
  const run: CheckRun | null = copy === null ? null : await runCheck(check, copy.workspace);
  const onBase = base === null ? null : await base.passes(check);
  const why =
    run === null
      ? treeProblem
      : !run.passed
        ? run.why
        : onBase === true
          ? 'passes on the base tree too (before the work began): it does not test this item; replace it'
          : '';
  return {
    item: entry.item,
    check: describeCheck(check),
    kind: 'command',
    needs: null,
    passes_on_round: run?.passed ?? null,
    passes_on_base: onBase,
    exit: run?.exit ?? null,
    duration_ms: run?.durationMs ?? 0,
    stdout_tail: run?.stdoutTail ?? '',
    stderr_tail: run?.stderrTail ?? '',
    why,
  };
}

/** Runs checks on the base tree, each definition once ever; the clean copy is made on first need. */
class BaseRunner {
  readonly #state: CheckState;
  #copy: CleanCopy | null = null;
  #broken = false;

  constructor(state: CheckState) {
    this.#state = state;
  }

  async passes(check: CommandCheck): Promise<boolean | null> {
    const key = checkKey(check);
    const known = this.#state.baseResults[key];
    if (known !== undefined) return known.passed;
    const base = this.#state.base;
    if (base === null || this.#broken) return null;
    try {
      this.#copy ??= cleanCopy(base);
    } catch {
      this.#broken = true;
      return null;
    }
    const run = await runCheck(check, this.#copy.workspace);
    this.#state.baseResults[key] = { passed: run.passed, why: run.why };
    return run.passed;
  }

  close(): void {
    this.#copy?.remove();
    this.#copy = null;
  }
}

/** A command check that passed on the round and did not pass on the base (or had no base to run on). */
export function isVerified(outcome: CheckOutcome): boolean {
  return outcome.kind === 'command' && outcome.passes_on_round === true && outcome.passes_on_base !== true;
}

/** An item that keeps the goal from being ACHIEVED by flower's own checks: failing, malformed or blind. */
export function isFailing(outcome: CheckOutcome): boolean {
  return outcome.kind === 'invalid' || (outcome.kind === 'command' && !isVerified(outcome));
}

/** The items that need an environment flower is not in. */
export function unverifiableHere(record: CheckRecord): CheckOutcome[] {
  return record.items.filter((outcome) => outcome.kind === 'manual' && outcome.needs !== null);
}

/** "2 of 5 items verified here; 3 need macOS" — and what else is not verified, by kind. */
export function summaryLine(record: CheckRecord): string {
  const parts = [
    `${record.verified} of ${record.total} ${record.total === 1 ? 'item' : 'items'} verified here`,
  ];
  const needs = new Map<string, number>();
  for (const outcome of unverifiableHere(record)) {
    needs.set(outcome.needs ?? '', (needs.get(outcome.needs ?? '') ?? 0) + 1);
  }
  for (const [what, count] of needs) parts.push(`${count} ${count === 1 ? 'needs' : 'need'} ${what}`);
  const failing = record.items.filter(isFailing).length;
  if (failing > 0) parts.push(`${failing} failing`);
  const judged = record.items.filter((outcome) => outcome.kind === 'manual' && outcome.needs === null).length;
  if (judged > 0) parts.push(`${judged} left to the judge`);
  return parts.join('; ');
}

/**
 * The verdict flower records: the judge's, unless its ACHIEVED is contradicted by flower's checks — any
 * failing, malformed or non-discriminating check makes it NOT_YET; an item needing another environment
 * makes it UNREACHABLE (it can never be verified here, so more rounds would not help). flower never turns a
 * NOT_YET or UNREACHABLE into a pass. Fills the record's `judge`, `result` and `reason`.
 */
export function bindVerdict(verdict: Verdict, record: CheckRecord): Verdict {
  record.judge = verdict.state;
  const failing = record.items.filter(isFailing);
  const elsewhere = unverifiableHere(record);
  let bound = verdict;
  if (verdict.state === 'ACHIEVED' && failing.length > 0) {
    const list = failing.map((outcome) => `${outcome.item} (${outcome.why})`).join('; ');
    bound = new Verdict({
      state: 'NOT_YET',
      reason: `The judge said ACHIEVED, but flower's own checks disagree (${record.summary}). Failing: ${list}.`,
      failed: failing.map((outcome) => outcome.item),
    });
  } else if (verdict.state === 'ACHIEVED' && elsewhere.length > 0) {
    bound = new Verdict({
      state: 'UNREACHABLE',
      reason: `${record.summary}: ${elsewhere.map((outcome) => `"${outcome.item}"`).join(', ')} cannot be verified on this ${record.host.os} ${record.host.arch} host.`,
      failed: elsewhere.map((outcome) => outcome.item),
    });
  }
  record.result = bound.state;
  record.reason = bound === verdict ? '' : bound.reason;
  return bound;
}

/** The section of the judge's request that carries flower's results and what they mean for the verdict. */
export function checksForJudge(record: CheckRecord): string {
  const lines = [
    `flower ran the goal's checks itself on a clean copy of this round's tree (${record.host.os} ${record.host.arch}), and each once on the tree before the work began (the negative control). ${record.summary}.`,
    '',
    ...record.items.map(resultLine),
  ];
  const failing = record.items.filter((outcome) => isFailing(outcome) && outcome.kind === 'command');
  for (const outcome of failing) {
    const output = outputTails(outcome);
    if (output !== '') lines.push('', `Output of "${outcome.item}":`, output);
  }
  lines.push(
    '',
    'These results bind the verdict: while any check above fails, is malformed or passes on the base tree, flower records NOT_YET whatever you conclude, and an item that needs another environment is never ACHIEVED here. A check that passes on the base tree tests nothing; flower asks for a replacement. Judge the items the checks do not cover yourself.',
  );
  return lines.join('\n');
}

/** What the work session is told next round about the checks that failed: why, and their output. */
export function checksFeedback(record: CheckRecord): string {
  const failing = record.items.filter((outcome) => isFailing(outcome) && outcome.kind === 'command');
  if (failing.length === 0) return '';
  const parts = ["flower ran the goal's checks on a clean copy of your tree; these did not pass:"];
  for (const outcome of failing) {
    parts.push(`- ${outcome.item}: \`${outcome.check}\` — ${outcome.why}`);
    const output = outputTails(outcome);
    if (output !== '') parts.push(output);
  }
  return parts.join('\n');
}

/** `notes/checks.md` beside the goal: the latest results, for a person and for the workers. */
export function writeChecksNote(goalPath: string, record: CheckRecord, label: string): string {
  const path = join(dirname(goalPath), 'checks.md');
  const lines = [
    '# Goal checks',
    '',
    `> Written by flower after ${label}: it ran each check itself on a clean copy of the tree (${record.tree || 'no tree'}) on ${record.host.os} ${record.host.arch}, and on the base tree (${record.base || 'none recorded'}). Rewritten every round.`,
    '',
    `${record.summary}.`,
    '',
    ...record.items.map(resultLine),
  ];
  for (const outcome of record.items.filter((item) => isFailing(item) && item.kind === 'command')) {
    const output = outputTails(outcome);
    if (output !== '') lines.push('', `## ${outcome.item}`, '', output);
  }
  freezeDocument(path, `${lines.join('\n')}\n`);
  return path;
}

function resultLine(outcome: CheckOutcome): string {
  const status =
    outcome.kind === 'invalid'
      ? 'MALFORMED'
      : outcome.kind === 'manual'
        ? outcome.needs === null
          ? 'MANUAL'
          : 'NOT HERE'
        : isVerified(outcome)
          ? 'PASS'
          : outcome.passes_on_round === true
            ? 'BLIND'
            : 'FAIL';
  const base =
    outcome.kind !== 'command'
      ? ''
      : ` · round ${cell(outcome.passes_on_round)}, base ${cell(outcome.passes_on_base)}`;
  const why = outcome.why === '' ? '' : ` — ${outcome.why}`;
  return `- [${status}] ${outcome.item} · \`${outcome.check}\`${base}${why}`;
}

function cell(value: boolean | null): string {
  return value === null ? 'not run' : value ? 'pass' : 'fail';
}

function outputTails(outcome: CheckOutcome): string {
  const parts: string[] = [];
  const shown = (text: string): string => (text.length > 1000 ? `…${text.slice(-1000)}` : text).trimEnd();
  if (outcome.stdout_tail.trim() !== '') parts.push(`stdout:\n\`\`\`\n${shown(outcome.stdout_tail)}\n\`\`\``);
  if (outcome.stderr_tail.trim() !== '') parts.push(`stderr:\n\`\`\`\n${shown(outcome.stderr_tail)}\n\`\`\``);
  return parts.join('\n');
}

function readState(places: CheckPlaces): CheckState {
  const empty: CheckState = { base: null, rounds: 0, baseResults: {} };
  if (places.runDir === null) {
    const known = memory.get(places.workspace) ?? empty;
    memory.set(places.workspace, known);
    return known;
  }
  const path = statePath(places.runDir);
  if (!existsSync(path)) return empty;
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<CheckState>;
    return {
      base: parsed.base ?? null,
      rounds: typeof parsed.rounds === 'number' ? parsed.rounds : 0,
      baseResults: parsed.baseResults ?? {},
    };
  } catch {
    return empty;
  }
}

function writeState(places: CheckPlaces, state: CheckState): void {
  if (places.runDir === null) {
    memory.set(places.workspace, state);
    return;
  }
  const path = statePath(places.runDir);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`);
}

function statePath(runDir: string): string {
  return join(runDir, 'checks', 'state.json');
}

function freshFolder(prefix: string): string {
  return join(tmpdir(), `${prefix}${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** The goal's checks, for callers that need the problems (the goal step asks the judge to fix them). */
export function checkProblems(goal: Goal): GoalChecks['problems'] {
  return goalChecks(goal).problems;
}
