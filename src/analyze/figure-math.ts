/**
 * The small arithmetic analyze's figures share: a ratio that is `null` instead of dividing by zero, a
 * median, and counts ranked highest first.
 *
 * @module
 */

/** Counts highest first, ties in code-unit order (the same on every machine and locale), at most `limit`. */
export function ranked(counts: Map<string, number>, limit = Number.POSITIVE_INFINITY): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, limit);
}

/** The median of numbers sorted ascending. */
export function median(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] ?? 0;
  return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** `part / whole`, or `null` when `whole` is zero: no ratio is ever NaN or Infinity. */
export function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}
