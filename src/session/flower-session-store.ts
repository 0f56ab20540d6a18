/**
 * What flower asks of a session store beyond the SDK's {@link SessionStore} protocol: cheap questions
 * answered before a subprocess is paid for, per-transcript load reports, lineage re-keying, and an explicit
 * WAL checkpoint.
 *
 * @module
 */
import type { SessionKey, SessionStore } from '../agent/claude-sdk.js';
import type { LoadReport } from './load-report.js';

/**
 * An SDK session store that flower itself can also query. Each method added here may answer synchronously
 * (the SQLite store does: local storage, no waiting) or with a promise (a store on a database server must
 * wait for the network), so every caller awaits the answer (docs/decisions.md D430).
 */
export interface FlowerSessionStore extends SessionStore {
  /**
   * True when a main transcript `projectKey/sessionId` exists. One index lookup, no payload read; checked
   * before continuing a lineage so a vanished session is noticed before a subprocess is started.
   */
  hasSession(projectKey: string, sessionId: string): boolean | Promise<boolean>;
  /**
   * The context size (`input + cache_read + cache_creation` tokens of `message.usage`) of the newest entry
   * among the main transcript's last `scan` (default 60) that reports a non-zero size; 0 when none does.
   * Unparsable rows are skipped. Feeds the wake banner and `Runtime.contextOf()`.
   */
  lastContext(projectKey: string, sessionId: string, scan?: number): number | Promise<number>;
  /** Every project key that has a transcript, sorted: discover real keys rather than guess them. */
  projects(): string[] | Promise<string[]>;
  /**
   * What the load pipeline did to the transcript at `key` on its last `load()`, kept per key so subagent
   * loads that follow a main load do not overwrite its report (decisions.md D411). `null` when nothing
   * rewrote it.
   */
  reportFor(key: SessionKey): LoadReport | null;
  /**
   * Moves every session stored under `fromProjectKey` to `toProjectKey` (transcripts, subagent transcripts
   * and summaries), used when a moved workspace changes the SDK's project key (decisions.md D9). A session
   * whose id already exists under the target is left where it is, never merged or overwritten.
   *
   * @returns the number of sessions (main transcripts) moved.
   */
  rekey(fromProjectKey: string, toProjectKey: string): number | Promise<number>;
  /**
   * Folds the write-ahead log back into the database file, so the file alone is complete (decisions.md D31).
   * A store on a server has nothing to fold: it does nothing.
   */
  checkpoint(): void | Promise<void>;
  /**
   * Checkpoints, then closes (a store on a server first waits for its pending writes). Further calls fail; a
   * second `close()` does nothing.
   */
  close(): void | Promise<void>;
}
