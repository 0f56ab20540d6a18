/**
 * `PruningSessionStore`: the store the runtime builds. On top of expire and trim, its `load()` prunes
 * synthetic API errors and old denials, re-links the parent chain, heals orphaned tool calls and puts back
 * the journalled calls the stored transcript lost.
 *
 * @module
 */
import type { SessionKey, SessionStoreEntry } from '../agent/claude-sdk.js';
import { recoverJournalledCalls, toolUseIds } from './journal-recovery.js';
import { PLACEHOLDER_TEXT } from './placeholder-text.js';
import { prune } from './prune.js';
import { PrunePolicy } from './prune-policy.js';
import { ToolJournal } from './tool-journal.js';
import { asPolicy, TrimmingSessionStore, type LayerOptions } from './trimming-session-store.js';

/** The subpath prefix of a subagent's transcript; the rest is the agent id the hooks report. */
const SUBAGENT_PREFIX = 'subagents/agent-';

/**
 * A {@link TrimmingSessionStore} whose `load()` also runs the prune layer (docs/context-economy.md): base
 * load → expire → trim → prune (→ relink → healOrphans) → journal recovery. Storage is never changed.
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
        ? new ToolJournal(
            this.path,
            options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs },
          )
        : null;
  }

  /** Closes the journal, then the store. Idempotent. */
  override close(): void {
    this.toolJournal?.close();
    super.close();
  }

  protected override async transform(
    key: SessionKey,
    entries: SessionStoreEntry[],
  ): Promise<SessionStoreEntry[]> {
    let current = await super.transform(key, entries);
    if (this.prunePolicy.enabled) {
      current = this.applyLayer(key, 'prune', current, (input) =>
        prune(input, this.prunePolicy, this.toolIndexOf(input)),
      );
    }
    const journal = this.toolJournal;
    const agentId = agentOf(key);
    if (journal === null || agentId === undefined) return current;
    return this.applyLayer(key, 'journal', current, (input) => {
      const stored = toolUseIds(entries);
      return recoverJournalledCalls(input, {
        storedCalls: stored,
        journalledIds: journal.idsOf(key.sessionId, agentId),
        journalled: journal.callsOf(key.sessionId, agentId, stored),
        text: PLACEHOLDER_TEXT.journalled,
        orphanText: this.prunePolicy.orphanText,
      });
    });
  }
}

/** The agent id of a subagent transcript, null for the main one, undefined for any other subpath. */
function agentOf(key: SessionKey): string | null | undefined {
  if (key.subpath === undefined || key.subpath === '') return null;
  return key.subpath.startsWith(SUBAGENT_PREFIX) ? key.subpath.slice(SUBAGENT_PREFIX.length) : undefined;
}
