/**
 * What flower's own goal checks mean for a verdict (docs/goal-checks.md): which outcomes count as verified,
 * failing or needing another environment, the one-line summary, and {@link bindVerdict}, which holds the
 * judge to those results.
 *
 * @module
 */
import type { CheckOutcome, CheckRecord } from '../runtime/check-record.js';
import { Verdict } from '../roles/verdict.js';

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
