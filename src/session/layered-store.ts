/**
 * `layeredStore(base, layers)`: any store under the load pipeline. The layers are values run in the list's
 * order; the base only has to offer {@link LayerBase}, so a store on another database carries the same
 * layers without a change in them.
 *
 * @module
 */
import type { SessionKey, SessionStoreEntry } from '../agent/claude-sdk.js';
import type { LoadReport } from './load-report.js';
import { LoadPipeline } from './load-pipeline.js';
import type { LayerBase, StoreLayer } from './store-layer.js';

/** What `layeredStore()` puts over its base. */
export interface LayeredLoad {
  /** The layers, in the order each load runs them. */
  readonly layers: readonly StoreLayer[];
  /** The base's transcript at `key` passed through every layer, or `null` when the base has none. */
  load(key: SessionKey): Promise<SessionStoreEntry[] | null>;
  /** What the last `load()` of `key` did, or `null` when `key` was not loaded through the layers. */
  reportFor(key: SessionKey): LoadReport | null;
  /** Resolves once every spill file an earlier `load()` pointed at is on disk; never rejects. */
  spillsWritten(): Promise<void>;
}

/** The base store with its `load` replaced by the layered one: every other member is the base's own. */
export type LayeredStore<B extends LayerBase> = Omit<B, keyof LayeredLoad> & LayeredLoad;

/**
 * Puts `layers` over `base`: `load(key)` returns `base.load(key)` rewritten by each layer in turn, in the
 * order given; storage is never changed. Every other member (`append`, `delete`, `close`, a SQLite store's
 * `path`, …) is the base's, called on the base itself so its private state works. The base's own `load` must
 * return the transcript as stored: give it a plain store, not one that already rewrites.
 */
export function layeredStore<B extends LayerBase>(base: B, layers: readonly StoreLayer[]): LayeredStore<B> {
  const pipeline = new LoadPipeline(layers);
  const own: LayeredLoad = {
    layers: pipeline.layers,
    async load(key) {
      const stored = await base.load(key);
      return stored === null ? null : pipeline.run(key, stored, base);
    },
    reportFor: (key) => pipeline.reportFor(key),
    spillsWritten: () => pipeline.settled(),
  };
  const members = new Map<PropertyKey, unknown>(Object.entries(own));
  // A proxy rather than a wrapper class, so the result keeps whatever members a base has, including ones
  // this module has never heard of (a future store's own queries), without listing them.
  return new Proxy(base, {
    get(target, property) {
      if (members.has(property)) return members.get(property);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...parts: unknown[]) => unknown).bind(target) : value;
    },
    has: (target, property) => members.has(property) || Reflect.has(target, property),
  }) as unknown as LayeredStore<B>;
}
