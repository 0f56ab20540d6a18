/**
 * List prices, to price an API response from its `usage` the moment the session store receives it. The
 * Claude Code child computes the authoritative number (`result.total_cost_usd`), but only when a query
 * ends; a process killed mid-query never sees it. Pricing each stored response lets the manifest say what a
 * killed step spent (see `CostLedger`). Prices are dollars per million tokens, as the child reports them
 * against a fake API (measured with the real binary, {@link PRICES_TAKEN}).
 *
 * A model not in the table is priced as the closest known family — an id naming `opus`, `sonnet` or `haiku`
 * gets that family's latest price — and reported once ({@link PriceTable}); an id naming none of them is
 * priced like the child prices an unknown model ($4 in, $20 out). `FLOWER_PRICES` (read by src/config)
 * adds or replaces prices for gateways and new models.
 *
 * @module
 */
import type { PriceOverrides } from '../config/price-overrides.js';

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

/** When the list prices below were taken: read from the bundled Claude Code's own cost figures that day. */
export const PRICES_TAKEN = '2026-12-03';

/** List prices by model id, as measured from the child's own cost figures. */
export const LIST_PRICES: Readonly<Record<string, Readonly<Price>>> = Object.freeze({
  'claude-opus-5-5': FALLBACK_PRICE,
  'claude-sonnet-4-5': Object.freeze({ input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }),
  'claude-haiku-4-5': Object.freeze({ input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }),
});

/** The latest list model of each family: a model missing from the table is priced as its family. */
export const FAMILY_MODELS: Readonly<Record<string, string>> = Object.freeze({
  opus: 'claude-opus-5-5',
  sonnet: 'claude-sonnet-4-5',
  haiku: 'claude-haiku-4-5',
});

/** Where a price came from: the user's table, the list, the model's family, or the child's unknown price. */
export type PriceSource = 'override' | 'list' | 'family' | 'fallback';

/** A model's price and where it came from; `family` names the family used for `family` prices. */
export interface PriceLookup {
  price: Readonly<Price>;
  source: PriceSource;
  family: string | null;
}

function modelIds(model: string): [string, string] {
  const id = model.trim().toLowerCase();
  return [id, id.replace(/\[1m\]$/, '').replace(/-\d{8}$/, '')];
}

/**
 * The price of `model`: the user's price for the exact id or the id without a date or `[1m]` suffix, then
 * the list's, then the family named in the id, then the fallback.
 */
export function lookupPrice(model: string, overrides: PriceOverrides | null = null): PriceLookup {
  const [id, base] = modelIds(model);
  const own = overrides?.models[id] ?? overrides?.models[base];
  if (own !== undefined) return { price: own, source: 'override', family: null };
  const listed = LIST_PRICES[id] ?? LIST_PRICES[base];
  if (listed !== undefined) return { price: listed, source: 'list', family: null };
  for (const [family, member] of Object.entries(FAMILY_MODELS)) {
    const price = LIST_PRICES[member];
    if (id.includes(family) && price !== undefined) return { price, source: 'family', family };
  }
  return { price: FALLBACK_PRICE, source: 'fallback', family: null };
}

/** The list price of `model` (no user prices): see {@link lookupPrice}. */
export function priceOf(model: string): Readonly<Price> {
  return lookupPrice(model).price;
}

/**
 * Prices responses with the list and the user's `FLOWER_PRICES`, and reports each model it had to guess a
 * price for once (`onGuess`), so a new model is never silently priced as another one.
 */
export class PriceTable {
  readonly #overrides: PriceOverrides | null;
  readonly #guessed = new Set<string>();
  /** Called once per model priced by family or fallback; set by the runtime to emit a warning. */
  onGuess: ((model: string, lookup: PriceLookup) => void) | null = null;

  constructor(overrides: PriceOverrides | null = null) {
    this.#overrides = overrides;
  }

  /** The date of the prices in use: the user's table's when it says, else {@link PRICES_TAKEN}. */
  get taken(): string {
    return this.#overrides?.taken ?? PRICES_TAKEN;
  }

  /** The price of `model`, reporting a guessed one the first time. */
  lookup(model: string): PriceLookup {
    const found = lookupPrice(model, this.#overrides);
    // A response without a model (an old entry) or the child's own error stand-in costs nothing to guess.
    if (
      (found.source === 'family' || found.source === 'fallback') &&
      model !== '' &&
      model !== '<synthetic>'
    ) {
      const key = model.trim().toLowerCase();
      if (!this.#guessed.has(key)) {
        this.#guessed.add(key);
        this.onGuess?.(model, found);
      }
    }
    return found;
  }

  /** Dollars for one response of `model` with `usage`. */
  cost(model: string, usage: TokenUsage): number {
    return costAt(this.lookup(model).price, usage);
  }
}

/** Dollars for one response of `model` with `usage`, at the list price. */
export function usageCost(model: string, usage: TokenUsage): number {
  return costAt(priceOf(model), usage);
}

function costAt(price: Readonly<Price>, usage: TokenUsage): number {
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
