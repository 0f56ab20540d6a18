/**
 * `CostLedger`: what one step has spent, kept current while it runs (docs/runtime.md).
 *
 * The rule, in two parts:
 *
 * 1. **Estimate as stored.** Every API response reaches the session store as assistant entries carrying the
 *    response's final `usage` (eager flush: within about 50 ms). The ledger prices each new message id once
 *    at list price ({@link usageCost}) — main thread and subagents alike — so the step's cost is current
 *    after every response, and a manifest row written then survives a SIGKILL.
 * 2. **Truth on result.** When a query yields a `result`, its `total_cost_usd` is the Claude Code child's
 *    own figure. It is cumulative for the session across processes (the child restarts its running total
 *    from the last `cost-state` entry of the transcript it resumed), so the query's spend is the total minus
 *    that baseline; later results of the same query add their increase. The truth replaces the estimates
 *    of every message streamed or stored before it. A response the store receives after a result whose id
 *    the stream already showed is covered by that result and not priced again.
 *
 * When a response was priced from the user's `FLOWER_PRICES` or by its family's price (a model the list
 * does not know), the child's figure is not the truth — it prices such a model at its own unknown-model
 * rate — so that query keeps flower's own figures and its result only settles them.
 *
 * A query in which the child retried a request keeps flower's own figures too, and its result only settles
 * them: a request that broke off mid-stream had already shown the child its answer's start, and whether the
 * child added that start's usage to its total depends on when the break reached it (`flower chaos`, a cut at
 * boundary 5 of the demo: the child's total was the cut answer's input over what was served). A cut answer
 * is not billed (docs/decisions.md D338, D354).
 *
 * A query that ends without a result (aborted, stalled, killed) keeps its estimates: the child never
 * reported a total. Responses that never completed (a stream cut mid-answer) are in neither number.
 *
 * The figure never goes down: a person watching it (and the manifest row written from it) would read a
 * drop as money coming back. When the truth comes in below the estimates it replaces, the figure holds
 * until the step's spend passes it again.
 *
 * @module
 */
import type { SessionStoreEntry } from '../agent/claude-sdk.js';
import { PriceTable, type TokenUsage } from './price-table.js';

/** The `totalCostUSD` of the last `cost-state` entry in `entries` (the child's saved running total), or 0. */
export function savedCost(entries: readonly SessionStoreEntry[] | null): number {
  if (entries === null) return 0;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry?.type !== 'cost-state') continue;
    const total = entry['totalCostUSD'];
    return typeof total === 'number' && Number.isFinite(total) ? total : 0;
  }
  return 0;
}

/** The message id, model and usage of a stored assistant entry; null for anything else. */
export function pricedMessage(
  entry: SessionStoreEntry,
): { id: string; model: string; usage: TokenUsage } | null {
  if (entry.type !== 'assistant') return null;
  const message = entry['message'];
  if (typeof message !== 'object' || message === null) return null;
  const { id, model, usage } = message as { id?: unknown; model?: unknown; usage?: unknown };
  if (typeof id !== 'string' || id === '' || typeof usage !== 'object' || usage === null) return null;
  return { id, model: typeof model === 'string' ? model : '', usage };
}

/** The estimated cost of every distinct response in `entries` (see {@link pricedMessage}). */
export function estimateEntries(
  entries: readonly SessionStoreEntry[],
  prices: PriceTable = new PriceTable(),
): number {
  const seen = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    const priced = pricedMessage(entry);
    if (priced === null || seen.has(priced.id)) continue;
    seen.add(priced.id);
    total += prices.cost(priced.model, priced.usage);
  }
  return total;
}

/** The ids of the `tool_use` blocks of a stored assistant entry. */
function toolUseIds(entry: SessionStoreEntry): string[] {
  const message = entry['message'];
  if (typeof message !== 'object' || message === null) return [];
  const content = (message as { content?: unknown }).content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: unknown) => {
    const { type, id } = (block ?? {}) as { type?: unknown; id?: unknown };
    return type === 'tool_use' && typeof id === 'string' ? [id] : [];
  });
}

/** One step's spend over all its queries. */
export class CostLedger {
  /** Truth of finished results plus the estimates of queries that ended without one. */
  #settled: number;
  /** Estimates since the running query's last result, by message id. */
  readonly #pending = new Map<string, number>();
  /** Message ids already priced, or covered by a result. */
  readonly #counted = new Set<string>();
  /** Message ids the running query streamed since its last result. */
  readonly #streamed = new Set<string>();
  /** The running query's last reported total; starts at the saved total of the session it resumed. */
  #queryTotal = 0;
  /** The highest figure reported so far: {@link CostLedger.usd} never goes below it. */
  #floor = 0;
  /** Tool-use ids in the responses priced so far: a tool call whose response is not among them is unpriced. */
  readonly #pricedToolUses = new Set<string>();
  /** The costliest single response priced so far: the estimate of the next turn. */
  #largest = 0;
  /** The running query priced a response from the user's table or by family: its result is no truth. */
  #ownPricing = false;
  /** The child retried a request of the running query: its result is no truth (docs/decisions.md D354). */
  #retried = false;
  readonly #prices: PriceTable;

