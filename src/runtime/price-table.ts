/**
 * List prices, to price an API response from its `usage` the moment the session store receives it. The
 * Claude Code child computes the authoritative number (`result.total_cost_usd`), but only when a query
 * ends; a process killed mid-query never sees it. Pricing each stored response lets the manifest say what a
 * killed step spent (see `CostLedger`). Prices are dollars per million tokens, as the child reports them
 * against a fake API (measured with the real binary); a model not listed is priced like the child prices an
 * unknown model ($4 in, $20 out).
 *
 * @module
 */

/** Dollars per million tokens for each kind of token. */
export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** Token counts as the Messages API reports them (wire names); missing fields count as 0. */
export interface TokenUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** What the child charges for a model it has no price for (its `costBasis: 'unknown'`). */
export const FALLBACK_PRICE: Readonly<Price> = Object.freeze({
  input: 4,
  output: 20,
  cacheWrite: 5,
  cacheRead: 0.2,
});

/** List prices by model id, as measured from the child's own cost figures. */
export const LIST_PRICES: Readonly<Record<string, Readonly<Price>>> = Object.freeze({
  'claude-opus-5-5': FALLBACK_PRICE,
  'claude-sonnet-4-5': Object.freeze({ input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }),
  'claude-haiku-4-5': Object.freeze({ input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }),
});

/** The price of `model`: an exact id, else the id without a date or `[1m]` suffix, else the fallback. */
export function priceOf(model: string): Readonly<Price> {
  const id = model.trim().toLowerCase();
  const base = id.replace(/\[1m\]$/, '').replace(/-\d{8}$/, '');
  return LIST_PRICES[id] ?? LIST_PRICES[base] ?? FALLBACK_PRICE;
}

/** Dollars for one response of `model` with `usage`. */
export function usageCost(model: string, usage: TokenUsage): number {
  const price = priceOf(model);
  const tokens = (value: number | undefined): number =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
  return (
    (tokens(usage.input_tokens) * price.input +
      tokens(usage.output_tokens) * price.output +
      tokens(usage.cache_creation_input_tokens) * price.cacheWrite +
      tokens(usage.cache_read_input_tokens) * price.cacheRead) /
    1_000_000
  );
}
