/**
 * Budgets (docs/runtime.md, decisions.md D25): a step cap (`AgentSpec.maxBudgetUsd`) and a run cap
 * (`Runtime`'s
 * `budgetUsd`, `-b` on `go`/`run`), both enforced per step across retries, interrupt-resumes and handoffs —
 * not per query, which let the reference multiply a cap by every retry (decisions.md D303). Each attempt gets
 * what is left as the SDK's `maxBudgetUsd` (the child measures it against its own process's spend, so a
 * resumed session's earlier cost does not count twice); nothing left ends the step before a query is paid
 * for.
 *
 * @module
 */

/** Which cap binds. */
export type BudgetScope = 'step' | 'run';

/** The caps in dollars; null = none. */
export interface BudgetCaps {
  stepCapUsd: number | null;
  runCapUsd: number | null;
}

/** What was spent: by this step so far, and by this process's run including this step. */
export interface BudgetSpent {
  stepUsd: number;
  runUsd: number;
}

/** What the next attempt may spend. */
export type AttemptBudget =
  | { kind: 'open' }
  | { kind: 'capped'; capUsd: number; scope: BudgetScope }
  | { kind: 'exhausted'; scope: BudgetScope; capUsd: number; spentUsd: number };

/** `error` of a step stopped by a cap (fatal: a retry cannot fix it). */
export function budgetError(scope: BudgetScope): string {
  return `error_max_budget_usd: ${scope} budget exhausted`;
}

/**
 * The next attempt's budget: the smaller remainder of the two caps, or `exhausted` when one is used up.
 * A remainder below a hundredth of a cent counts as used up (the child would stop after one call anyway).
 */
export function attemptBudget(caps: BudgetCaps, spent: BudgetSpent): AttemptBudget {
  const stepLeft = caps.stepCapUsd === null ? Infinity : caps.stepCapUsd - spent.stepUsd;
  const runLeft = caps.runCapUsd === null ? Infinity : caps.runCapUsd - spent.runUsd;
  if (stepLeft === Infinity && runLeft === Infinity) return { kind: 'open' };
  const scope: BudgetScope = stepLeft < runLeft ? 'step' : 'run';
  const left = scope === 'step' ? stepLeft : runLeft;
  const capUsd = (scope === 'step' ? caps.stepCapUsd : caps.runCapUsd) ?? 0;
  if (left < 0.0001) {
    return { kind: 'exhausted', scope, capUsd, spentUsd: scope === 'step' ? spent.stepUsd : spent.runUsd };
  }
  return { kind: 'capped', capUsd: left, scope };
}

/** The cap a projection crosses: which, its size, what was spent and what going on would make it. */
export interface BudgetCrossing {
  scope: BudgetScope;
  capUsd: number;
  spentUsd: number;
  projectedUsd: number;
}

/**
 * The first cap (step, then run) that `spent` plus the next turn's estimate would cross, or null. This is
 * the hard budget's test (docs/runtime.md): once it is non-null, nothing new may start.
 */
export function projectedCrossing(
  caps: BudgetCaps,
  spent: BudgetSpent,
  nextTurnUsd: number,
): BudgetCrossing | null {
  const checks: Array<[BudgetScope, number | null, number]> = [
    ['step', caps.stepCapUsd, spent.stepUsd],
    ['run', caps.runCapUsd, spent.runUsd],
  ];
  for (const [scope, capUsd, spentUsd] of checks) {
    if (capUsd === null) continue;
    const projectedUsd = spentUsd + Math.max(0, nextTurnUsd);
    if (projectedUsd > capUsd) return { scope, capUsd, spentUsd, projectedUsd };
  }
  return null;
}
