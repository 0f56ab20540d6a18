/**
 * The attempt loop of one step (docs/runtime.md): attempts until one succeeds, a human interrupt is answered,
 * or a failure may not be retried. A retry resumes the same session — never a fresh one — with a resume
 * prompt that carries no error detail; `resumeAt` applies to the first attempt only (decisions.md D304);
 * interrupts do not count as attempts; budgets are checked before every attempt. Every event emission is
 * guarded, so a broken sink cannot end the step (decisions.md D305).
 *
 * @module
 */
import type { Env } from '../config/process-environment.js';
import type { ErrorKind } from '../events/flower-event.js';
import { runAttempt, type AttemptPlan } from './attempt.js';
import { attemptBudget, projectedCrossing, type BudgetCaps, type BudgetScope } from './budget.js';
import type { BudgetGate } from '../guards/budget-guard.js';
import { interruptPrompt } from './interrupt-note.js';
import type { Resilience, WaitCheck, WaitNotice } from './resilience.js';
import { handOff, type HandoffDeps } from './handoff-turn.js';
import type { IndexRelay } from './index-relay.js';
import { isOverflow } from './overflow.js';
import { rememberOverflow } from './window-calibration.js';
import { diagnosedOutcome } from './step-outcome.js';
import type { StepRun } from './step-run.js';
import { clearParked, parkedText, readParked, writeParked } from './usage-limit.js';
import { clockTime } from '../config/format-elapsed.js';
import { uiText } from '../config/ui-text.js';

/** Where the step starts. */
export interface LoopStart {
  prompt: string;
  resume: string | null;
  fork: boolean;
  resumeAt: string | null;
  verbatim: boolean;
  /** The workbench index goes after the prompt, not before (a handoff successor reads its document first). */
  indexLast?: boolean;
}

/** What the loop needs beyond one attempt's needs. */
export interface LoopDeps extends HandoffDeps {
  resilience: Resilience;
  caps: BudgetCaps;
  /**
   * Puts the workbench index in front of the prompts that should carry it (decisions.md D20); null = none.
   */
  relay?: IndexRelay | null;
  /** For remembering a real overflow (the window self-calibration); null = do not remember. */
  env?: Env | null;
  /**
   * Where a usage-limit park is recorded (`<runDir>/parked.json`) and who records it; null = a usage limit
   * is an ordinary error.
   */
  parking?: { runDir: string; runId: string } | null;
}

