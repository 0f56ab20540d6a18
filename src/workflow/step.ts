/**
 * `Step`: one agent run inside a workflow, with the rules that decide whether it runs, whether its result
 * is accepted, how often it is rerun and what it leaves in the shared context (docs/workflows.md). `step()`
 * builds one with the defaults filled in and checks the values a typo would get wrong.
 *
 * @module
 */
import type { AgentSpec } from '../agent/agent-spec.js';
import type { Lang } from '../config/ui-text.js';
import type { EventSink } from '../events/flower-event.js';
import type { HumanChannel } from '../human/human-channel.js';
import type { Brief } from '../roles/brief.js';
import type { Goal } from '../roles/goal.js';
import type { Verdict } from '../roles/verdict.js';
import type { Lineage } from '../runtime/lineage.js';
import type { StepResult } from '../runtime/step-result.js';
import type { Workbench } from '../workbench/workbench.js';
import type { CheckRecord } from '../runtime/check-record.js';
import type { RuntimeLike } from './runtime-like.js';

/**
 * The framework's own state in a workflow's context, typed: what a step or gate reads here needs no
 * `instanceof` or cast (`ctx._brief?.goal`, `ctx._verdict?.feedback()`). The keys begin with `_` so they
 * never collide with a step's name (step names may not begin with `_`); everything else in the context is a
 * user value (step outputs and the caller's own keys, `unknown`). Never written to disk.
 */
export interface WorkflowKeys {
  /** The runtime the workflow runs on; gates use it to run a judge. */
  _runtime: RuntimeLike;
  /** The workflow's guarded event sink (or null), for gates that run agents of their own. */
  _onEvent: EventSink | null;
  /** The latest session id of every step, by base name; kept across runs of the same object. */
  _sessions: Record<string, string>;
  /** The last result of every step that ran, by base name. */
  _results: Record<string, StepResult>;
  /** The lineage of this run directory, when the workflow is continuous. */
  _lineage: Lineage;
  /** Which run of this workspace this is: 1 on the first, 2 after one wake, and so on. */
  _woke: number;
  /** The step the workflow stopped at; absent when the run succeeded. Cleared at the start of each run. */
  _failedAt: string;
  /** The message of a `StepAbort`; cleared at the start of each run. */
  _aborted: string;
  /** The brief written (or read back) by the clarify step. */
  _brief: Brief;
  /** Display names of the brief sections still missing after a rejected clarification. */
  _briefMissing: string[];
  /** The goal written (or read back) by the goal step. */
  _goal: Goal;
  /** The judge's last verdict. */
  _verdict: Verdict;
  /** How many judge rounds have run. */
  _goalRounds: number;
  /** What flower found running the goal's checks in the last judged round (docs/goal-checks.md). */
  _checks: CheckRecord;
  /** The run's abort signal, for gates that run agents or ask a human of their own. */
  _signal: AbortSignal;
  /** The language of the workflow's messages: the runtime's (its configuration's); set at the start of each run. */
  _lang: Lang;
  /** The workflow's human channel, or null; set at the start of each run. */
  _channel: HumanChannel | null;
  /** The workflow's own workbench, or null; set at the start of each run. */
  _workbench: Workbench | null;
}

/** A workflow's shared context: step outputs by step name, the caller's own keys, and {@link WorkflowKeys}. */
export type Ctx = Record<string, unknown> & Partial<WorkflowKeys>;

/** The language of the workflow's messages: the one its run set in the context, English outside a run. */
export function contextLang(ctx: Ctx): Lang {
  return ctx._lang ?? 'en';
}

/** A value computed from the context, synchronously or not. */
export type StepFunction<T> = (ctx: Ctx) => T | Promise<T>;

/** What the workflow does after a step failed: stop there, go on without its output, or go on with it. */
export type OnFail = 'stop' | 'skip' | 'continue';

