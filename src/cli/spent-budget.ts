/**
 * A rerun after a run budget stopped the run (docs/runtime.md, decisions.md D325): without a larger `-b` it
 * would either start spending again with no cap or stop at once at the same one, so flower says the budget
 * is spent and how to raise it, and starts nothing.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import { readManifest } from '../runtime/manifest.js';

/**
 * The one line to stop with when the manifest's last row is a run-budget stop and `budgetUsd` does not
 * raise that cap; null when the run may go on.
 */
export function spentBudgetLine(runDir: string, budgetUsd: number | null, lang: Lang): string | null {
  const last = readManifest(runDir).at(-1);
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
