/**
 * `goalStep`: the judge's job A on the go path (docs/go-path.md). It turns the brief into a
 * goal — one sentence plus a checklist checkable on the spot — and freezes it to `notes/goal.md`, so every
 * judging round grades against the same list and a human can read and edit the standard before money is
 * spent. Skipped, but still filling the context, when a complete goal is already frozen; `alwaysSet` re-runs
 * it (the go path does after a wake remark, decisions.md D110: otherwise the judge grades against the old
 * list).
 *
 * @module
 */
import type { AgentSpec } from '../agent/agent-spec.js';
import type { HumanChannel } from '../human/human-channel.js';
import { Goal } from '../roles/goal.js';
import { judge, type JudgeOptions } from '../roles/judge.js';
import { environmentFacts } from './environment-facts.js';
import { freezeDocument } from './freeze-document.js';
import { setGoalPrompt } from './judge-prompts.js';
import { malformedChecks, repairChecks } from './repair-checks.js';
import type { StepBuild } from './step-build.js';
import { STEP_NAMES } from './step-names.js';
import { contextLang, step, type Ctx, type Step } from './step.js';
import { settleUnverifiable } from './unverifiable-checks.js';

/** Options of {@link goalStep}. */
export interface GoalStepOptions extends StepBuild, JudgeOptions {
  /** Where the goal is frozen; inside the workbench (`notes/goal.md`). */
  goalPath: string;
  /** The context key holding the brief's prompt block; `clarify` by default. */
  briefKey?: string;
  /** Set the goal even when a complete one is frozen. */
  alwaysSet?: boolean;
  /** The environment fact sheet (decisions.md D102); gathered when the prompt is built unless given here. */
  facts?: string;
}

/**
 * The goal-setting step. With a channel the judge may ask the human, and unverifiable checks are put to them
 * (decisions.md D104); see {@link settleUnverifiable}.
 */
export function goalStep(channel: HumanChannel | null, options: GoalStepOptions): Step {
  const name = options.name ?? STEP_NAMES.goal;
  const briefKey = options.briefKey ?? STEP_NAMES.clarify;
  const goalPath = options.goalPath;
  const spec =
    options.spec ??
    judge('judge', channel, {
      ...(options.canRun === undefined ? {} : { canRun: options.canRun }),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.effort === undefined ? {} : { effort: options.effort }),
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    });
  return step(name, spec, (ctx) => prompt(ctx, briefKey, options.facts), {
    verbatim: true,
    // A judge: re-setting the goal on wake must not resume the session that set the old one (docs/roles.md).
    fresh: true,
    retries: options.retries ?? 0,
    onFail: options.onFail ?? 'stop',
    when: (ctx) => {
      if (options.alwaysSet === true) return true;
      const frozen = Goal.load(goalPath);
      if (frozen === null || !frozen.complete()) return true;
      // A rerun must still see the goal, or the work prompt and the judge would go without it.
      hydrateGoal(ctx, name, frozen);
      return false;
    },
    gate: async (result, ctx) => {
      let parsed = Goal.parse(result.text);
      if (!parsed.complete()) return false;
      parsed = await withWorkingChecks(parsed, spec, name, ctx, options.facts);
      freezeDocument(goalPath, parsed.toMarkdown());
      hydrateGoal(ctx, name, parsed);
      const settled = await settleUnverifiable(parsed, channel, {
        goalPath,
        sink: ctx._onEvent,
        step: name,
        lang: contextLang(ctx),
      });
      if (settled !== parsed) {
        freezeDocument(goalPath, settled.toMarkdown());
        hydrateGoal(ctx, name, settled);
      }
      return true;
    },
    reduce: (result, ctx) => (ctx._goal ?? Goal.parse(result.text)).promptBlock(),
  });
}

/** Attempts the judge gets to repair malformed check blocks before the goal is frozen as it is. */
const REPAIR_ATTEMPTS = 2;

/**
 * The goal with its malformed or missing check blocks sent back to the judge to fix, up to
 * {@link REPAIR_ATTEMPTS} times (docs/goal-checks.md). What is still malformed after that is frozen as
 * written: flower reports it to the judge every round and it counts as failing, never as passed.
 */
async function withWorkingChecks(
  goal: Goal,
  spec: AgentSpec,
  name: string,
  ctx: Ctx,
  facts: string | undefined,
): Promise<Goal> {
  let current = goal;
  for (let attempt = 1; attempt <= REPAIR_ATTEMPTS; attempt++) {
    const problems = malformedChecks(current);
    if (problems.length === 0) break;
    const repaired = await repairChecks(current, problems, {
      ctx,
      judgeSpec: spec,
      label: `${name}/checks#${attempt}`,
      facts,
    });
    if (repaired === null) break;
    current = repaired;
  }
  return current;
}

/** Puts `goal` where later steps read it: `ctx._goal` and, as its prompt block, `ctx[name]`. */
export function hydrateGoal(ctx: Ctx, name: string, goal: Goal): void {
  ctx._goal = goal;
  ctx[name] = goal.promptBlock();
}

function prompt(ctx: Ctx, briefKey: string, facts: string | undefined): string {
  const brief = ctx[briefKey];
  return setGoalPrompt({
    brief: typeof brief === 'string' ? brief : null,
    facts: facts ?? environmentFacts(),
  });
}
