/**
 * `withGoal`: the goal guard (docs/go-path.md). Each round of a work step ends with an
 * independent judge in a fresh session that sees only the goal, the scene and the worker's claim, so it owes
 * the worker's effort nothing. ACHIEVED passes; anything else fails the round and its feedback resumes the
 * rejected session for the next (`<step>#round<n>`); UNREACHABLE stops to ask a person, because more rounds
 * against a goal that cannot be met are the costliest option. Rounds are capped (3 by default) while
 * questions are not: a question is nearly free, a round costs money.
 *
 * @module
 */
import { dirname, join, resolve } from 'node:path';
import type { AgentSpec } from '../agent/agent-spec.js';
import { uiText } from '../config/ui-text.js';
import type { EventSink, VerdictEvent } from '../events/flower-event.js';
import type { HumanChannel } from '../human/human-channel.js';
import { MANIFEST_FILE } from '../runtime/manifest.js';
import { KILLED } from '../runtime/step-outcome.js';
import type { StepResult } from '../runtime/step-result.js';
import { readDocument } from '../roles/brief.js';
import { Goal } from '../roles/goal.js';
import { judge, type JudgeOptions } from '../roles/judge.js';
import { Verdict } from '../roles/verdict.js';
import { briefAmendments } from './brief-amendments.js';
import { freezeDocument } from './freeze-document.js';
import { checksFeedback, checksForJudge, writeChecksNote } from './check-report.js';
import { bindVerdict } from './check-verdict.js';
import { ensureBase, runGoalChecks, type CheckPlaces } from './goal-check-round.js';
import { goalChecks } from '../roles/goal-checks.js';
import type { CheckRecord } from '../runtime/check-record.js';
import { hydrateGoal } from './goal-step.js';
import { repairChecks } from './repair-checks.js';
import { STEP_NAMES } from './step-names.js';
import { runOutsideLineage } from './judge-run.js';
import { reviseGoal } from './revise-goal.js';
import { verifyPrompt } from './judge-prompts.js';
import type { StepBuild } from './step-build.js';
import { StepAbort } from './step-abort.js';
import { verdictLabel } from './step-names.js';
import { contextLang, type Ctx, type Step } from './step.js';
import { unreachableDialogue } from './unreachable-dialogue.js';
import { roundOf } from './interrupted-round.js';

/** Options of {@link withGoal}. `name` names the judge's agent spec (`judge` by default). */
export interface WithGoalOptions extends StepBuild, JudgeOptions {
  /** The frozen goal; read every round, so an edit by a human counts from the next round on. */
  goalPath: string;
  /** Total rounds of work, each ending in a verdict; 3 by default, 0 and 1 both mean one. */
  rounds?: number;
  /**
   * The brief, whose `## Added …` parts the judge is shown (decisions.md D111); the channel's amend file by
   * default. Null: none.
   */
  briefPath?: string | null;
  /** The context key of the goal step, refreshed when the human amends the goal; `goal` by default. */
  goalKey?: string;
  /** The environment fact sheet for setting the goal again after an amendment; gathered when needed. */
  facts?: string;
}

/**
 * A copy of `work` whose rounds are judged: `{...work, retries: rounds − 1, gate, onReject}`. A spread, not a
 * rebuild, so every other field (`resumePrompt`, `reduce`, `verbatim`, …) survives — a hand rebuild once
 * silently dropped `resumePrompt` in the reference.
 */
export function withGoal(work: Step, channel: HumanChannel | null, options: WithGoalOptions): Step {
  const rounds = options.rounds ?? 3;
  if (!Number.isInteger(rounds) || rounds < 0) {
    throw new TypeError(
      `withGoal('${work.name}'): rounds must be a whole number of 1 or more (got ${String(rounds)}).`,
    );
  }
  const judgeSpec =
    options.spec ??
    judge(options.name ?? 'judge', channel, {
      ...(options.canRun === undefined ? {} : { canRun: options.canRun }),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.effort === undefined ? {} : { effort: options.effort }),
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    });
  const briefPath = options.briefPath === undefined ? (channel?.amendPath ?? null) : options.briefPath;
  const guard: Guard = { work, channel, judgeSpec, goalPath: options.goalPath, briefPath, options };
  const when = work.when;
  return {
    ...work,
    retries: Math.max(0, rounds - 1),
    ...(options.onFail === undefined ? {} : { onFail: options.onFail }),
    // Rounds count per run of the step: a wake starts again at round 1.
    when: async (ctx) => {
      const runs = typeof when === 'function' ? await when(ctx) : true;
      if (runs) {
        ctx._goalRounds = 0;
        // The negative control's tree: the workspace before this goal's work began (kept across wakes).
        if (usesChecks(guard.goalPath)) ensureBase(checkPlaces(ctx, guard.goalPath));
      }
      return runs;
    },
    gate: (result, ctx) => judgeRound(guard, result, ctx),
    onReject: (_result, ctx) =>
      [ctx._verdict?.feedback() ?? '', ctx._checks === undefined ? '' : checksFeedback(ctx._checks)]
        .filter((part) => part !== '')
        .join('\n\n'),
  };
}

