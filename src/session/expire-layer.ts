/**
 * `expireLayer`: the {@link expire} step as a {@link StoreLayer}.
 *
 * @module
 */
import type { EphemeralPolicy } from './ephemeral-policy.js';
import { expire } from './expire.js';
import type { StoreLayer } from './store-layer.js';

/** Replaces stale ephemeral Bash results with a placeholder (a no-op while `policy.enabled` is false). */
export function expireLayer(policy: EphemeralPolicy): StoreLayer {
  return {
    name: 'expire',
    keepsPositions: true,
    apply(entries, context) {
      if (!policy.enabled) return { entries, report: {} };
      return expire(entries, policy, context.indexOf(entries));
    },
  };
}
