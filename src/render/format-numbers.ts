/**
 * Number formats of the status and result lines (cli-and-config.md §3.2, §3.4).
 *
 * @module
 */

/** Context size: one-decimal thousands with `K` from 1,000 tokens (`36.8K`), else the integer. */
export function formatContext(tokens: number): string {
  if (tokens >= 1000) return `${(Math.round(tokens / 100) / 10).toFixed(1)}K`;
  return String(Math.max(0, Math.round(tokens)));
}

/** Elapsed time as `m:ss`, or `h:mm:ss` from one hour. */
export function formatElapsed(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** Dollars with a fixed number of decimals, without the `$` (the catalog strings carry it). */
export function formatUsd(usd: number, decimals: number): string {
  return (Number.isFinite(usd) ? usd : 0).toFixed(decimals);
}
