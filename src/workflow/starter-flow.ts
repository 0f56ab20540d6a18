/**
 * `starterFlow`: the go path (docs/go-path.md) — clarify the request into a brief, turn the brief into a
 * goal, let a coordinator and its workers do the work in judged rounds, and leave a bequest for whoever
 * continues. Rerunning in the same directory wakes the run: the frozen brief and goal are reused, the work
 * session resumes, and a remark given on wake lands in the brief, re-derives the goal and reaches the
 * coordinator — all three, or it fails silently somewhere.
 *
 * @module
 */
import { join, resolve } from 'node:path';
import { languageOf, uiText, type Lang } from '../config/ui-text.js';
import { processEnvironment } from '../config/process-environment.js';
import { FlowerError } from '../errors.js';
import { AMEND_LABELS, HumanChannel } from '../human/human-channel.js';
import { Brief, readDocument } from '../roles/brief.js';
import { coordinator } from '../roles/coordinator.js';
import { worker } from '../roles/worker.js';
import { Lineage } from '../runtime/lineage.js';
import { readManifest } from '../runtime/manifest.js';
import { Verdict } from '../roles/verdict.js';
import { benchFor } from '../workbench/bench-for.js';
import { isGitWorkTree } from '../workbench/git-work-tree.js';
import type { Workbench } from '../workbench/workbench.js';
import { NOTES, NOTES_ZH } from '../workbench/workbench-path.js';
import { bequestStep } from './bequest-step.js';
import { briefAmendments } from './brief-amendments.js';
import { clarifyStep } from './clarify-step.js';
import { checksFeedback } from './check-report.js';
import { isFailing } from './check-verdict.js';
import { forgetBase } from './goal-check-round.js';
import { goalStep } from './goal-step.js';
import { finishedRound, passedBeforeCutOff } from './interrupted-round.js';
import { CODER_DESCRIPTION, CODER_PROMPT, wakePrompt, workPrompt } from './starter-prompts.js';
import { STEP_NAMES } from './step-names.js';
import { step, type Step } from './step.js';
import { withGoal } from './with-goal.js';
import { Workflow } from './workflow.js';

/** Options of {@link starterFlow}; the CLI's `go` maps its flags onto them. */
export interface StarterOptions {
  /** The workspace; `.` by default. */
  workspace?: string;
  /**
   * The run directory holding lineage; `<workspace>/runs` by default (decisions.md D3), relative to the cwd.
   */
  runDir?: string;
  /** `--new`: archive the lineage, brief, goal and Q&A log (moved, never deleted) and start over. */
  fresh?: boolean;
  /** Each worker in its own git worktree; the workspace must be a git work tree. */
  isolate?: boolean;
  /** Whether the workspace is a git work tree, when the caller has already asked git; asked here otherwise. */
  gitWorkTree?: boolean;
  /** Stop after the clarify step. */
  clarifyOnly?: boolean;
  /** Set a goal and judge every round; true by default. */
  goal?: boolean;
  /** Total judged work rounds; 3 by default. */
  rounds?: number;
  /** What the judge may run: false (default), true, or `'inspect'`. */
  judgeCanRun?: boolean | 'inspect';
  /** The question quota; null (default) = unlimited, 0 = none. */
  maxAsks?: number | null;
  /** Seconds a question waits; 1800 by default, null = forever, `<= 0` = unattended. */
  timeoutS?: number | null;
  /** Extra instructions for the clarifier. */
  instructions?: string;
  /** The `coder` worker's own rules (before the shared report discipline). */
  workerPrompt?: string;
  /**
   * File names under `notes/`; the English ones by default, a Chinese one when only it exists
   * (decisions.md D1).
   */
  briefName?: string;
  goalName?: string;
  logName?: string;
  /** Finish with a bequest in `CLAUDE.md` and `AGENTS.md`; true by default. */
  bequest?: boolean;
  /**
   * The language of the errors thrown while building (the run itself speaks its runtime's); by default the
   * one a configuration loaded now would have, as `new Runtime()` without a `config` does.
   */
  lang?: Lang;
}

