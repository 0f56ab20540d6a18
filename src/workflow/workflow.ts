/**
 * `Workflow`: a list of steps run in order on one runtime, sharing a context (docs/workflows.md). It owns the
 * parts around the steps: clearing what a previous run left in the context, continuity across processes,
 * the human channel's event wiring, and stopping on a failure or an aborted signal.
 *
 * @module
 */
import { uiText } from '../config/ui-text.js';
import { FlowerError } from '../errors.js';
import type { EventSink } from '../events/flower-event.js';
import type { HumanChannel } from '../human/human-channel.js';
import type { StepResult } from '../runtime/step-result.js';
import type { Workbench } from '../workbench/workbench.js';
import { openContinuity } from './continuity.js';
import { runStep } from './run-step.js';
import { checkReferences } from './step-references.js';
import type { RuntimeLike } from './runtime-like.js';
import { checkStep, contextLang, type Ctx, type Step } from './step.js';
import { guardSink, warningEvent } from './workflow-events.js';

/** How a {@link Workflow} is set up. */
export interface WorkflowOptions {
  /** For display; `'workflow'` by default. */
  name?: string;
  /** The context to start from (kept and reused by every run of this object); `{}` by default. */
  context?: Ctx;
  /** The human channel its agents ask through; gets the run's event sink when it has none. */
  channel?: HumanChannel | null;
  /** The workflow's own workbench; `flower run` prefers it over `-W`. */
  workbench?: Workbench | null;
  /** Resume each step's session from earlier runs in the same run directory; true by default. */
  continuous?: boolean;
}

/** Per-run options of {@link Workflow.run}. */
export interface WorkflowRunOptions {
  /** Receives every event of every step; a throw is kept in `uiErrors`, never fatal. */
  onEvent?: EventSink | null;
  /** Called after each step that ran, with its final result (also on failure). */
  onStep?: (s: Step, r: StepResult) => void;
  /** Aborting stops the running step (`killed-by-signal`) and the workflow; sessions stay resumable. */
  signal?: AbortSignal;
}

/** Steps run in order on one runtime, sharing a context. */
export class Workflow {
  readonly name: string;
  readonly steps: readonly Step[];
  /** The shared context; the same object across runs, returned by {@link Workflow.run}. */
  readonly context: Ctx;
  readonly channel: HumanChannel | null;
  readonly workbench: Workbench | null;
  readonly continuous: boolean;
  /** Failures of event sinks, `onStep` and lineage writes: recorded, never fatal. */
  readonly uiErrors: string[] = [];

  /** Step outputs this object wrote, so a failed rerun can withdraw a stale one (not the caller's seeds). */
  readonly #written = new Set<string>();
  #running = false;

  /** Throws a `TypeError` for an unusable step or two steps with the same name. */
  constructor(steps: readonly Step[], options: WorkflowOptions = {}) {
    const seen = new Set<string>();
    for (const candidate of steps) {
      checkStep(candidate);
      if (seen.has(candidate.name)) {
        throw new TypeError(
          `Two steps are named '${candidate.name}'; step names must be unique (they key the context and lineage).`,
        );
      }
      seen.add(candidate.name);
    }
    checkReferences(steps);
    this.steps = [...steps];
    this.name = options.name ?? 'workflow';
    this.context = options.context ?? {};
    this.channel = options.channel ?? null;
    this.workbench = options.workbench ?? null;
    this.continuous = options.continuous ?? true;
  }

  /**
   * Runs the steps in order and returns the context. The run succeeded when `ctx._failedAt` is absent.
   * Rejects only for mistakes in the workflow itself (a `resumeFrom` step without a session, a callback
   * that throws something other than `StepAbort`) and with `RUNTIME_BUSY` when this object is running.
   */
  async run(rt: RuntimeLike, options: WorkflowRunOptions = {}): Promise<Ctx> {
    if (this.#running) {
      throw new FlowerError('RUNTIME_BUSY', uiText('step.busy', {}, rt.lang ?? 'en'));
    }
    this.#running = true;
    const sink = guardSink(options.onEvent, this.uiErrors);
    const channel = this.channel;
    const wired = channel !== null && sink !== null && channel.onEvent == null;
    if (wired) channel.onEvent = sink;
    try {
      const ctx = this.#prepare(rt, sink, options.signal);
      const continuity = this.continuous
        ? await openContinuity(rt, ctx, (code, text) => sink?.(warningEvent(code, text, null)), {
            lang: contextLang(ctx),
            uiErrors: this.uiErrors,
          })
        : null;
      const total = this.steps.length;
      let stopped = false;
      for (const [position, current] of this.steps.entries()) {
        if (options.signal?.aborted === true) {
          if (!stopped) ctx._failedAt = current.name;
          break;
        }
        // After a stop only `always` steps run (the bequest: what was reached and, above all, what was not).
        if (stopped && current.always !== true) continue;
        if (typeof current.when === 'function' && !(await current.when(ctx))) continue;
        const failedAt = ctx._failedAt;
        const outcome = await runStep(current, {
          rt,
          ctx,
          sink,
          continuity,
          index: position + 1,
          total,
          signal: options.signal,
          onStep: options.onStep,
          written: this.#written,
          uiErrors: this.uiErrors,
        });
        if (stopped) {
          // An `always` step never changes where the run stopped.
          if (failedAt === undefined) delete ctx._failedAt;
          else ctx._failedAt = failedAt;
        } else if (outcome.stop) {
          stopped = true;
        }
      }
      return ctx;
    } finally {
      if (wired && channel.onEvent === sink) channel.onEvent = null;
      this.#running = false;
    }
  }

  /** Sets the per-run keys and removes what only described the previous run (decisions.md D311). */
  #prepare(rt: RuntimeLike, sink: EventSink | null, signal: AbortSignal | undefined): Ctx {
    const ctx = this.context;
    delete ctx._failedAt;
    delete ctx._aborted;
    delete ctx._lineage;
    delete ctx._woke;
    ctx._runtime = rt;
    ctx._onEvent = sink;
    // The runtime's language, not the process's: a runtime configured for Chinese gets Chinese messages.
    ctx._lang = rt.lang ?? 'en';
    ctx._channel = this.channel;
    ctx._workbench = this.workbench;
    if (signal === undefined) delete ctx._signal;
    else ctx._signal = signal;
    ctx._sessions ??= {};
    ctx._results ??= {};
    return ctx;
  }
}
