/**
 * A rerun after a run budget stopped the run (docs/runtime.md, decisions.md D325): without a larger `-b` it
 * would either start spending again with no cap or stop at once at the same one, so flower says the budget
 * is spent and how to raise it, and starts nothing.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import type { RunRecords } from '../runtime/run-records.js';

/**
 * The one line to stop with when the run's last manifest row is a run-budget stop and `budgetUsd` does not
 * raise that cap; null when the run may go on. The rows are read from where the run's records live (the
 * server's for a run on PostgreSQL, which has no `manifest.json`).
 */
export async function spentBudgetLine(
  records: Pick<RunRecords, 'readRows'>,
  budgetUsd: number | null,
  lang: Lang,
): Promise<string | null> {
  const last = (await records.readRows()).at(-1);
  const stop = last?.budget_stop;
  if (stop === undefined || stop.scope !== 'run') return null;
  if (budgetUsd !== null && budgetUsd > stop.cap_usd) return null;
  const suggested = Math.max(stop.cap_usd * 2, stop.cap_usd + 1).toFixed(2);
  return uiText(
    'budget.spent',
    { cap: stop.cap_usd.toFixed(2), spent: stop.spent_usd.toFixed(4), next: suggested },
    lang,
  );
}