/** The starter workflow and the parts a front end wires to it (the live input line, the wake banner). */
export interface StarterBuild {
  readonly workflow: Workflow;
  /** The human channel of every step: answer its questions, `send()` typed words to it. */
  readonly channel: HumanChannel;
  /** The workspace's workbench, already created; run the Runtime with it. */
  readonly workbench: Workbench;
  /** True when a complete brief was found: this run continues an earlier one. */
  readonly waking: boolean;
  /** True when a wake remark was appended to the brief (the goal is then set again). */
  readonly amended: boolean;
  readonly briefPath: string;
  readonly goalPath: string;
  readonly qaLogPath: string;
}

/**
 * The starter workflow for `ask`. Throws `NOT_A_GIT_REPO` for `isolate` outside a git work tree (checked now:
 * the Agent tool would fail only after money is spent) and `EMPTY_REQUEST` for an empty `ask` when there is
 * no complete brief to continue from.
 */
export function starterFlow(ask: string, options: StarterOptions = {}): Workflow {
  return buildStarter(ask, options).workflow;
}

/** {@link starterFlow} with its channel, workbench and wake facts, for a front end that wires them. */
export function buildStarter(ask: string, options: StarterOptions = {}): StarterBuild {
  const request = ask.trim();
  const lang = options.lang ?? languageOf(processEnvironment());
  const workspace = resolve(options.workspace ?? '.');
  const runDir = resolve(options.runDir ?? join(workspace, 'runs'));
  const isolate = options.isolate ?? false;
  if (isolate && !(options.gitWorkTree ?? isGitWorkTree(workspace))) {
    throw new FlowerError('NOT_A_GIT_REPO', uiText('err.isolate', { path: workspace }, lang));
  }
  // Checked before anything moves: starting over needs something to start with.
  if (options.fresh === true && request === '')
    throw new FlowerError('EMPTY_REQUEST', uiText('err.emptyAsk', {}, lang));
  const workbench = benchFor(workspace, { isolate }).ensure();
  const fresh = options.fresh === true || briefDeleted(workbench, runDir, workspace, request);
  if (fresh) {
    // One history: the Q&A log goes with the brief, or "goal present, conversation gone" is left behind.
    const extra = (['brief', 'goal', 'qaLog'] as const).flatMap((key) => [
      join(workbench.notes, NOTES[key]),
      join(workbench.notes, NOTES_ZH[key]),
    ]);
    Lineage.open(runDir, workspace).archive(join(workbench.notes, 'archive'), { extra });
    // A new goal gets a new base: the tree as it is now, before its work begins.
    forgetBase(runDir);
  }
  const notesFile = (name: string | undefined, key: 'brief' | 'goal' | 'qaLog'): string =>
    name === undefined ? workbench.notesFile(key) : join(workbench.notes, name);
  const briefPath = notesFile(options.briefName, 'brief');
  const goalPath = notesFile(options.goalName, 'goal');
  const qaLogPath = notesFile(options.logName, 'qaLog');

  const waking = Brief.load(briefPath)?.complete() === true;
  if (!waking && request === '') throw new FlowerError('EMPTY_REQUEST', uiText('err.emptyAsk', {}, lang));
  const channel = new HumanChannel({
    logPath: qaLogPath,
    amendPath: briefPath,
    maxAsks: options.maxAsks ?? null,
    timeoutS: options.timeoutS === undefined ? 1800 : options.timeoutS,
  });
  // The same command run again (after a crash, or on purpose) sends the lineage's own request again: that is
  // no new words, so nothing is added to the brief and the goal stays (decisions.md D332).
  const said = waking && request !== recordedRequest(runDir, workspace) ? request : '';
  const amended =
    said !== '' && notYetAppended(briefPath, said) && channel.amend(said, { label: AMEND_LABELS.wake });

  const steps: Step[] = [
    clarifyStep(channel, {
      briefPath,
      prompt: request,
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    }),
  ];
  const build = (all: Step[]): StarterBuild => ({
    workflow: new Workflow(all, { name: 'starter', channel, workbench }),
    channel,
    workbench,
    waking,
    amended,
    briefPath,
    goalPath,
    qaLogPath,
  });
  if (options.clarifyOnly === true) return build(steps);

  const judged = options.goal ?? true;
  if (judged) {
    steps.push(goalStep(channel, { goalPath, briefKey: STEP_NAMES.clarify, alwaysSet: amended }));
  }
  const coder = worker(CODER_DESCRIPTION, options.workerPrompt ?? CODER_PROMPT, { isolate });
  const work = step(
    STEP_NAMES.work,
    coordinator('coordinator', '', { coder }, { channel, workbench }),
    (ctx) => workPrompt(ctx, STEP_NAMES.clarify, request),
    {
      verbatim: true,
      resumePrompt: (ctx) => wakePrompt(ctx, said, amended && judged, judged ? lastFeedback(runDir) : ''),
      // A run killed in its bequest after the goal was ACHIEVED is finished by the bequest alone, which is
      // told the verdict and the last report as it would have been (decisions.md D333).
      when: (ctx) => {
        const passed =
          judged && said === ''
            ? passedBeforeCutOff(runDir, STEP_NAMES.work, STEP_NAMES.bequest, options.bequest ?? true)
            : null;
        if (passed === null) return true;
        ctx._verdict = Verdict.parse(passed.verdict.text);
        (ctx._results ??= {})[STEP_NAMES.work] = finishedRound(passed.round);
        return false;
      },
    },
  );
  steps.push(
    judged
      ? withGoal(work, channel, {
          goalPath,
          briefPath,
          ...(options.rounds === undefined ? {} : { rounds: options.rounds }),
          ...(options.judgeCanRun === undefined ? {} : { canRun: options.judgeCanRun }),
        })
      : work,
  );
  if (options.bequest ?? true) {
    steps.push(bequestStep({ workspace, workbench: workbench.display(workbench.root) }));
  }
  return build(steps);
}

