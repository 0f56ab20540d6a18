/**
 * The load pipeline's building blocks as values: a {@link StoreLayer} is one rewriting step with its name,
 * and a {@link LayerBase} is the little a layer may ask of the store underneath it.
 *
 * @module
 */
import type { SessionKey, SessionStoreEntry } from '../agent/claude-sdk.js';
import type { Entry } from './entry-content.js';
import type { LoadReport } from './load-report.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolJournalReader } from './tool-journal.js';
import type { Transform } from './transform.js';

/**
 * What the layers need from the store they sit on: the SDK protocol's `append` and `load` (returning the
 * transcript exactly as stored), and, for journal recovery, the tool journal kept beside the transcripts.
 * Any store offering these can carry the layers; nothing in a layer depends on how it stores rows.
 */
export interface LayerBase {
  /** Stores a batch of transcript entries. */
  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void>;
  /** The transcript at `key` as stored, or `null` when nothing was stored under `key`. */
  load(key: SessionKey): Promise<SessionStoreEntry[] | null>;
  /** The gate's journal of tool calls it let through; absent or null when the store keeps none. */
  readonly toolJournal?: ToolJournalReader | null;
}

/** What a layer is told about the load it is part of, besides its input entries. */
export interface LayerContext {
  /** The transcript being loaded. */
  readonly key: SessionKey;
  /** The transcript as the base store returned it, before any layer ran. */
  readonly stored: readonly Entry[];
  /** The store underneath the layers. */
  readonly base: LayerBase;
  /**
   * {@link indexTools} of `entries`, computed at most once per load while the layers keep every entry in
   * place (see {@link StoreLayer.keepsPositions}), so stacked layers share one walk over the tool blocks.
   */
  indexOf(entries: readonly Entry[]): ToolIndex;
  /** Adds counters or error lines to this transcript's load report, also after the load has returned. */
  report(part: Partial<LoadReport>): void;
}

/**
 * One step of the load pipeline. It must not mutate its input or touch storage; what it did goes in the
 * returned {@link Transform}'s report. A layer that throws is skipped for that load and its message lands in
 * the report's `errors`: a rewriting layer must never be the reason a session cannot be resumed.
 */
export interface StoreLayer {
  /** Short name, used as the prefix of the layer's error lines in the load report. */
  readonly name: string;
  /**
   * True when every entry of the output sits where it sat in the input and keeps its tool blocks (only
   * result contents change), so the input's tool index still describes the output.
   */
  readonly keepsPositions: boolean;
  /** Rewrites one loaded transcript. */
  apply(entries: Entry[], context: LayerContext): Transform;
  /** Resolves once work the layer left running after a load is done (deferred spill files); never rejects. */
  settled?(): Promise<void>;
}
