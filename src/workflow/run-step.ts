/**
 * One step of a workflow run (docs/workflows.md): pick the session to start from, run the attempts
 * with their labels, ask the gate once per successful attempt, feed a rejection back into the rejected
 * session, then record the result and write the step's context value. The Workflow class only loops.
 *
 * @module
 */
import { uiText } from '../config/ui-text.js';
import { FlowerError } from '../errors.js';
import type { EventSink } from '../events/flower-event.js';
import { errorText } from '../internal/error-text.js';
import type { RunOptions } from '../runtime/runtime-options.js';
import type { StepResult } from '../runtime/step-result.js';
import { finishedRound, interruptedRound } from './interrupted-round.js';
import type { Continuity } from './continuity.js';
import type { RuntimeLike } from './runtime-like.js';
import { isStepAbort } from './step-abort.js';
import { attemptLabel } from './step-names.js';
import { contextLang, type Ctx, type Step } from './step.js';
import { renderStep } from './render-step.js';
import { handoffEdited, sha256Of } from '../runtime/handoff-files.js';
import { readFileSync } from 'node:fs';
import { stepEndEvent, stepEvent, warningEvent } from './workflow-events.js';

/** Everything a step needs from the surrounding run. */
export interface SurroundingRun {
  readonly rt: RuntimeLike;
  readonly ctx: Ctx;
  /** The guarded sink (null when nobody listens); every event goes through it. */
  readonly sink: EventSink | null;
  readonly continuity: Continuity | null;
  /** 1-based position and the number of steps, for the header. */
  readonly index: number;
  readonly total: number;
  readonly signal: AbortSignal | undefined;
  readonly onStep: ((s: Step, r: StepResult) => void) | undefined;
  /** Steps whose context value this workflow wrote; only those are removed again when a rerun fails. */
  readonly written: Set<string>;
  readonly uiErrors: string[];
}

/** How a step ended: accepted or not, and whether the workflow must stop here. */
export interface StepDecision {
  readonly passed: boolean;
  readonly stop: boolean;
}

interface Start {
  readonly prompt: string;
  readonly resume: string | null;
  readonly fork: boolean;
}

/** Runs `s` to the end of its attempts and applies its outcome to the context. */
export async function runStep(s: Step, run: SurroundingRun): Promise<StepDecision> {
  const { ctx, sink } = run;
  const name = s.name;
  const tally = { attempts: 0, costUsd: 0 };
  let result: StepResult | null = null;
  try {
    const sessions = (ctx._sessions ??= {});
    const carried = s.resumeFrom || s.fresh === true ? null : (run.continuity?.carry.get(name) ?? null);
    const rendered = await renderStep(s, ctx, { resuming: carried !== null });
    const initial: Start = {
      prompt: carried === null ? rendered : withEditedHandoff(name, rendered, run),
      resume: s.resumeFrom ? sourceSession(s, sessions, s.resumeFrom, ctx) : carried,
      fork: s.fork ?? false,
    };
    const woke = ctx._woke ?? 1;
    const retries = s.retries ?? 0;
    // A killed process's round is picked up where it was cut off (decisions.md D333): its labels, and a
    // finished round whose judge was cut off is judged again rather than worked again.
    const cut =
      carried !== null && typeof s.onReject === 'function' && run.rt.runDir !== undefined
        ? interruptedRound(run.rt.runDir, name, retries + 1)
        : null;
    const first = cut === null ? 0 : cut.round - 1;
    let current = initial;
    let passed = false;
    let aborted: string | null = null;
    for (let attempt = first; attempt <= first + retries; attempt++) {
      if (attempt > first && run.signal?.aborted === true) break;
      const label = attemptLabel(name, attempt, typeof s.onReject === 'function');
      const judgeOnly = attempt === first && cut?.finished != null;
      const resumed = carried !== null && current === initial;
      if (!judgeOnly) sink?.(stepEvent(label, { index: run.index, total: run.total, resumed, woke }));
      const goneSession = attempt === first ? run.continuity?.gone.get(name) : undefined;
      if (goneSession !== undefined && initial.resume === null) {
        const text = uiText('step.sessionMissing', { step: name, session: goneSession }, contextLang(ctx));
        sink?.(warningEvent('session_missing', text, name));
      }
      if (judgeOnly && cut?.finished != null) {
        result = finishedRound(cut.finished);
      } else {
        tally.attempts++;
        result = await runWithLineage(s, label, current, run);
        tally.costUsd += result.costUsd;
      }
      if (result.outcome.kind === 'killed' || run.signal?.aborted === true) break;
      try {
        // Exactly once per successful attempt, never after a failed one: gates may freeze files.
        passed = result.ok && (typeof s.gate !== 'function' || (await s.gate(result, ctx)) === true);
        if (passed || attempt === first + retries) break;
        current = await nextStart(s, result, initial, ctx);
      } catch (error) {
        if (!isStepAbort(error)) throw error;
        aborted = error.message;
        ctx._aborted = aborted;
        break;
      }
    }
    if (result === null) throw new Error(`step '${name}' ran no attempt`);
    return await concludeStep(s, result, passed, aborted, tally, run);
  } catch (error) {
    sink?.(
      stepEndEvent(name, {
        ok: false,
        error: errorText(error),
        costUsd: tally.costUsd,
        attempts: tally.attempts,
      }),
    );
    throw error;
  }
}