/** One step of a {@link Workflow}. Never mutated by the workflow. */
export interface Step {
  /** Base name: the context key of its output, the lineage key and the manifest label of attempt 1. */
  readonly name: string;
  /** The agent that runs it. */
  readonly spec: AgentSpec;
  /** The prompt, or a function of the context that returns it. */
  readonly prompt: string | StepFunction<string>;
  /** Resume (or, with `fork`, branch from) the session of this earlier step instead of starting fresh. */
  readonly resumeFrom?: string | null;
  /** With `resumeFrom`: branch into a new session, leaving the earlier one untouched. */
  readonly fork?: boolean;
  /** Reruns after a failed or rejected attempt; 0 = one attempt. */
  readonly retries?: number;
  /** Accepts or rejects a successful attempt; called exactly once per successful attempt. */
  readonly gate?: ((result: StepResult, ctx: Ctx) => boolean | Promise<boolean>) | null;
  /** What a failure means for the rest of the workflow; `'stop'` by default. */
  readonly onFail?: OnFail;
  /** Run only when this returns true; a skipped step leaves no event and no result. */
  readonly when?: StepFunction<boolean> | null;
  /**
   * After the gate rejected an attempt: the prompt that resumes the rejected session for the next one
   * (feedback on what is still missing). An empty reply starts the next attempt from scratch.
   */
  readonly onReject?: ((result: StepResult, ctx: Ctx) => string | Promise<string>) | null;
  /** The prompt used instead of `prompt` when the step resumes its own session from an earlier run. */
  readonly resumePrompt?: string | StepFunction<string> | null;
  /** Turns an accepted result into the step's context value; the result's text by default. */
  readonly reduce?: ((result: StepResult, ctx: Ctx) => string | Promise<string>) | null;
  /** Send the prompt verbatim: no slash commands, no `@path` expansion (decisions.md D11). */
  readonly verbatim?: boolean;
  /**
   * Always start a new session: a session this step left in lineage is never resumed. For judges (the goal
   * setter), which must not remember earlier work, and for steps whose prompt carries all they need.
   */
  readonly fresh?: boolean;
  /**
   * Run even after an earlier step stopped the workflow (the run still counts as failed there): for a
   * finishing step such as the bequest, whose note matters most when the goal was not reached.
   */
  readonly always?: boolean;
}

const ON_FAIL: readonly OnFail[] = ['stop', 'skip', 'continue'];

/** All parameters of {@link step} in one object: the step's name, agent and prompt, and any other field of a {@link Step}. */
export type StepParameters = Pick<Step, 'name' | 'spec' | 'prompt'> & Partial<Step>;

/**
 * Builds a {@link Step} from one object (the preferred form): every option not given is at its default
 * (`retries: 0`, `onFail: 'stop'`, no gate). Throws a `TypeError` naming the step when a value cannot work.
 *
 * @example step({ name: 'work', spec: lead, prompt: 'Fix the failing tests.', retries: 1 })
 */
export function step(parameters: StepParameters): Step;
/**
 * Builds a {@link Step} with every option at its default (`retries: 0`, `onFail: 'stop'`, no gate) and
 * `extra` on top. The positional form of the public API; `step({ name, spec, prompt, ... })` is the same.
 */
export function step(name: string, spec: AgentSpec, prompt: Step['prompt'], extra?: Partial<Step>): Step;
export function step(
  first: string | StepParameters,
  spec?: AgentSpec,
  prompt?: Step['prompt'],
  extra: Partial<Step> = {},
): Step {
  if (typeof first === 'object' && first !== null) {
    const { name, spec: agent, prompt: text, ...rest } = first;
    return step(name, agent, text, rest);
  }
  // Whatever is missing or wrong here, checkStep names it.
  const name = first;
  const built: Step = {
    resumeFrom: null,
    fork: false,
    retries: 0,
    gate: null,
    onFail: 'stop',
    when: null,
    onReject: null,
    resumePrompt: null,
    reduce: null,
    verbatim: false,
    ...extra,
    name,
    spec: spec as AgentSpec,
    prompt: prompt as Step['prompt'],
  };
  checkStep(built);
  return built;
}

/**
 * Throws a one-line `TypeError` when `candidate` cannot be run: a name that is empty, begins with `_`
 * (framework keys) or contains `#` or `/` (attempt and judge labels), a missing spec or prompt, a bad
 * `retries` or `onFail`.
 */
export function checkStep(candidate: Step): void {
  const name: unknown = candidate.name;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new TypeError('A workflow step needs a non-empty name.');
  }
  const label = `Step '${name}'`;
  if (name.startsWith('_') || /[#/]/.test(name)) {
    throw new TypeError(
      `${label}: a step name may not begin with '_' or contain '#' or '/' (reserved for framework keys and attempt labels).`,
    );
  }
  if (typeof candidate.spec !== 'object' || candidate.spec === null) {
    throw new TypeError(`${label} has no agent spec; build one with agentSpec({ name, instructions }).`);
  }
  if (typeof candidate.prompt !== 'string' && typeof candidate.prompt !== 'function') {
    throw new TypeError(`${label}: prompt must be a string or a function of the context.`);
  }
  const retries = candidate.retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new TypeError(`${label}: retries must be a whole number of 0 or more (got ${String(retries)}).`);
  }
  const onFail = candidate.onFail ?? 'stop';
  if (!ON_FAIL.includes(onFail)) {
    throw new TypeError(
      `${label}: onFail must be 'stop', 'skip' or 'continue' (got ${JSON.stringify(onFail)}).`,
    );
  }
}