  /**
   * @param startUsd what the step had spent before this ledger took over.
   * @param prices the list and the user's prices; the list alone by default.
   */
  constructor(startUsd = 0, prices: PriceTable = new PriceTable()) {
    this.#settled = startUsd;
    this.#prices = prices;
  }

  /** Dollars spent so far: settled plus the running query's estimates, never less than an earlier figure. */
  get usd(): number {
    let pending = 0;
    for (const value of this.#pending.values()) pending += value;
    return Math.max(this.#floor, this.#settled + pending);
  }

  /**
   * What the next turn is expected to cost: the costliest response of the step so far (a conversation
   * grows, so its latest turns are its dearest); 0 before the first.
   */
  get nextTurnUsd(): number {
    return this.#largest;
  }

  /**
   * True when the response that asked for tool call `toolUseId` has been priced. The child asks the
   * permission hook for a tool before that response's transcript entry reaches the store, so a budget check
   * in the hook must count it as a turn of its own until it is.
   */
  hasPriced(toolUseId: string): boolean {
    return this.#pricedToolUses.has(toolUseId);
  }

  /** A new query starts; `baselineUsd` is the saved total of the session it resumes (0 for a new one). */
  beginQuery(baselineUsd = 0): void {
    this.endQuery();
    this.#queryTotal = baselineUsd;
  }

  /** The saved total became known (the SDK loaded the transcript before spawning the child). */
  setBaseline(baselineUsd: number): void {
    this.#queryTotal = baselineUsd;
  }

  /** The running query streamed a response with this message id. */
  noteStreamed(messageId: string): void {
    if (messageId !== '') this.#streamed.add(messageId);
  }

  /**
   * Entries of a transcript loaded to resume it: their responses were paid for before, so copies of them
   * stored again (a fork writes the parent's messages into the new session) are not new spend.
   */
  noteLoaded(entries: readonly SessionStoreEntry[] | null): void {
    for (const entry of entries ?? []) {
      const priced = pricedMessage(entry);
      if (priced !== null) this.#counted.add(priced.id);
    }
  }

  /** A stored entry; true when it added an estimate (a response not priced before). */
  noteStored(entry: SessionStoreEntry): boolean {
    const priced = pricedMessage(entry);
    if (priced === null || this.#counted.has(priced.id)) return false;
    this.#counted.add(priced.id);
    const lookup = this.#prices.lookup(priced.model);
    if (lookup.source === 'override' || lookup.source === 'family') this.#ownPricing = true;
    const cost = this.#prices.cost(priced.model, priced.usage);
    this.#largest = Math.max(this.#largest, cost);
    for (const id of toolUseIds(entry)) this.#pricedToolUses.add(id);
    this.#pending.set(priced.id, cost);
    return cost > 0;
  }

  /**
   * The child retried a request of the running query (an `api_retry` message). The failed try may have
   * broken off after its answer started, and the child may or may not have priced that start, so this
   * query's results only settle flower's own figures, like a query priced from the user's table.
   */
  noteRetry(): void {
    this.#retried = true;
  }

  /** A result reported the session's running total; returns the spend it adds to the step. */
  noteResult(totalCostUsd: number): number {
    const total = Number.isFinite(totalCostUsd) ? totalCostUsd : 0;
    if (this.#ownPricing || this.#retried) {
      // flower's own prices are the truth: the estimates settle; responses stored later are still priced.
      let pending = 0;
      for (const value of this.#pending.values()) pending += value;
      this.#queryTotal = Math.max(this.#queryTotal, total);
      this.#streamed.clear();
      this.#pending.clear();
      this.#settled += pending;
      return pending;
    }
    const delta = Math.max(0, total - this.#queryTotal);
    this.#floor = this.usd;
    this.#queryTotal = Math.max(this.#queryTotal, total);
    for (const id of this.#streamed) this.#counted.add(id);
    this.#streamed.clear();
    this.#pending.clear();
    this.#settled += delta;
    return delta;
  }

  /** The running query ended; its estimates since the last result become settled. */
  endQuery(): void {
    for (const value of this.#pending.values()) this.#settled += value;
    this.#pending.clear();
    this.#streamed.clear();
    this.#ownPricing = false;
    this.#retried = false;
  }
}
