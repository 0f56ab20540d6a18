/**
 * How analyze writes a figure for a person: integers below 1000 as they are, larger ones with one decimal
 * and K/M/B; dollars with four decimals; shares as percentages; `-` for a ratio that has no denominator.
 *
 * @module
 */

/** `987`, `13.4K`, `2.3M`, `1.2B`. */
export function compact(value: number): string {
  const size = Math.abs(value);
  if (size < 1000) return String(Math.round(value));
  if (size < 1e6) return `${(value / 1e3).toFixed(1)}K`;
  if (size < 1e9) return `${(value / 1e6).toFixed(1)}M`;
  return `${(value / 1e9).toFixed(1)}B`;
}

/** `$0.2626`. */
export function dollars(value: number): string {
  return `$${value.toFixed(4)}`;
}

/** `96.1%`, or `-` when there is no ratio. */
export function percent(value: number | null): string {
  return value === null ? '-' : `${(value * 100).toFixed(1)}%`;
}

/** Bytes as `791 B`, `12.3 KB`, `4.5 MB` (binary multiples, labelled as bytes). */
export function bytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 ** 2) return `${(value / 1024).toFixed(1)} KB`;
  if (value < 1024 ** 3) return `${(value / 1024 ** 2).toFixed(1)} MB`;
  return `${(value / 1024 ** 3).toFixed(1)} GB`;
}

/** Hours with two decimals: `10.44h`. */
export function hours(value: number): string {
  return `${value.toFixed(2)}h`;
}

/** A ratio as `3.48`, or `-`. */
export function times(value: number | null): string {
  return value === null ? '-' : value.toFixed(2);
}
