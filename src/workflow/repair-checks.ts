/**
 * Asking the judge to repair the goal's machine checks (docs/goal-checks.md): a malformed block or an item
 * without one when the goal is set, and a check that passed on the base tree after a round. The problems go
 * back to the judge rather than being dropped, because a dropped check is a goal that quietly got easier.
 *
 * @module
 */
import type { AgentSpec } from '../agent/agent-spec.js';
import { goalChecks } from '../roles/goal-checks.js';
import { Goal } from '../roles/goal.js';
import { environmentFacts } from './environment-facts.js';
import { repairChecksPrompt, type CheckToRepair } from './judge-prompts.js';
import { runOutsideLineage } from './judge-run.js';
import type { Ctx } from './step.js';

/** Options of {@link repairChecks}. */
export interface RepairChecksOptions {
  ctx: Ctx;
  judgeSpec: AgentSpec;
  /** The manifest label of the judge's run. */
  label: string;
  facts?: string | undefined;
}

/**
 * The goal with its checks rewritten by the judge, or null when the judge did not answer with a complete goal
 * (the caller keeps the old one, whose problems then keep failing the rounds — never a silent pass).
 */
export async function repairChecks(
  goal: Goal,
  problems: readonly CheckToRepair[],
  options: RepairChecksOptions,
): Promise<Goal | null> {
  const rt = options.ctx._runtime;
  if (rt === undefined || problems.length === 0) return null;
  const result = await runOutsideLineage(
    rt,
    options.judgeSpec,
    repairChecksPrompt({ goal, problems, facts: options.facts ?? environmentFacts() }),
    { label: options.label, sink: options.ctx._onEvent ?? null, signal: options.ctx._signal },
  );
  if (!result.ok) return null;
  const repaired = Goal.parse(result.text);
  return repaired.complete() ? repaired : null;
}

/** The items of `goal` whose check blocks are missing or malformed, as problems for {@link repairChecks}. */
export function malformedChecks(goal: Goal): CheckToRepair[] {
  return goalChecks(goal).problems.map((entry) => ({ item: entry.item, problem: entry.problem }));
}
