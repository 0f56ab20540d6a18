/**
 * One attempt of a step (docs/runtime.md): one SDK query, consumed to its end or to the first boundary where
 * it must stop. It never throws; what happened is left in the step's result. Query consumers must tolerate
 * several `result` messages and the throw that follows an error result (decisions.md D8): the result message
 * is the truth, the throw after it is not an error of its own. A stall watchdog sees every message
 * (decisions.md D6).
 *
 * @module
 */
import type { AgentBackend, AgentQuery } from '../agent/agent-backend.js';
import type { Options, SessionStore, SessionStoreEntry } from '../agent/claude-sdk.js';
import { credentialValues } from '../config/credentials.js';
import type { Env } from '../config/process-environment.js';
import type { FlowerEvent, ResultEvent } from '../events/flower-event.js';
import { normalize } from '../events/normalize.js';
import { StreamMeter } from '../events/stream-meter.js';
import type { CallRecorder } from '../guards/journal-hook.js';
import { errorText } from '../internal/error-text.js';
import type { FlowerSessionStore } from '../session/flower-session-store.js';
import { redactingStore } from '../session/redact-credentials.js';
import type { AttemptBudget } from './budget.js';
import { stepCostBy, storeKeyText } from './cost-breakdown.js';
import { savedCost } from './cost-ledger.js';
import { observeStore } from './observed-store.js';
import { StallWatchdog } from './stall-watchdog.js';
import { UnansweredCalls } from './unanswered-calls.js';
import { usageLimitInText, usageLimitOf } from './usage-limit.js';
import { FinalUsage } from './final-usage.js';
import { settlingStore } from './worker-fault.js';
import { errorOutcome, type EndedOutcome, type StepOutcome } from './step-outcome.js';
import type { StepRun } from './step-run.js';

/** What one attempt sends. */
export interface AttemptPlan {
  prompt: string;
  resume: string | null;
  fork: boolean;
  resumeAt: string | null;
  verbatim: boolean;
  budget: AttemptBudget;
  /** The workbench index goes after the prompt instead of before it (a handoff successor). */
  indexLast?: boolean;
}

/** What the runtime lends an attempt. */
export interface AttemptDeps {
  backend: AgentBackend;
  store: FlowerSessionStore;
  stallTimeoutS: number;
  /** The model the configuration asks for, to notice a gateway serving another one; null = no check. */
  wantedModel: string | null;
  /** This process's spend on earlier steps, for the `runUsd` of cost events. */
  runSpentBefore: number;
  /** SDK options for `plan`, with `sessionStore` as the store the SDK talks to. */
  options(plan: AttemptPlan, sessionStore: SessionStore): Options;
  /** The loaded configuration: its credential values never reach the store (a tool result may print them). */
  env?: Env | null;
  /** The tool journal, where a break writes the calls it cut off unanswered (docs/decisions.md D335); none: null. */
  journal?: CallRecorder | null;
  /**
   * Hears a transcript append the store refused: a full run directory stops the run there
   * (docs/decisions.md D350). None: null.
   */
  onWriteFailed?: ((error: unknown) => void) | null;
}

