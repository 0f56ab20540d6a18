/**
 * `pruneLayer`: the {@link prune} step (with relink and healOrphans) as a {@link StoreLayer}.
 *
 * @module
 */
import { prune } from './prune.js';
import type { PrunePolicy } from './prune-policy.js';
import type { StoreLayer } from './store-layer.js';

/** Drops synthetic API errors and old denials and heals the chain (a no-op while `policy.enabled` is false). */
export function pruneLayer(policy: PrunePolicy): StoreLayer {
  return {
    name: 'prune',
    // Relink removes entries, so the positions of an index built before prune no longer hold after it.
    keepsPositions: false,
    apply(entries, context) {
      if (!policy.enabled) return { entries, report: {} };
      return prune(entries, policy, context.indexOf(entries));
    },
  };
}
