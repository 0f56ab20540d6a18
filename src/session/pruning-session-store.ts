/**
 * `PruningSessionStore`: the store the runtime builds. On top of expire and trim, its `load()` prunes
 * synthetic API errors and old denials, re-links the parent chain, heals orphaned tool calls and puts back
 * the journalled calls the stored transcript lost.
 *
 * @module
 */
import { journalLayer } from './journal-layer.js';
import { pruneLayer } from './prune-layer.js';
import { PrunePolicy } from './prune-policy.js';
import type { StoreLayer } from './store-layer.js';
import { ToolJournal } from './tool-journal.js';
import { asPolicy, TrimmingSessionStore, type LayerOptions } from './trimming-session-store.js';

/**
 * A {@link TrimmingSessionStore} whose `load()` also runs the prune layer (docs/context-economy.md): base
 * load → expire → trim → prune (→ relink → healOrphans) → journal recovery. Storage is never changed. A thin
 * preset over the layer values ({@link pruneLayer}, {@link journalLayer}); `layeredStore()` runs the same
 * layers over any other base store.
 */
export class PruningSessionStore extends TrimmingSessionStore {
  /** The prune layer's settings. */
  readonly prunePolicy: PrunePolicy;
  /**
   * The tool journal in the same database (`journal: true`), or null. The runtime's permission gate writes
   * to it; `load()` reads it to show calls the transcript lost.
   */
  readonly toolJournal: ToolJournal | null;

  constructor(
    path: string,
    workspace: string,
    options: LayerOptions & { prune?: PrunePolicy | boolean; journal?: boolean } = {},
  ) {
    super(path, workspace, options);
    this.prunePolicy = asPolicy(options.prune, PrunePolicy);
    this.toolJournal =
      options.journal === true
        ? new ToolJournal(this.path, {
            ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
            openOnFirstUse: options.openOnFirstUse === true,
          })
        : null;
  }

  /** Opens the store, then the journal, if they wait for their first use. */
  override open(): void {
    super.open();
    this.toolJournal?.open();
  }

  /** Closes the journal, then the store. Idempotent. */
  override close(): void {
    this.toolJournal?.close();
    super.close();
  }

  /** The trimming preset's layers, then prune, then journal recovery (a no-op without `journal: true`). */
  protected override presetLayers(): StoreLayer[] {
    return [...super.presetLayers(), pruneLayer(this.prunePolicy), journalLayer(this.prunePolicy.orphanText)];
  }
}