/** Runs one attempt of `run`; never throws. Returns how it ended, also left in `run.result.outcome`. */
export async function runAttempt(run: StepRun, plan: AttemptPlan, deps: AttemptDeps): Promise<EndedOutcome> {
  const { result, ledger } = run;
  const fresh = result.errors.length;
  const texts: string[] = [];
  const toolNames = new Map<string, string>();
  let lastContextMessage: string | null = null;
  let sawResult = false;
  let stalledFor: number | null = null;
  let interrupted = false;
  let handoffDue = false;
  run.record({ kind: 'unfinished' });
  run.usageLimit = null;
  run.clearWorkerFault();

  // The attempt's own controller: the watchdog aborts this query only; a run abort reaches it too.
  const controller = new AbortController();
  const onRunAbort = (): void => controller.abort(run.controller.signal.reason);
  if (run.aborted) controller.abort(run.controller.signal.reason);
  else run.controller.signal.addEventListener('abort', onRunAbort, { once: true });

  // Every change of the step's figure is written to the row and reported at once, so the screen moves with
  // each response (main thread and subagents alike) and always shows what the manifest records.
  const reportCost = (): void => {
    const before = result.costUsd;
    run.syncCost();
    run.emit({
      kind: 'cost',
      text: `$${result.costUsd.toFixed(4)}`,
      at: Date.now() / 1000,
      step: run.result.step,
      usd: Math.max(0, result.costUsd - before),
      stepUsd: result.costUsd,
      runUsd: deps.runSpentBefore + result.costUsd,
    });
  };

  ledger.beginQuery(0);
  // A worker cut off by the network leaves no API-error text in the store (docs/decisions.md D344).
  const settled = settlingStore(
    redactingStore(deps.store, credentialValues(deps.env ?? {})),
    run.faultedDispatches,
  );
  const store = observeStore(settled, {
    onAppendFailed(_key, error) {
      deps.onWriteFailed?.(error);
    },
    onAppend(key, entries) {
      run.attribution.add(storeKeyText(key), entries);
      result.costBy = stepCostBy(run.attribution.breakdown());
      let added = false;
      for (const entry of entries) added = ledger.noteStored(entry) || added;
      if (added) reportCost();
    },
    onLoad(key, entries) {
      // Loaded responses were paid for before; their dispatches still name the subagents that go on.
      run.attribution.load(storeKeyText(key), entries ?? []);
      if (key.sessionId !== plan.resume) return;
      ledger.noteLoaded(entries);
      if (key.subpath !== undefined) return;
      // The child restarts its running total from this transcript's last saved total.
      ledger.setBaseline(savedCost(entries));
      emitTrim(run, deps, key.sessionId, key);
    },
  });
  const watchdog = new StallWatchdog({
    timeoutS: deps.stallTimeoutS,
    onStall: (idleS) => {
      stalledFor = idleS;
      run.emit({
        kind: 'stall',
        at: Date.now() / 1000,
        step: run.result.step,
        idleS,
        sessionId: result.sessionId,
      });
      controller.abort();
    },
  });

  const onResult = (event: ResultEvent): void => {
    sawResult = true;
    run.noteSession(event.sessionId);
    ledger.noteResult(event.costUsd);
    result.numTurns += event.numTurns;
    run.record(resultOutcome(event, result.errors, plan.budget));
    reportCost();
  };

  const onEvent = (event: FlowerEvent): void => {
    if (event.kind === 'context') {
      // One API response may reach us as several messages with the same usage: count it once. A response
      // without an id cannot be matched, so each of its messages counts.
      const id = event.messageId ?? null;
      if (id !== null && id === lastContextMessage) return;
      lastContextMessage = id;
      result.context = Math.max(result.context, event.tokens);
      run.watermark = Math.max(run.watermark, event.tokens);
      if (run.handoff !== null && run.handoff.note(event.tokens) === 'near') emitNear(run, event.tokens);
      checkModel(run, deps, event.model ?? null);
    }
    if (event.kind === 'tool_call') toolNames.set(event.id, event.tool);
    // The cost event goes first: the result's own total is the session's lifetime spend when it was
    // resumed, so a renderer shows the step's figure from the cost event instead.
    if (event.kind === 'result') onResult(event);
    run.emit(event);
    if (event.kind === 'text' && !event.subagent) texts.push(event.text);
    else if (event.kind === 'error') result.errors.push(event.text);
  };

  const meter = new StreamMeter(Date.now, run.result.step);
  const unanswered = new UnansweredCalls();
  /** This query's streamed responses, by message id: an assistant message has a stored entry's shape. */
  const streamedAssistants = new Map<string, SessionStoreEntry>();
  const finalUsage = new FinalUsage();
  /**
   * Prices the whole answers this query streamed, once per message id, at their final usage (the streamed
   * copy carries the start's output count); an answer whose end never came is not priced.
   */
  const priceStreamed = (): void => {
    let priced = false;
    for (const streamedMessage of streamedAssistants.values()) {
      const whole = finalUsage.completed(streamedMessage);
      if (whole !== null) priced = ledger.noteStored(whole) || priced;
    }
    if (priced) reportCost();
  };
  let retried = false;
  let query: AgentQuery | null = null;
  // A worker cut off by the network ends the child before the coordinator's next request
  // (docs/decisions.md D344). Killed first: closing the query (or aborting it) cancels the hook that holds the
  // child back, and the child then sends that request before it exits — measured with the `refuse` fault of
  // `flower chaos`.
  run.stopAttempt = () => {
    try {
      if (run.childPid !== null) process.kill(run.childPid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    try {
      query?.close();
    } catch (error) {
      run.recordUiError('close', error);
    }
  };
  try {
    query = deps.backend.query(
      { prompt: plan.prompt, options: deps.options(plan, store) },
      controller.signal,
    );
    for await (const message of query) {
      watchdog.observe(message);
      // A stream delta is no message boundary: interrupts and events wait for the complete message.
      if (message.type === 'stream_event') {
        finalUsage.feed(message);
        const progress = meter.feed(message);
        if (progress !== null) run.emit(progress);
        continue;
      }
      run.noteSession((message as { session_id?: unknown }).session_id);
      unanswered.observe(message);
      // The limit's reset time comes only here (the error text that follows says it in words).
      run.usageLimit = usageLimitOf(message) ?? run.usageLimit;
      // A due handoff breaks at a message boundary (docs/runtime.md): in-flight subagents are lost, which the
      // headroom below the window is sized to absorb.
      // A result ends the turn anyway: let it through rather than hand off a finished step.
      if (run.handoff?.due === true && result.sessionId !== null && message.type !== 'result') {
        handoffDue = true;
        // The query closes before the store's mirror of the responses just streamed may arrive (it runs a
        // little behind): price them from the stream, once per message id, so the step's figure has them.
        priceStreamed();
        // Closing the query refuses a call the model just asked for before the gate (and its journal hook)
        // sees it, but the closing child may still show it to the model: journal it so no load loses it.
        if (deps.journal) await unanswered.journal(deps.journal, Date.now, deps.onWriteFailed ?? null);
        break;
      }
      if (run.interrupt !== null) {
        interrupted = true;
        if (deps.journal) await unanswered.journal(deps.journal, Date.now, deps.onWriteFailed ?? null);
        break;
      }
      // After a retry the child's total is no truth (docs/decisions.md D354): flower's own figure stands, so
      // it must hold the answers just streamed before the result settles it, though their mirror runs behind.
      if (isApiRetry(message)) {
        retried = true;
        ledger.noteRetry();
      }
      if (retried && message.type === 'result') priceStreamed();
      const streamed = streamedMessageId(message);
      if (streamed !== null) {
        ledger.noteStreamed(streamed);
        streamedAssistants.set(streamed, message);
      }
      // The UI shows how close the context is to the handoff.
      const policy = run.handoff?.policy;
      const contextLimits = policy === undefined ? null : { window: policy.window, threshold: policy.at };
      for (const event of normalize(message, { toolNames, step: run.result.step, contextLimits })) {
        onEvent(event);
      }
    }
  } catch (error) {
    // After an error result the SDK throws as well; the result already said what happened.
    if (!sawResult && stalledFor === null && !run.aborted) {
      run.record(errorOutcome(errorText(error)));
    }
  } finally {
    run.stopAttempt = null;
    watchdog.stop();
    run.controller.signal.removeEventListener('abort', onRunAbort);
    try {
      query?.close();
    } catch (error) {
      run.recordUiError('close', error);
    }
    if (run.workerFault !== null) priceStreamed();
    ledger.endQuery();
    result.costUsd = ledger.usd;
  }

  if (run.budgetHalted && run.budgetStop !== null && !run.aborted) {
    // The hard budget ended the turn before its next request: a budget stop, whatever the result said.
    run.record({ kind: 'budget', scope: run.budgetStop.scope });
  } else if (interrupted) {
    run.record({ kind: 'interrupted' });
  } else if (handoffDue) {
    run.record({ kind: 'handoff-due' });
  } else if (run.aborted && !result.ok) {
    run.record({ kind: 'killed' });
  } else if (run.workerFault !== null && !run.aborted) {
    // The hook stopped the turn on a worker cut off by the network: whatever the result said, the step is
    // not done, and the fault is one to wait out and resume (docs/decisions.md D344).
    const message = `a worker was cut off: ${run.workerFault}`;
    run.record({ kind: 'error', errorKind: 'transient', message });
    result.errors.push(message);
  } else if (stalledFor !== null && !result.ok) {
    // A stall is a transient error that counts as an attempt and is kept in `errors` (decisions.md D30).
    run.record({ kind: 'stalled', idleS: stalledFor });
    if (result.error !== null) result.errors.push(result.error);
  }
  if (run.usageLimit === null && !result.ok) {
    const resetsAt = usageLimitInText(result.error);
    if (resetsAt !== null) run.usageLimit = { resetsAt, limit: null };
  }
  const joined = texts.join('\n').trim();
  if (joined !== '') result.text = joined;
  if (result.outcome.kind !== 'unfinished') return result.outcome;
  // Neither a result nor a throw said why: the attempt's last recorded error is the best reason there is.
  const fallback = errorOutcome(
    result.errors.slice(fresh).at(-1) ?? result.errors.at(-1) ?? 'no result from the agent',
  );
  run.record(fallback);
  return fallback;
}

/** The outcome an SDK result message reports; a spent cap flower set is a budget stop, not an error. */
function resultOutcome(event: ResultEvent, errors: readonly string[], budget: AttemptBudget): StepOutcome {
  if (!event.isError) return { kind: 'ok' };
  if (event.subtype === 'error_max_budget_usd' && budget.kind === 'capped') {
    return { kind: 'budget', scope: budget.scope };
  }
  return errorOutcome(resultError(event, errors));
}

/** `<subtype>[ <status>]: <detail>` for an error result (decisions.md D302: never leave `error` empty). */
export function resultError(event: ResultEvent, errors: readonly string[]): string {
  const detail = event.errors.length > 0 ? event.errors.join('; ') : (errors.at(-1) ?? event.errorText ?? '');
  // An API failure ends with subtype "success" plus is_error; its terminal reason names it better.
  const label = event.subtype === 'success' ? event.terminalReason || 'api_error' : event.subtype;
  const apiStatus = event.apiErrorStatus ?? null;
  const status = apiStatus === null ? '' : ` ${apiStatus}`;
  return detail === '' ? `${label}${status}` : `${label}${status}: ${detail}`;
}

function emitNear(run: StepRun, tokens: number): void {
  const policy = run.handoff?.policy;
  if (policy === undefined) return;
  run.emit({
    kind: 'handoff',
    phase: 'near',
    at: Date.now() / 1000,
    step: run.result.step,
    context: tokens,
    window: policy.window,
    threshold: policy.at,
  });
}

function emitTrim(
  run: StepRun,
  deps: AttemptDeps,
  sessionId: string,
  key: Parameters<FlowerSessionStore['reportFor']>[0],
): void {
  const report = deps.store.reportFor(key);
  if (report === null) return;
  const { errors, ...counts } = report;
  if (errors.length === 0 && Object.values(counts).every((value) => value === 0)) return;
  run.emit({
    kind: 'trim',
    at: Date.now() / 1000,
    step: run.result.step,
    sessionId,
    report,
  });
}

// A gateway may serve another model than asked for; a `[1m]` model served as 200K overflowed at ~174K.
function checkModel(run: StepRun, deps: AttemptDeps, served: string | null): void {
  if (run.modelChecked || deps.wantedModel === null) return;
  if (served === null || served === '' || served === '<synthetic>') return;
  run.modelChecked = true;
  if (served.toLowerCase() === deps.wantedModel.toLowerCase()) return;
  run.emit({
    kind: 'warning',
    code: 'model_mismatch',
    detail: `want ${deps.wantedModel}, served ${served}`,
    model: { wanted: deps.wantedModel, served },
    at: Date.now() / 1000,
    step: run.result.step,
  });
}

function streamedMessageId(message: unknown): string | null {
  const fields = message as { type?: unknown; message?: { id?: unknown } };
  if (fields.type !== 'assistant') return null;
  const id = fields.message?.id;
  return typeof id === 'string' && id !== '' ? id : null;
}

/** True for the child's `api_retry` system message: a request of the query failed and is tried again. */
function isApiRetry(message: unknown): boolean {
  const fields = message as { type?: unknown; subtype?: unknown };
  return fields.type === 'system' && fields.subtype === 'api_retry';
}
