/**
 * `PruningSessionStore`: the store the runtime builds. On top of expire and trim, its `load()` prunes
 * synthetic API errors and old denials, re-links the parent chain and heals orphaned tool calls.
 *
 * @module
 */
import type { SessionKey, SessionStoreEntry } from '../agent/claude-sdk.js';
import { prune } from './prune.js';
import { PrunePolicy } from './prune-policy.js';
import { asPolicy, TrimmingSessionStore, type LayerOptions } from './trimming-session-store.js';

/**
 * A {@link TrimmingSessionStore} whose `load()` also runs the prune layer (cs §6): base load → expire →
 * trim → prune (→ relink → healOrphans). Storage is never changed.
 */
export class PruningSessionStore extends TrimmingSessionStore {
  /** The prune layer's settings. */
  readonly prunePolicy: PrunePolicy;

  constructor(
    path: string,
    workspace: string,
    options: LayerOptions & { prune?: PrunePolicy | boolean } = {},
  ) {
    super(path, workspace, options);
    this.prunePolicy = asPolicy(options.prune, PrunePolicy);
  }

  protected override async transform(
    key: SessionKey,
    entries: SessionStoreEntry[],
  ): Promise<SessionStoreEntry[]> {
    const current = await super.transform(key, entries);
    if (!this.prunePolicy.enabled) return current;
    return this.applyLayer(key, 'prune', current, (input) => prune(input, this.prunePolicy));
  }
}
