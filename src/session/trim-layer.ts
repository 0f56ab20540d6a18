/**
 * `trimLayer`: the {@link trim} step as a {@link StoreLayer}, with the spill-name cache and the optional
 * queue of deferred spill files that outlive one load.
 *
 * @module
 */
import { resolve } from 'node:path';
import { SpillListing } from './spill-listing.js';
import { SpillQueue } from './spill-queue.js';
import type { StoreLayer } from './store-layer.js';
import { SpillNames, trim } from './trim.js';
import type { TrimPolicy } from './trim-policy.js';

/** Where the trim layer spills, and when it writes the files. */
export interface TrimLayerOptions {
  /** The workspace; spill files go under `<workspace>/<policy.spillDirname>/`, where the agent's `Read` reaches. */
  workspace: string;
  /**
   * Write spill files after the load returns instead of before (default false). Whoever lets the model run
   * tools must then await the layer's `settled()` (the store's `spillsWritten()`) first.
   */
  deferSpills?: boolean;
}

/** Spills old large tool results to files and points at them (a no-op while `policy.enabled` is false). */
export function trimLayer(policy: TrimPolicy, options: TrimLayerOptions): StoreLayer {
  const workspace = resolve(options.workspace);
  // Spill names of earlier loads, so a resume of the same transcript does not hash every result again.
  const names = new SpillNames();
  // The spill folder's listing, reused by the next load while the folder is unchanged (docs/decisions.md D460).
  const listing = new SpillListing();
  const spills = options.deferSpills === true ? new SpillQueue() : null;
  return {
    name: 'trim',
    keepsPositions: true,
    apply(entries, context) {
      if (!policy.enabled) return { entries, report: {} };
      try {
        return trim(entries, policy, {
          workspace,
          names,
          listing,
          index: context.indexOf(entries),
          ...(spills === null
            ? {}
            : { queue: { spills, onError: (message) => context.report({ errors: [message] }) } }),
        });
      } finally {
        // Start writing now, off the load's path: the runtime awaits them before the first tool call.
        spills?.flush();
      }
    },
    settled: () => (spills === null ? Promise.resolve() : spills.settled()),
  };
}