/** Runs the attempts of `run` until it is done; never throws. `run.result` holds the outcome. */
export async function runLoop(run: StepRun, start: LoopStart, deps: LoopDeps): Promise<void> {
  const { result } = run;
  const { resilience } = deps;
  const signal = run.controller.signal;
  let plan: Omit<AttemptPlan, 'budget'> = { ...start };
  let attempt = 0;
  if (deps.caps.stepCapUsd !== null || deps.caps.runCapUsd !== null) run.budgetGate = budgetGate(run, deps);
  // A run parked by an earlier process (killed or rebooted during the wait) waits for the same reset time.
  const parked = deps.parking ? readParked(deps.parking.runDir) : null;
  if (parked !== null && deps.parking) {
    if (parked.resets_at > resilience.now()) {
      const limit = { resetsAt: parked.resets_at, limit: parked.limit };
      if (!(await park(run, deps, limit))) {
        run.record({ kind: 'killed' });
        return;
      }
    } else clearParked(deps.parking.runDir);
  }
  for (;;) {
    if (run.aborted) {
      run.record({ kind: 'killed' });
      return;
    }
    attempt++;
    result.attempts = attempt;
    const budget = attemptBudget(deps.caps, {
      stepUsd: result.costUsd,
      runUsd: deps.runSpentBefore + result.costUsd,
    });
    if (budget.kind === 'exhausted') {
      stopForBudget(run, budget.scope, budget.capUsd, budget.spentUsd);
      return;
    }
    const errorsBefore = result.errors.length;
    const sent = deps.relay?.prepare(plan) ?? plan;
    const outcome = await runAttempt(run, { ...sent, budget }, deps);
    deps.relay?.confirm(result.sessionId);
    // Something was spent or measured: the API answered, so a later outage is the network, not the address.
    if (result.ok || result.costUsd > 0 || result.context > 0) resilience.markReached();
    // Rolling back applies once: on a retry it would discard the work done since (decisions.md D304).
    plan = { ...plan, resumeAt: null };
    if (outcome.kind === 'ok' || outcome.kind === 'killed') return;

    if (outcome.kind === 'interrupted') {
      const pending = run.interrupt;
      run.interrupt = null;
      if (pending === null || result.sessionId === null) return;
      const words = await typedMessage(pending.message, signal);
      if (run.aborted) continue;
      run.emit({
        kind: 'retry',
        at: Date.now() / 1000,
        step: run.result.step,
        attempt,
        cause: 'interrupt',
        errorKind: null,
        delayS: 0,
        withMessage: words.trim() !== '',
      });
      plan = { ...plan, prompt: interruptPrompt(words), resume: result.sessionId, fork: false };
      result.resumed = true;
      attempt--;
      continue;
    }

    // A handoff (docs/runtime.md) starts a new session; it is not an attempt and spends no retry. Only this
    // attempt's errors count as an overflow: the reference once latched one transient overflow onto 86
    // unrelated failures by looking at all of them.
    const tooLong = isOverflow(result.error, ...result.errors.slice(errorsBefore));
    // Too long before the session said anything: the input itself does not fit (Claude Code refuses such a
    // first message locally). No handoff can help (there is nothing to hand over) and no retry either.
    if (tooLong && plan.resume === null && result.context === 0) {
      run.record(diagnosedOutcome({ kind: 'prompt-too-long', refusal: result.error ?? '' }));
      return;
    }
    const overflowed = run.handoff !== null && run.handoff.policy.enabled && tooLong;
    if (outcome.kind === 'handoff-due' || overflowed) {
      if (overflowed && deps.env) rememberSafely(run, deps.env);
      const handoff = await handOff(run, deps, {
        originalPrompt: start.prompt,
        forced: overflowed ? `context overflow: ${result.error ?? ''}` : null,
      });
      if (handoff.kind === 'stop') {
        run.record(handoff.outcome);
        return;
      }
      plan = { ...plan, prompt: handoff.prompt, resume: null, fork: false, verbatim: true, indexLast: true };
      attempt--;
      continue;
    }

    let kind: ErrorKind;
    let cause: 'stall' | 'error';
    switch (outcome.kind) {
      case 'budget': {
        const { scope } = outcome;
        const capUsd = (scope === 'run' ? deps.caps.runCapUsd : deps.caps.stepCapUsd) ?? 0;
        const spentUsd = scope === 'run' ? deps.runSpentBefore + result.costUsd : result.costUsd;
        emitBudget(run, scope, capUsd, spentUsd);
        return;
      }
      case 'stalled':
        // The watchdog's own verdict: the stream went silent, which waiting can fix.
        kind = 'transient';
        cause = 'stall';
        break;
      case 'error':
        kind = outcome.errorKind;
        cause = 'error';
        break;
      default:
        return outcome satisfies never;
    }
    // A usage limit with a known reset: wait for it instead of backing off into it, then resume the same
    // session once. The wait is no attempt. A reset already past is an ordinary error (no tight loop).
    const limit = run.usageLimit;
    run.usageLimit = null;
    if (limit !== null && resilience.enabled && deps.parking && limit.resetsAt > resilience.now()) {
      if (!(await park(run, deps, limit))) continue;
      if (result.sessionId !== null) {
        plan = { ...plan, prompt: resilience.resumePrompt, resume: result.sessionId, fork: false };
        result.resumed = true;
      }
      attempt--;
      continue;
    }
    const error = result.error ?? '';
    if (!resilience.enabled || attempt >= resilience.maxAttempts || !resilience.shouldRetry(kind)) return;
    const delayS = resilience.delayFor(attempt);
    run.emit({
      kind: 'retry',
      at: Date.now() / 1000,
      step: run.result.step,
      attempt,
      cause,
      errorKind: kind,
      delayS,
      reason: error,
      maxAttempts: resilience.maxAttempts,
    });
    const neverReached = !resilience.reached;
    const online = await resilience.waitOnline((notice) => emitWait(run, notice), {
      signal,
      neverReached,
      onCheck: (check) => emitWaiting(run, check),
    });
    if (!online) {
      if (run.aborted) continue;
      const limit = resilience.offlineLimit(neverReached);
      run.record(diagnosedOutcome({ kind: 'offline', error, waitS: limit, neverReached }, kind));
      return;
    }
    if (!(await resilience.sleep(delayS, signal))) continue;
    if (result.sessionId !== null) {
      // The same session, never a fresh one; the prompt deliberately says nothing about the error.
      plan = { ...plan, prompt: resilience.resumePrompt, resume: result.sessionId, fork: false };
      result.resumed = true;
    }
  }
}

/**
 * Parks the step until `limit.resetsAt`: records it in `parked.json` first (a kill during the wait keeps the
 * time), says so in one countdown line, sends nothing until then, and removes the record when the time has
 * come. False when the wait was aborted (Ctrl-C, a signal): the record stays for the next run.
 */
