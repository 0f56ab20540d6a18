/**
 * `RuntimeLike`: the part of `Runtime` a workflow uses. Keeping it this small lets a test, or a runtime
 * that forwards to another process, drive a workflow without the real thing.
 *
 * @module
 */
import type { Lang } from '../config/ui-text.js';
import type { Runtime } from '../runtime/runtime.js';
import type { RunRecords } from '../runtime/run-records.js';
import type { FlowerSessionStore } from '../session/flower-session-store.js';

/** What `Workflow.run` needs from a runtime. Only `run` and `onSession` are required. */
export interface RuntimeLike {
  /** Runs one step; a failure is a result with `ok: false`, not a rejection. */
  run: Runtime['run'];
  /**
   * Called with each new session id. The workflow never swaps it: each step's run gets its lineage hook
   * (which then calls this one) through `RunOptions.onSession`, and a judge's run gets `null`. A runtime
   * that forwards elsewhere must honour those run options, or lineage is not recorded.
   */
  onSession: ((sessionId: string) => void) | null;
  /** The language of the workflow's messages; English when absent. A `Runtime` has its configuration's. */
  readonly lang?: Lang;
  /** With `workspace`: enables continuity across processes (lineage lives in this directory). */
  runDir?: string;
  /** With `runDir`: enables continuity across processes. */
  workspace?: string;
  /** The SDK project key of the workspace. */
  projectKey?: string;
  /** The session store the runtime resumes from. */
  store?: FlowerSessionStore;
  /** Where the run's records live; with PostgreSQL the lineage is kept there instead of `lineage.json`. */
  records?: RunRecords;
  /**
   * Called when a step wrote a handoff document (decisions.md D23). The workflow records its hash in lineage
   * (through `RunOptions.onHandoff`, which then calls this one) so a human's later edit is noticed.
   * Optional: a runtime without handoff never calls it.
   */
  onHandoff?: ((step: string, path: string, sha256: string) => void) | null;
  /**
   * Writes the manifest again, after a gate added to the result of a step that already ended (the judge's
   * row gets flower's check record). Optional: without it the row is written with the next step.
   */
  saveManifest?(): void;
  /**
   * Whether a session can still be resumed (a promise when the store is on a server); when absent every
   * remembered session counts as alive.
   */
  hasSession?(sessionId: string): boolean | Promise<boolean>;
}
