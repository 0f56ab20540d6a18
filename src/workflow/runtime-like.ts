/**
 * `RuntimeLike`: the part of `Runtime` a workflow uses. Keeping it this small lets a test, or a runtime
 * that forwards to another process, drive a workflow without the real thing.
 *
 * @module
 */
import type { Runtime } from '../runtime/runtime.js';
import type { FlowerSessionStore } from '../session/flower-session-store.js';

/** What `Workflow.run` needs from a runtime. Only `run` and `onSession` are required. */
export interface RuntimeLike {
  /** Runs one step; a failure is a result with `ok: false`, not a rejection. */
  run: Runtime['run'];
  /** Called with each new session id; the workflow chains its own hook in front and restores this one. */
  onSession: ((sessionId: string) => void) | null;
  /** With `workspace`: enables continuity across processes (lineage lives in this directory). */
  runDir?: string;
  /** With `runDir`: enables continuity across processes. */
  workspace?: string;
  /** The SDK project key of the workspace. */
  projectKey?: string;
  /** The session store the runtime resumes from. */
  store?: FlowerSessionStore;
  /**
   * Called when a step wrote a handoff document (decisions.md D23); the workflow records its hash in lineage
   * so a human's later edit is noticed. Optional: a runtime without handoff never calls it.
   */
  onHandoff?: ((step: string, path: string, sha256: string) => void) | null;
  /** Whether a session can still be resumed; when absent every remembered session counts as alive. */
  hasSession?(sessionId: string): boolean;
}