async function park(
  run: StepRun,
  deps: LoopDeps,
  limit: { resetsAt: number; limit: string | null },
): Promise<boolean> {
  const parking = deps.parking;
  if (!parking) return true;
  const { resilience } = deps;
  const now = resilience.now();
  try {
    writeParked(parking.runDir, parking.runId, {
      resets_at: limit.resetsAt,
      since: now,
      step: run.result.step,
      session_id: run.result.sessionId,
      limit: limit.limit,
    });
  } catch (error) {
    run.recordUiError('parked.json', error);
  }
  const event = {
    kind: 'usage_limit',
    at: Date.now() / 1000,
    step: run.result.step,
    resetsAt: limit.resetsAt,
    limit: limit.limit,
    sessionId: run.result.sessionId,
  } as const;
  run.emit({ ...event, phase: 'parked', text: parkedText(limit.resetsAt, now, run.lang) });
  if (!(await resilience.sleep(limit.resetsAt - now, run.controller.signal))) return false;
  clearParked(parking.runDir);
  run.emit({
    ...event,
    at: Date.now() / 1000,
    phase: 'resumed',
    text: uiText('rt.parkedResume', { at: clockTime(limit.resetsAt) }, run.lang),
  });
  return true;
}

/** Lowers the learned window to the context that overflowed; a failure to write it is only recorded. */
function rememberSafely(run: StepRun, env: Env): void {
  try {
    if (run.handoff !== null && run.handoff.value > 0) rememberOverflow(run.handoff.value, { env });
  } catch (error) {
    run.recordUiError('window calibration', error);
  }
}

/**
 * The hard budget: closed once the spend so far plus the next turn's estimate (the step's costliest
 * response) crosses a cap, and closed for the rest of the step from then on.
 */
function budgetGate(run: StepRun, deps: LoopDeps): BudgetGate {
  return {
    closed(toolUseId) {
      if (run.budgetStop === null) {
        const { ledger } = run;
        // The response asking for this tool may not have reached the store yet: then it counts as a turn.
        const unpriced = toolUseId !== undefined && toolUseId !== '' && !ledger.hasPriced(toolUseId);
        const stepUsd = ledger.usd + (unpriced ? ledger.nextTurnUsd : 0);
        const crossing = projectedCrossing(
          deps.caps,
          { stepUsd, runUsd: deps.runSpentBefore + stepUsd },
          ledger.nextTurnUsd,
        );
        if (crossing === null) return null;
        const vars = {
          cap: crossing.capUsd.toFixed(2),
          spent: crossing.spentUsd.toFixed(4),
          projected: crossing.projectedUsd.toFixed(4),
        };
        const key = crossing.scope === 'run' ? 'rt.budget.gateRun' : 'rt.budget.gateStep';
        run.budgetStop = { ...crossing, reason: uiText(key, vars, run.lang) };
      }
      return { reason: run.budgetStop.reason };
    },
    stopMainThread() {
      run.budgetHalted = true;
    },
  };
}

/** The step ends before spending: a cap is used up. */
function stopForBudget(run: StepRun, scope: BudgetScope, capUsd: number, spentUsd: number): void {
  run.record({ kind: 'budget', scope });
  emitBudget(run, scope, capUsd, spentUsd);
}

function emitBudget(run: StepRun, scope: BudgetScope, capUsd: number, spentUsd: number): void {
  run.result.budgetStop = { scope, capUsd, spentUsd };
  run.emit({
    kind: 'budget',
    at: Date.now() / 1000,
    step: run.result.step,
    scope,
    capUsd,
    spentUsd,
  });
}

/** The countdown line of a wait, after each failed probe. */
function emitWaiting(run: StepRun, check: WaitCheck): void {
  run.emit({
    kind: 'waiting',
    at: Date.now() / 1000,
    step: run.result.step,
    host: check.host,
    port: check.port,
    waitedS: check.waitedS,
    nextCheckS: check.nextCheckS,
  });
}

function emitWait(run: StepRun, notice: WaitNotice): void {
  const at = Date.now() / 1000;
  if (notice.state === 'unreachable') {
    run.emit({
      kind: 'wait',
      at,
      step: run.result.step,
      host: notice.host,
      port: notice.port,
      maxWaitS: notice.maxWaitS,
      neverReached: notice.neverReached === true,
    });
  } else {
    run.emit({
      kind: 'recovered',
      at,
      step: run.result.step,
      host: notice.host,
      port: notice.port,
      waitedS: notice.waitedS,
    });
  }
}

/** The interrupt message once typed; a failed or rejected one, or an abort meanwhile, counts as nothing said. */
async function typedMessage(message: string | PromiseLike<string>, signal: AbortSignal): Promise<string> {
  if (typeof message === 'string') return message;
  let onAbort = (): void => undefined;
  const aborted = new Promise<string>((resolve) => {
    onAbort = () => resolve('');
    if (signal.aborted) resolve('');
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const words = await Promise.race([Promise.resolve(message), aborted]);
    return typeof words === 'string' ? words : '';
  } catch {
    return '';
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