/** What one guarded step's gate works with. */
interface Guard {
  readonly work: Step;
  readonly channel: HumanChannel | null;
  readonly judgeSpec: AgentSpec;
  readonly goalPath: string;
  readonly briefPath: string | null;
  readonly options: WithGoalOptions;
}

/** The gate: one judge round on the result of one work round. */
async function judgeRound(guard: Guard, result: StepResult, ctx: Ctx): Promise<boolean> {
  const rt = ctx._runtime;
  if (rt === undefined) {
    // Never fake a pass: without a runtime there is no judge.
    throw new StepAbort(
      `withGoal('${guard.work.name}') found no runtime in ctx._runtime; run the step inside a Workflow, which sets it.`,
    );
  }
  // The round the result's label names: a round picked up after a kill keeps its number (decisions.md D333).
  const round = roundOf(result.step, guard.work.name) ?? (ctx._goalRounds ?? 0) + 1;
  ctx._goalRounds = round;
  const goal = currentGoal(ctx, guard.goalPath);
  const amendments = guard.briefPath === null ? [] : briefAmendments(readDocument(guard.briefPath) ?? '');
  const label = verdictLabel(guard.work.name, round);
  // flower runs the goal's checks itself before the judge looks, so the judge sees the results and is bound.
  const record = await runGoalChecks(goal, checkPlaces(ctx, guard.goalPath), { negativeControl: true });
  if (record === null) delete ctx._checks;
  else {
    ctx._checks = record;
    writeChecksNote(guard.goalPath, record, label);
  }
  const judged = await runOutsideLineage(
    rt,
    guard.judgeSpec,
    verifyPrompt({
      goal,
      goalPath: guard.goalPath,
      reply: result.text,
      amendments,
      ...(record === null ? {} : { checks: checksForJudge(record) }),
    }),
    { label, sink: ctx._onEvent ?? null, signal: ctx._signal },
  );
  if (judged.outcome.kind === 'killed') {
    throw new StepAbort(`the judge of ${label} was stopped (${KILLED})`);
  }
  const said = judged.ok
    ? Verdict.parse(judged.text)
    : new Verdict({
        state: 'NOT_YET',
        reason: `the judge did not finish (${judged.error ?? 'no result'}); treated as not achieved`,
      });
  const verdict = record === null ? said : bindVerdict(said, record);
  if (record !== null) {
    // The row keeps the judge's reply as its text; flower's result goes beside it.
    judged.checks = record;
    rt.saveManifest?.();
  }
  ctx._verdict = verdict;
  emitVerdict(ctx._onEvent, label, round, verdict, record);
  if (record !== null) await replaceBlindChecks(guard, goal, record, ctx, round);
  if (verdict.state === 'ACHIEVED') return true;
  if (verdict.state !== 'UNREACHABLE') return false;
  return unreachable(guard, verdict, goal, ctx, round);
}

