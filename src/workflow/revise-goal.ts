/**
 * Setting the goal again after a human amended it (decisions.md D110). Appending the human's
 * sentence to the statement kept the old checklist, and the judge went on grading against it; so the judge's
 * job A runs once more with the brief, the old goal and the amendment, and its checklist replaces the old
 * one. When that run fails, the appended statement is kept — the amendment is never lost.
 *
 * @module
 */
import type { AgentSpec } from '../agent/agent-spec.js';
import type { HumanChannel } from '../human/human-channel.js';
import { Brief } from '../roles/brief.js';
import { Goal } from '../roles/goal.js';
import { environmentFacts } from './environment-facts.js';
import { freezeDocument } from './freeze-document.js';
import { hydrateGoal } from './goal-step.js';
import { setGoalPrompt } from './judge-prompts.js';
import { STEP_NAMES } from './step-names.js';
import { contextLang, type Ctx } from './step.js';
import { settleUnverifiable } from './unverifiable-checks.js';
import { runOutsideLineage } from './judge-run.js';

/** Options of {@link reviseGoal}. */
export interface ReviseGoalOptions {
  ctx: Ctx;
  channel: HumanChannel | null;
  judgeSpec: AgentSpec;
  goalPath: string;
  /** The goal step's context key; `goal` by default. */
  goalKey?: string | undefined;
  briefPath: string | null;
  /** The manifest label of the goal-setting run. */
  label: string;
  facts?: string | undefined;
}

/** The goal after the human's amendment `words`: set again by the judge, frozen and put in the context. */
export async function reviseGoal(goal: Goal, words: string, options: ReviseGoalOptions): Promise<Goal> {
  const { ctx } = options;
  let revised = goal.amend(words);
  const rt = ctx._runtime;
  if (rt !== undefined) {
    const result = await runOutsideLineage(
      rt,
      options.judgeSpec,
      setGoalPrompt({
        brief: briefBlock(ctx, options.briefPath),
        facts: options.facts ?? environmentFacts(),
        amended: { goal, words },
      }),
      { label: options.label, sink: ctx._onEvent ?? null, signal: ctx._signal },
    );
    const parsed = result.ok ? Goal.parse(result.text) : null;
    if (parsed?.complete() === true) revised = parsed;
  }
  const step = options.goalKey ?? STEP_NAMES.goal;
  revised = await settleUnverifiable(revised, options.channel, {
    goalPath: options.goalPath,
    sink: ctx._onEvent,
    step,
    lang: contextLang(ctx),
  });
  freezeDocument(options.goalPath, revised.toMarkdown());
  hydrateGoal(ctx, step, revised);
  return revised;
}

/** The brief as the file now says (amendments included), else as the clarify step left it, else none. */
function briefBlock(ctx: Ctx, briefPath: string | null): string | null {
  const frozen = briefPath === null ? null : Brief.load(briefPath);
  if (frozen?.complete() === true) return frozen.promptBlock();
  return ctx._brief?.promptBlock() ?? null;
}
