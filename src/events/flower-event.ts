/**
 * The `FlowerEvent` union: the only thing renderers, the dashboard and users' `onEvent` callbacks see.
 * SDK messages are normalised into these by `normalize()`; the runtime, workflow, guards and human channel
 * add their own kinds. UIs must keep an `else` branch: kinds will grow.
 *
 * @module
 */
import type { LoadReport } from './load-report.js';

/** Fields every event carries. */
export interface EventBase {
  /** One display line; may be empty. */
  text: string;
  /** Epoch seconds (float). */
  at: number;
  /** The step that produced the event, set where the event is made; null outside a step. */
  step: string | null;
  /** The source message, for debugging. Never sent to a frontend. */
  raw?: unknown;
}

/** Which conversation an event belongs to: the main thread or a subagent started by an Agent call. */
export interface Thread {
  subagent: boolean;
  parentToolUseId: string | null;
}

/** Warnings shown as one screen line. */
export type WarningCode =
  | 'model_mismatch'
  | 'price_guessed'
  | 'unverifiable_checks'
  | 'lineage_moved'
  | 'lineage_reset'
  | 'lineage_quarantined'
  | 'session_missing'
  | 'project_key_mismatch'
  | 'resume_args_ignored'
  | 'owned_env_ignored'
  | 'shell_not_sandboxed'
  | 'glance_without_expiry'
  | 'clarifier_max_turns'
  | 'plugin_missing'
  | 'window_env_invalid'
  | 'dotenv_problem';

/** Error classes used by the resilience layer. */
export type ErrorKind = 'transient' | 'fatal' | 'unknown';

export interface TextEvent extends EventBase, Thread {
  kind: 'text';
}
export interface ThinkingEvent extends EventBase, Thread {
  kind: 'thinking';
}
export interface PromptEvent extends EventBase, Thread {
  kind: 'prompt';
}
/**
 * A response is being streamed: how many output tokens it has so far. Sent when a response starts, at most
 * about twice a second while it streams, and when it ends. For live displays only; not written to
 * `events.jsonl`.
 */
export interface StreamEvent extends EventBase, Thread {
  kind: 'stream';
  /** Output tokens so far: estimated from the streamed characters until the API's own count arrives. */
  tokens: number;
  /** True on the response's last event, whose `tokens` is the API's count. */
  done: boolean;
}
export interface ToolCallEvent extends EventBase, Thread {
  kind: 'tool_call';
  tool: string;
  id: string;
  input: Record<string, unknown>;
}
export interface ToolResultEvent extends EventBase, Thread {
  kind: 'tool_result';
  toolUseId: string;
  tool: string | null;
  isError: boolean;
}
export interface ContextEvent extends EventBase {
  kind: 'context';
  tokens: number;
  sessionId: string | null;
  window: number | null;
  threshold: number | null;
  /** The API response's id: one response may reach the SDK as several messages, each with the same usage. */
  messageId?: string | null;
  /** The model that served the response, as the API named it. */
  model?: string | null;
}
export interface ResultEvent extends EventBase {
  kind: 'result';
  sessionId: string | null;
  costUsd: number;
  numTurns: number;
  isError: boolean;
  subtype: string;
  errors: string[];
  /** Why the turn ended, as the CLI named it (e.g. `api_error`); null when it did not say. */
  terminalReason?: string | null;
  /** The HTTP status of a failed API call that ended the turn; null otherwise. */
  apiErrorStatus?: number | null;
  /** The result's own text when it reports an error (an API failure's message); null otherwise. */
  errorText?: string | null;
}
export interface ErrorEvent extends EventBase, Thread {
  kind: 'error';
  synthetic: boolean;
  /** Usually an {@link ErrorKind}; any other kind the source named passes through as it came. */
  errorKind: string | null;
}
export interface ResetEvent extends EventBase {
  kind: 'reset';
  trigger: string;
  preTokens: number | null;
  postTokens: number | null;
  micro: boolean;
}
export interface SubagentStartEvent extends EventBase {
  kind: 'subagent_start';
  taskId: string;
  toolUseId: string | null;
  agentType: string | null;
  description: string;
  background: boolean;
}
export interface SubagentStopEvent extends EventBase {
  kind: 'subagent_stop';
  taskId: string;
  toolUseId: string | null;
  agentType: string | null;
  status: string;
  tokens: number | null;
  durationMs: number | null;
}
export interface TaskEvent extends EventBase {
  kind: 'task';
  subtype: string;
  taskId: string | null;
}
export interface SystemEvent extends EventBase {
  kind: 'system';
  subtype: string;
  data: Record<string, unknown>;
}
export interface UnknownEvent extends EventBase {
  kind: 'unknown';
  type: string;
}
export interface CostEvent extends EventBase {
  kind: 'cost';
  usd: number;
  stepUsd: number;
  runUsd: number;
}
export interface RetryEvent extends EventBase {
  kind: 'retry';
  attempt: number;
  cause: 'interrupt' | 'error' | 'stall';
  errorKind: ErrorKind | null;
  delayS: number;
  /** The failed attempt's error (its first line is what a retry line shows); absent for an interrupt. */
  reason?: string;
  /** The most attempts the step may make; absent for an interrupt. */
  maxAttempts?: number;
  /** An interrupt only: true when the human typed words the session resumes with. */
  withMessage?: boolean;
}
export interface WaitEvent extends EventBase {
  kind: 'wait';
  host: string;
  port: number;
  maxWaitS: number;
  /** The endpoint was never reached in this process, so the wait is the short one for a wrong address. */
  neverReached?: boolean;
}
/** A wait for the network goes on: sent after each failed probe, for a countdown line. */
export interface WaitingEvent extends EventBase {
  kind: 'waiting';
  host: string;
  port: number;
  /** Seconds since the wait began. */
  waitedS: number;
  /** Seconds until the next probe. */
  nextCheckS: number;
}
export interface RecoveredEvent extends EventBase {
  kind: 'recovered';
  host: string;
  port: number;
  waitedS: number;
}
/**
 * A usage limit: the run parks until `resetsAt` (`parked`, sent once per wait: the countdown line), then
 * resumes the same session (`resumed`).
 */
