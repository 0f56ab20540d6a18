/**
 * The stall watchdog (decisions.md D6): a stream that stalls mid-response is noticed by the Claude Code child
 * only after 300 s (its idle limit cannot be set lower, as probing the real binary showed), and
 * `API_TIMEOUT_MS` does not cover it. flower watches the SDK message stream itself: no message for
 * `stallTimeoutS` seconds while no tool call and no subagent is running means the stream is stuck, and the
 * runtime aborts the query, records a transient `stall:` error (decisions.md D30) and resumes the same
 * session.
 *
 * A running tool or subagent is silence by design — a build can take twenty minutes — so the watchdog only
 * counts silence while nothing runs. It tracks tool calls (a `tool_use` without its `tool_result` yet, on
 * the main thread or in a subagent) and subagent tasks (`task_started` without `task_notification`).
 *
 * @module
 */
import type { AgentMessage } from '../agent/agent-backend.js';
import { STALL_PREFIX } from './classify-error.js';

/** How a {@link StallWatchdog} is set up. */
export interface StallWatchdogOptions {
  /** Seconds of silence, with nothing running, that count as a stall. */
  timeoutS: number;
  /** Called once, from a timer, with the seconds since the last message. Exceptions are ignored. */
  onStall: (idleS: number) => void;
  /** Milliseconds since the epoch; `Date.now` by default (tests use fake timers, which replace both). */
  now?: () => number;
}

// Task types that are a subagent at work. A background shell (`local_bash`) or a watcher may run for the
// whole session while the main thread goes on talking, so it must not silence the watchdog.
const AGENT_TASK = /agent|workflow/i;
const ENDED_STATUS = new Set(['completed', 'failed', 'killed', 'stopped']);

type Fields = Readonly<Record<string, unknown>>;

/** The `stall:` error text of a step cut off by the watchdog (decisions.md D30). */
export function stallError(idleS: number): string {
  return `${STALL_PREFIX} no SDK message for ${Math.round(idleS)} s`;
}

/**
 * Watches one query's message stream; feed it every SDK message with {@link observe}. Starts counting at
 * construction; fires {@link StallWatchdogOptions.onStall} at most once; {@link stop} it when the query
 * ends. Its timer is unref'd, so it never keeps the process alive on its own.
 */
export class StallWatchdog {
  readonly #timeoutMs: number;
  readonly #onStall: (idleS: number) => void;
  readonly #now: () => number;
  readonly #tools = new Set<string>();
  /** Running subagent tasks by id; the value says whether the task runs in the background. */
  readonly #tasks = new Map<string, boolean>();
  #lastAt: number;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #done = false;

  constructor(options: StallWatchdogOptions) {
    this.#timeoutMs = Math.max(0, options.timeoutS) * 1000;
    this.#onStall = options.onStall;
    this.#now = options.now ?? Date.now;
    this.#lastAt = this.#now();
    this.#arm();
  }

  /** True while a tool call or a subagent is running (the watchdog does not fire then). */
  get busy(): boolean {
    return this.#tools.size > 0 || this.#tasks.size > 0;
  }

  /** Seconds since the last message (or since construction). */
  get idleS(): number {
    return (this.#now() - this.#lastAt) / 1000;
  }

  /** True once the watchdog has fired or been stopped; it never fires again. */
  get done(): boolean {
    return this.#done;
  }

  /** Records one SDK message: resets the idle clock and updates what is running. */
  observe(message: AgentMessage): void {
    if (this.#done) return;
    this.#lastAt = this.#now();
    this.#track(message);
    if (this.busy) this.#disarm();
    else this.#arm();
  }

  /** Stops watching and clears the timer; idempotent. */
  stop(): void {
    this.#done = true;
    this.#disarm();
  }

  #track(fields: Fields): void {
    switch (fields['type']) {
      case 'assistant':
        for (const block of blocksOf(fields)) {
          if (block['type'] === 'tool_use' && typeof block['id'] === 'string') this.#tools.add(block['id']);
        }
        break;
      case 'user':
        for (const block of blocksOf(fields)) {
          if (block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string') {
            this.#tools.delete(block['tool_use_id']);
          }
        }
        break;
      case 'result':
        // The turn is over: a call still open now never gets a result (its turn was cut off).
        this.#tools.clear();
        break;
      case 'system':
        this.#trackTask(fields);
        break;
      default:
        break;
    }
  }

  #trackTask(fields: Fields): void {
    const taskId = typeof fields['task_id'] === 'string' ? fields['task_id'] : null;
    switch (fields['subtype']) {
      case 'task_started':
        if (taskId !== null && isAgentWork(fields))
          this.#tasks.set(taskId, fields['is_backgrounded'] === true);
        break;
      case 'task_notification':
        if (taskId !== null) this.#tasks.delete(taskId);
        break;
      case 'task_updated': {
        if (taskId === null || !this.#tasks.has(taskId)) break;
        const patch = record(fields['patch']);
        if (typeof patch['status'] === 'string' && ENDED_STATUS.has(patch['status']))
          this.#tasks.delete(taskId);
        else if (patch['is_backgrounded'] === true) this.#tasks.set(taskId, true);
        break;
      }
      case 'background_tasks_changed': {
        // A level signal: the full set of live background tasks, so a missed bookend cannot wedge us.
        const live = new Set<string>();
        for (const task of Array.isArray(fields['tasks']) ? fields['tasks'].map(record) : []) {
          if (typeof task['task_id'] === 'string' && isAgentWork(task)) live.add(task['task_id']);
        }
        for (const [id, background] of this.#tasks) if (background && !live.has(id)) this.#tasks.delete(id);
        for (const id of live) this.#tasks.set(id, true);
        break;
      }
      default:
        break;
    }
  }

  #arm(): void {
    if (this.#done || this.#timer !== null) return;
    const remaining = Math.max(0, this.#lastAt + this.#timeoutMs - this.#now());
    // Node fires a timer longer than 2^31 - 1 ms at once; a later check re-arms for the rest.
    this.#timer = setTimeout(() => this.#check(), Math.min(remaining, 2_147_483_647));
    this.#timer.unref();
  }

  #disarm(): void {
    if (this.#timer === null) return;
    clearTimeout(this.#timer);
    this.#timer = null;
  }

  // One timer at a time: when it fires early (messages came in meanwhile) it re-arms for the remainder,
  // so a busy stream costs no timer churn.
  #check(): void {
    this.#timer = null;
    if (this.#done || this.busy) return;
    const idleMs = this.#now() - this.#lastAt;
    if (idleMs < this.#timeoutMs) {
      this.#arm();
      return;
    }
    this.#done = true;
    try {
      this.#onStall(idleMs / 1000);
    } catch {
      // Thrown from a timer it would crash the process; the runtime reports its own failures.
    }
  }
}

function record(value: unknown): Fields {
  return typeof value === 'object' && value !== null ? (value as Fields) : {};
}

function blocksOf(fields: Fields): Fields[] {
  const content = record(fields['message'])['content'];
  return Array.isArray(content) ? content.map(record) : [];
}

// Ambient tasks (watchers, housekeeping) are not activity, per the SDK's own description.
function isAgentWork(task: Fields): boolean {
  if (task['ambient'] === true || task['skip_transcript'] === true) return false;
  const type = task['task_type'];
  return type === undefined || (typeof type === 'string' && AGENT_TASK.test(type));
}
