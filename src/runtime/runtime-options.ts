/**
 * The options of `Runtime` and of `Runtime.run` (docs/runtime.md).
 *
 * @module
 */
import type { AgentBackend } from '../agent/agent-backend.js';
import type { FlowerConfig } from '../config/load-config.js';
import type { EventSink } from '../events/flower-event.js';
import type { EphemeralPolicy } from '../session/ephemeral-policy.js';
import type { FlowerSessionStore } from '../session/flower-session-store.js';
import type { TrimPolicy } from '../session/trim-policy.js';
import type { Workbench } from '../workbench/workbench.js';
import type { HandoffPolicy } from './handoff-policy.js';
import type { Resilience } from './resilience.js';
import type { LeaseAnswers, RunLease } from './run-lease.js';
import type { RunRecords } from './run-records.js';
import type { ResilienceSettings } from './resilience-settings.js';

/** How a `Runtime` is set up. */
export interface RuntimeOptions {
  /** The agents' working directory; created when missing. */
  workspace: string;
  /**
   * Run directory; default `<workspace>/runs` (decisions.md D3); a relative path resolves against the cwd.
   */
  runDir?: string;
  /** True (default): the agent reads no settings files (`settingSources: []`). */
  portable?: boolean;
  /** Trim old large tool results on resume; off by default (pruning and expiry always run). */
  trim?: TrimPolicy | boolean;
  /** Expire stale read-only glances on resume; on by default. */
  ephemeral?: EphemeralPolicy | boolean;
  /** Denied tool calls kept on resume (the most recent ones); 1 by default. */
  keepDenials?: number;
  /**
   * The workbench the steps share: an instance (its location is the caller's choice, see `workbenchPath`),
   * `true` for `<runDir>/workbench` (what `-W` asks for), false or absent for none. With one, every step gets
   * the index and spill hooks, and specs with `workbench: true` get the index in their first message.
   */
  workbench?: Workbench | boolean;
  /**
   * Whether the workspace is a git work tree, when the caller has already asked git; otherwise the runtime
   * asks at the first step with isolated workers and remembers a yes.
   */
  gitWorkTree?: boolean;
  /** Results of this many characters or more are spilled to the workbench; 4000 by default; null or 0 = never. */
  spillThreshold?: number | null;
  /** A `Resilience`, its settings, or a boolean (false: one attempt per step, no waiting). */
  resilience?: Resilience | Partial<ResilienceSettings> | boolean;
  /**
   * Handoff instead of compaction (docs/handoff.md): a policy, or a boolean (default true: the window comes
   * from
   * `FLOWER_WINDOW`, the learned `.windows` value or the model name). On, the child's auto-compact is off
   * (`no_summary`) unless the spec sets a compact policy; false leaves the SDK's auto-compact in charge.
   */
  handoff?: HandoffPolicy | boolean;
  /** Dollar cap for every step this runtime runs, together (decisions.md D25); null = none. */
  budgetUsd?: number | null;
  /**
   * The run's lease, already acquired (docs/scaling.md): checked before every step, and when it is lost the
   * step in flight is aborted; released by `close()` and `rescue()`.
   */
  lease?: RunLease<LeaseAnswers> | null;
  /**
   * Where the run's records (manifest rows) are written: `runRecordsFor(runDir, pg)`; the run directory's
   * `manifest.json` by default. With PostgreSQL records the rows are written in order in the background:
   * await `Runtime.recordsWritten()` before the process ends (docs/decisions.md D442).
   */
  records?: RunRecords;
  /** Session store; default `PruningSessionStore(<runDir>/sessions.db)`. Closed by `Runtime.close()`. */
  store?: FlowerSessionStore;
  /** Runs the agent; the real SDK by default. */
  backend?: AgentBackend;
  /**
   * Loaded configuration; `loadConfig()` by default. `stallTimeoutS` is `FLOWER_STALL_TIMEOUT`; `sandbox`
   * false (`FLOWER_SANDBOX=off`) runs the agent's Bash outside Claude Code's sandbox; `prices` are the
   * user's `FLOWER_PRICES`.
   */
  config?: Pick<FlowerConfig, 'env'> &
    Partial<Pick<FlowerConfig, 'stallTimeoutS' | 'lang' | 'sandbox' | 'prices'>>;
}

/** Per-call options of `Runtime.run`. */
export interface RunOptions {
  /** The manifest row's step name; the spec's name by default. */
  stepName?: string | null;
  /** Session id to continue. */
  resume?: string | null;
  /** With `resume`: fork into a new session. */
  fork?: boolean;
  /** With `resume`: roll back to this message first (first attempt only). */
  resumeAt?: string | null;
  /** Receives every event of the step; exceptions it throws are kept in `uiErrors`, never fatal. */
  onEvent?: EventSink | null;
  /** Aborting ends the step at once with `killed-by-signal` (the session stays resumable). */
  signal?: AbortSignal;
  /** Send the prompt verbatim (decisions.md D11). */
  verbatim?: boolean;
  /**
   * Called with this run's new session ids instead of the runtime's `onSession`; `null` calls nothing.
   * Per run, so a caller (a workflow recording lineage) never swaps the runtime's public field and a
   * concurrent reader never sees a borrowed hook. Absent: the runtime's `onSession`.
   */
  onSession?: ((sessionId: string) => void) | null;
  /** Called when this run wrote a handoff document, instead of the runtime's `onHandoff`; `null` calls nothing. */
  onHandoff?: ((step: string, path: string, sha256: string) => void) | null;
}