/** UNREACHABLE: the human decides; nobody deciding stops the step without spending the remaining rounds. */
async function unreachable(
  guard: Guard,
  verdict: Verdict,
  goal: Goal,
  ctx: Ctx,
  round: number,
): Promise<boolean> {
  let outcome: Awaited<ReturnType<typeof unreachableDialogue>>;
  try {
    outcome = await unreachableDialogue(guard.channel, verdict, contextLang(ctx), ctx._signal);
  } catch (error) {
    // The channel rejects only when the run is stopped while it waits for the human.
    if (ctx._signal?.aborted === true) throw new StepAbort(KILLED);
    throw error;
  }
  switch (outcome.kind) {
    case 'accept':
      return true;
    case 'misjudged':
      ctx._verdict = new Verdict({
        state: 'NOT_YET',
        reason: `The judge called the goal unreachable (${verdict.reason || 'no reason given'}), but the human says it misjudged: "${outcome.words}". Keep going.`,
        failed: verdict.failed,
      });
      return false;
    case 'amend': {
      const revised = await reviseGoal(goal, outcome.words, {
        ctx,
        channel: guard.channel,
        judgeSpec: guard.judgeSpec,
        goalPath: guard.goalPath,
        goalKey: guard.options.goalKey,
        briefPath: guard.briefPath,
        label: `${guard.work.name}/goal#${round}`,
        facts: guard.options.facts,
      });
      ctx._verdict = new Verdict({
        state: 'NOT_YET',
        reason: `The judge called the goal unreachable (${verdict.reason || 'no reason given'}); the human amended it: "${outcome.words}". Work to this goal from now on:\n\n${revised.promptBlock()}`,
      });
      return false;
    }
    case 'unanswered': {
      const rt = ctx._runtime;
      // A run on PostgreSQL has no manifest file: its rows are named by where they are on the server.
      const manifest =
        rt?.records !== undefined && rt.records.kind !== 'file'
          ? rt.records.location
          : rt?.runDir === undefined
            ? MANIFEST_FILE
            : join(rt.runDir, MANIFEST_FILE);
      const text = uiText(
        'verdict.aborted',
        { reason: verdict.reason || '-', goal: guard.goalPath, manifest },
        contextLang(ctx),
      );
      throw new StepAbort(text);
    }
  }
}

/** Where the goal's checks run: the runtime's workspace, without its run directory and workbench. */
function checkPlaces(ctx: Ctx, goalPath: string): CheckPlaces {
  const rt = ctx._runtime;
  const workspace = resolve(rt?.workspace ?? '.');
  const runDir = rt?.runDir === undefined ? null : resolve(rt.runDir);
  const exclude = [dirname(resolve(goalPath))];
  if (runDir !== null) exclude.push(runDir);
  if (ctx._workbench != null) exclude.push(resolve(ctx._workbench.root));
  return { workspace, runDir, exclude };
}

/** True when the goal file has machine checks (or items marked unverifiable) for flower to run. */
function usesChecks(goalPath: string): boolean {
  const goal = Goal.load(goalPath);
  return goal !== null && (goalChecks(goal).active || goal.unverifiable.length > 0);
}

/**
 * The negative control's consequence: a check that passed on the base tree (or could not be read) is sent
 * back to the judge to replace, and the repaired goal is frozen for the next round. When the judge gives no
 * complete goal, the old checks stay — and keep failing the rounds, never passing in silence.
 */
async function replaceBlindChecks(
  guard: Guard,
  goal: Goal,
  record: CheckRecord,
  ctx: Ctx,
  round: number,
): Promise<void> {
  const problems = record.items
    .filter((item) => item.kind === 'invalid' || (item.kind === 'command' && item.passes_on_base === true))
    .map((item) => ({ item: item.item, problem: item.why }));
  if (problems.length === 0) return;
  const repaired = await repairChecks(goal, problems, {
    ctx,
    judgeSpec: guard.judgeSpec,
    label: `${guard.work.name}/checks#${round}`,
    facts: guard.options.facts,
  });
  if (repaired === null) return;
  freezeDocument(guard.goalPath, repaired.toMarkdown());
  hydrateGoal(ctx, guard.options.goalKey ?? STEP_NAMES.goal, repaired);
}

/** The goal to judge against: the file (a human may have edited it), else the context's, else empty. */
function currentGoal(ctx: Ctx, goalPath: string): Goal {
  const frozen = Goal.load(goalPath);
  if (frozen?.complete() === true) {
    ctx._goal = frozen;
    return frozen;
  }
  return ctx._goal ?? new Goal();
}

function emitVerdict(
  sink: EventSink | null | undefined,
  label: string,
  round: number,
  verdict: Verdict,
  record: CheckRecord | null,
): void {
  const said = verdict.reason === '' ? verdict.state : `${verdict.state}: ${verdict.reason}`;
  const event: VerdictEvent = {
    kind: 'verdict',
    // The closing line names what was and was not verified here ("2 of 5 items verified here; 3 need macOS").
    text: record === null || said.includes(record.summary) ? said : `${said} (${record.summary})`,
    at: Date.now() / 1000,
    step: label,
    round,
    state: verdict.state,
    reason: verdict.reason,
    failed: [...verdict.failed],
  };
  sink?.(event);
}
