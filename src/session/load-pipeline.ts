/**
 * `LoadPipeline`: runs a list of {@link StoreLayer}s, in the list's order, over each loaded transcript and
 * keeps what they did per transcript.
 *
 * @module
 */
import type { SessionKey } from '../agent/claude-sdk.js';
import type { Entry } from './entry-content.js';
import { emptyLoadReport, type LoadReport } from './load-report.js';
import type { LayerBase, LayerContext, StoreLayer } from './store-layer.js';
import { storeKey } from './store-key.js';
import { indexTools, type ToolIndex } from './tool-index.js';

/** The engine under `layeredStore()` and the named stores: layers in order, a load report per store key. */
export class LoadPipeline {
  /** The layers, in the order each load runs them. */
  readonly layers: readonly StoreLayer[];

  readonly #reports = new Map<string, LoadReport>();

  constructor(layers: readonly StoreLayer[]) {
    this.layers = [...layers];
  }

  /**
   * Runs every layer over `stored`, the transcript at `key` as the base store returned it, and starts a
   * fresh report for `key`. Neither `stored` nor its objects are modified.
   */
  run(key: SessionKey, stored: Entry[], base: LayerBase): Entry[] {
    const name = storeKey(key);
    this.#reports.set(name, emptyLoadReport());
    // The shared tool index and the array it currently describes (not always the array it was built from).
    let shared: { describes: readonly Entry[]; index: ToolIndex } | null = null;
    const context: LayerContext = {
      key,
      stored,
      base,
      indexOf: (entries) => {
        if (shared === null || shared.describes !== entries) {
          shared = { describes: entries, index: indexTools(entries) };
        }
        return shared.index;
      },
      report: (part) => this.#merge(name, part),
    };
    let current = stored;
    for (const layer of this.layers) {
      const input = current;
      try {
        const result = layer.apply(input, context);
        this.#merge(name, result.report);
        current = result.entries;
      } catch (error) {
        this.#merge(name, {
          errors: [`${layer.name}: ${error instanceof Error ? error.message : String(error)}`],
        });
      }
      // The input's index still describes the output when the layer kept every entry in place; the index
      // keeps its own `entries`, by which a layer notices a block an earlier one rewrote.
      if (shared !== null && shared.describes === input) {
        shared = layer.keepsPositions ? { describes: current, index: shared.index } : null;
      }
    }
    return current;
  }

  /** What the last `run` for `key` did (a copy), or `null` when `key` was never loaded through it. */
  reportFor(key: SessionKey): LoadReport | null {
    const report = this.#reports.get(storeKey(key));
    return report === undefined ? null : { ...report, errors: [...report.errors] };
  }

  /** Adds counters or error lines to the report of `key`'s last run (what happened around the layers). */
  note(key: SessionKey, part: Partial<LoadReport>): void {
    this.#merge(storeKey(key), part);
  }

  /** Resolves once every layer's after-load work is done (see {@link StoreLayer.settled}). */
  async settled(): Promise<void> {
    await Promise.all(this.layers.map((layer) => layer.settled?.() ?? Promise.resolve()));
  }

  #merge(name: string, part: Partial<LoadReport>): void {
    const report = this.#reports.get(name) ?? emptyLoadReport();
    const { errors, ...counts } = part;
    for (const [field, value] of Object.entries(counts) as Array<[keyof typeof counts, number]>) {
      report[field] += value;
    }
    if (errors !== undefined) report.errors.push(...errors);
    this.#reports.set(name, report);
  }
}