/** The session `s` resumes from its `resumeFrom` step; a missing one is a mistake in the workflow. */
function sourceSession(s: Step, sessions: Record<string, string>, from: string, ctx: Ctx): string {
  const sessionId = sessions[from];
  if (sessionId === undefined || sessionId === '') {
    const text = uiText('step.noResumeSource', { step: s.name, from }, contextLang(ctx));
    throw new FlowerError('MISSING_SESSION', text);
  }
  return sessionId;
}

/**
 * Where the attempt after a failed one starts. After a gate rejection with `onReject` and a session: the
 * rejected session, resumed (not forked) with the feedback as prompt. Otherwise — no `onReject`, an empty
 * reply, no session, or a failed run — the step starts over as its first attempt did.
 */
async function nextStart(s: Step, result: StepResult, initial: Start, ctx: Ctx): Promise<Start> {
  if (typeof s.onReject !== 'function' || !result.ok || result.sessionId === null) return initial;
  const reply = await s.onReject(result, ctx);
  if (typeof reply !== 'string' || reply.trim() === '') return initial;
  return { prompt: reply, resume: result.sessionId, fork: false };
}

/**
 * One `rt.run` with the lineage hooks, passed as this run's options in front of the runtime's own callbacks
 * (read when called). Per run, so only the step's own run is remembered: a gate's judge runs on the same
 * runtime without them, and the runtime's public fields are never swapped.
 */
async function runWithLineage(
  s: Step,
  label: string,
  start: Start,
  run: SurroundingRun,
): Promise<StepResult> {
  const { rt, continuity } = run;
  const hooks: Pick<RunOptions, 'onSession' | 'onHandoff'> = {};
  if (continuity !== null) {
    hooks.onSession = (sessionId: string): void => {
      try {
        continuity.lineage.remember(s.name, sessionId);
      } catch (error) {
        run.uiErrors.push(`lineage: ${errorText(error)}`);
      }
      rt.onSession?.(sessionId);
    };
    // A runtime without handoff never calls it, so nothing is recorded for one that has no such hook.
    if (rt.onHandoff !== undefined) {
      hooks.onHandoff = (stepName: string, path: string, sha256: string): void => {
        try {
          continuity.lineage.recordHandoff(s.name, path, sha256);
        } catch (error) {
          run.uiErrors.push(`lineage: ${errorText(error)}`);
        }
        rt.onHandoff?.(stepName, path, sha256);
      };
    }
  }
  return await rt.run(s.spec, start.prompt, {
    stepName: label,
    resume: start.resume,
    fork: start.resume !== null && start.fork,
    onEvent: run.sink,
    verbatim: s.verbatim ?? false,
    ...hooks,
    ...(run.signal === undefined ? {} : { signal: run.signal }),
  });
}

/** Records the final result, tells `onStep`, and writes (or withholds) the step's context value. */
async function concludeStep(
  s: Step,
  result: StepResult,
  passed: boolean,
  aborted: string | null,
  tally: { attempts: number; costUsd: number },
  run: SurroundingRun,
): Promise<StepDecision> {
  const { ctx } = run;
  const name = s.name;
  (ctx._results ??= {})[name] = result;
  if (result.sessionId !== null && result.sessionId !== '') {
    (ctx._sessions ??= {})[name] = result.sessionId;
    run.continuity?.lineage.remember(name, result.sessionId);
  }
  try {
    run.onStep?.(s, result);
  } catch (error) {
    run.uiErrors.push(`onStep(${name}): ${errorText(error)}`);
  }
  const killed = result.outcome.kind === 'killed' || run.signal?.aborted === true;
  const onFail = s.onFail ?? 'stop';
  if (passed) {
    ctx[name] = typeof s.reduce === 'function' ? await s.reduce(result, ctx) : result.text;
    run.written.add(name);
  } else if (onFail === 'continue' && !killed) {
    // Not reduced: reduce may assume an accepted result.
    ctx[name] = result.text;
    run.written.add(name);
  } else if (run.written.has(name)) {
    // What an earlier run of this workflow wrote must not pass for this run's output.
    delete ctx[name];
    run.written.delete(name);
  }
  const stop = !passed && (killed || onFail === 'stop');
  if (stop) ctx._failedAt = name;
  const error = passed ? null : (aborted ?? result.error ?? 'rejected by the gate');
  run.sink?.(stepEndEvent(name, { ok: passed, error, ...tally }));
  return { passed, stop };
}

/**
 * decisions.md D23: a human's edit to a handoff document steers the run. When the session that took over is
 * resumed and its handoff file no longer has the hash recorded when flower wrote it, the resume prompt says
 * so (re-read it; the edited version prevails), one line goes to the screen, and the new hash is recorded
 * so the note is given once per edit.
 */
function withEditedHandoff(name: string, prompt: string, run: SurroundingRun): string {
  const lineage = run.continuity?.lineage;
  const recorded = lineage?.handoffHash(name) ?? null;
  if (lineage === undefined || recorded === null || !handoffEdited(recorded.path, recorded.sha256))
    return prompt;
  try {
    lineage.recordHandoff(name, recorded.path, sha256Of(readFileSync(recorded.path)));
  } catch (error) {
    run.uiErrors.push(`lineage: ${errorText(error)}`);
  }
  run.sink?.({
    kind: 'handoff',
    phase: 'edited',
    text: uiText('ho.edited', { path: recorded.path }, contextLang(run.ctx)),
    at: Date.now() / 1000,
    step: name,
    context: 0,
    window: 0,
    threshold: 0,
    path: recorded.path,
  });
  return (
    `A human edited the handoff document ${recorded.path} after it was written. Re-read it before you go ` +
    `on: where it differs from what you remember, the edited version prevails.\n\n${prompt}`
  );
}