export interface UsageLimitEvent extends EventBase {
  kind: 'usage_limit';
  phase: 'parked' | 'resumed';
  /** When the limit resets: epoch seconds. */
  resetsAt: number;
  /** Which limit (`five_hour`, `seven_day`, …) when the API said; else null. */
  limit: string | null;
  sessionId: string | null;
}
export interface StallEvent extends EventBase {
  kind: 'stall';
  idleS: number;
  sessionId: string | null;
}
export interface BudgetEvent extends EventBase {
  kind: 'budget';
  scope: 'step' | 'run';
  capUsd: number;
  spentUsd: number;
}
export interface HandoffEvent extends EventBase {
  kind: 'handoff';
  phase: 'near' | 'writing' | 'done' | 'edited';
  context: number;
  window: number;
  threshold: number;
  degraded?: boolean;
  path?: string;
  sections?: { doing: string; decided: string; deadends: string; next: string };
}
export interface TrimEvent extends EventBase {
  kind: 'trim';
  sessionId: string;
  report: LoadReport;
}
export interface WarningEvent extends EventBase {
  kind: 'warning';
  code: WarningCode;
  detail: string;
  /** `model_mismatch` only: the model the configuration asked for and the one the API served. */
  model?: { wanted: string; served: string };
}
export interface SpillEvent extends EventBase, Thread {
  kind: 'spill';
  tool: string;
  chars: number;
  path: string;
}
export interface StepEvent extends EventBase {
  kind: 'step';
  name: string;
  index: number;
  total: number;
  resumed: boolean;
  woke: number;
}
export interface StepEndEvent extends EventBase {
  kind: 'step_end';
  name: string;
  ok: boolean;
  error: string | null;
  costUsd: number;
  attempts: number;
}
export interface VerdictEvent extends EventBase {
  kind: 'verdict';
  round: number;
  state: 'ACHIEVED' | 'NOT_YET' | 'UNREACHABLE' | '';
  reason: string;
  failed: string[];
}
export interface AskEvent extends EventBase {
  kind: 'ask';
  id: string;
  question: string;
  options: string[];
  /** Questions left in the quota; −1 when there is no quota (docs/human-channel.md). */
  remaining: number;
  askedAt: number;
}
export interface AnswerEvent extends EventBase {
  kind: 'answer';
  id: string;
  state: 'asked' | 'answered' | 'timeout' | 'declined' | 'over_budget' | 'invalid';
  answer: string;
}
export interface MailEvent extends EventBase {
  kind: 'mail';
  id: string;
  state: 'queued' | 'delivered';
  amended: boolean;
}

/** Every event flower emits, discriminated on `kind`. */
export type FlowerEvent =
  | TextEvent
  | ThinkingEvent
  | PromptEvent
  | StreamEvent
  | ToolCallEvent
  | ToolResultEvent
  | ContextEvent
  | ResultEvent
  | ErrorEvent
  | ResetEvent
  | SubagentStartEvent
  | SubagentStopEvent
  | TaskEvent
  | SystemEvent
  | UnknownEvent
  | CostEvent
  | RetryEvent
  | WaitEvent
  | WaitingEvent
  | RecoveredEvent
  | UsageLimitEvent
  | StallEvent
  | BudgetEvent
  | HandoffEvent
  | TrimEvent
  | WarningEvent
  | SpillEvent
  | StepEvent
  | StepEndEvent
  | VerdictEvent
  | AskEvent
  | AnswerEvent
  | MailEvent;

/** The `kind` of any event. */
export type EventKind = FlowerEvent['kind'];

/** Receives events. Synchronous and must not block; a throwing sink is recorded, never fatal. */
export type EventSink = (event: FlowerEvent) => void;
