/**
 * Number formats of the status and result lines (docs/cli.md).
 *
 * @module
 */

/** Context size: one-decimal thousands with `K` from 1,000 tokens (`36.8K`), else the integer. */
export function formatContext(tokens: number): string {
  if (tokens >= 1000) return `${(Math.round(tokens / 100) / 10).toFixed(1)}K`;
  return String(Math.max(0, Math.round(tokens)));
}

/**
 * Context used against the window, `153.1K/200K`, so a coming handoff shows; only the used size when the
 * window is unknown (0 or undefined).
 */
export function formatContextOf(tokens: number, window: number | undefined): string {
  const used = formatContext(tokens);
  if (window === undefined || !(window > 0)) return used;
  const limit =
    window >= 1_000_000
      ? `${trimZero(window / 1_000_000)}M`
      : window >= 1000
        ? `${trimZero(window / 1000)}K`
        : String(window);
  return `${used}/${limit}`;
}

/** One decimal, without a trailing `.0` (`200`, `1.5`). */
function trimZero(value: number): string {
  return String(Math.round(value * 10) / 10);
}

// Elapsed time sits with the UI catalog, below the runtime, whose network-wait line shows it too.
export { formatElapsed } from '../config/format-elapsed.js';

/** Dollars with a fixed number of decimals, without the `$` (the catalog strings carry it). */
export function formatUsd(usd: number, decimals: number): string {
  return (Number.isFinite(usd) ? usd : 0).toFixed(decimals);
}