/**
 * False when `said` is already in the brief as an earlier wake remark, so rerunning the same command does not
 * append it twice or set the goal again. Only wake entries count: the reference searched the whole brief, so a
 * short remark found anywhere in it was silently dropped (decisions.md D318).
 */
function notYetAppended(briefPath: string, said: string): boolean {
  const words = said.trim();
  return !briefAmendments(readDocument(briefPath) ?? '').some(
    (amendment) => amendment.kind === 'wake' && amendment.text === words,
  );
}

/** The request the lineage's clarification started from, or null (an older lineage, or none). */
function recordedRequest(runDir: string, workspace: string): string | null {
  return Lineage.open(runDir, workspace, { readonly: true }).request;
}

/**
 * A deleted brief means "clarify again" (its own header says so): when a later step (goal or work) already ran
 * but no complete brief is left and a new request is given, the run starts over as `--new` would — the old
 * goal, Q&A log and lineage are archived, never deleted. A brief missing because the clarification itself was
 * cut off (only a clarify session in lineage) is no such case: that clarification is resumed.
 */
function briefDeleted(workbench: Workbench, runDir: string, workspace: string, request: string): boolean {
  if (request === '' || Brief.load(workbench.notesFile('brief'))?.complete() === true) return false;
  const steps = Lineage.open(runDir, workspace, { readonly: true }).steps;
  return [STEP_NAMES.goal, STEP_NAMES.work].some((name) => steps[name] !== undefined);
}

/**
 * The feedback of the last judged work round of an earlier run when it was not ACHIEVED (the run stopped with
 * its rounds used up), read from the manifest; '' when there is none. Read when the work step resumes, before
 * this run has judged anything.
 */
function lastFeedback(runDir: string): string {
  const prefix = `${STEP_NAMES.work}/verdict#`;
  const last = readManifest(runDir)
    .filter((row) => row.step.startsWith(prefix))
    .at(-1);
  if (last === undefined) return '';
  const record = last.checks;
  if (record === undefined) return Verdict.parse(last.text).feedback();
  if (record.stale !== undefined) return staleFeedback(record.stale.failed);
  // flower's result, not the judge's word: an overruled ACHIEVED is no reason to stop working.
  const verdict =
    record.result === record.judge
      ? Verdict.parse(last.text)
      : new Verdict({
          state: 'NOT_YET',
          reason: record.reason,
          failed: record.items.filter(isFailing).map((item) => item.item),
        });
  return [verdict.feedback(), checksFeedback(record)].filter((part) => part !== '').join('\n\n');
}

/** The wake prompt's news after a `flower verify` failed on a goal judged ACHIEVED. */
function staleFeedback(failed: readonly string[]): string {
  return [
    "The goal was judged ACHIEVED, but a later `flower verify` ran the goal's checks on the current tree and they failed, so that verdict is stale.",
    `Failing items:\n${failed.map((item) => `- ${item}`).join('\n')}`,
    'Make these checks pass again; do not start over.',
  ].join('\n\n');
}
