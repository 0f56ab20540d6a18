/**
 * `describeEvent()`: the one place where the runtime's own notices (retries, network waits, stalls, budget
 * stops, handoff lines, trim reports, warnings) get their display line. The attempt loop builds each notice
 * with the figures it knows — never with words — and the step's exit (`StepRun.emit`) describes it in the
 * runtime's language before the caller's sink sees it, so no dependency bag of the loop carries a language
 * (docs/decisions.md D322).
 *
 * @module
 */
import { humanDuration, uiText, type Lang } from '../config/ui-text.js';
import type {
  BudgetEvent,
  FlowerEvent,
  HandoffEvent,
  RecoveredEvent,
  RetryEvent,
  StallEvent,
  TrimEvent,
  WaitEvent,
  WaitingEvent,
  WarningEvent,
} from '../events/flower-event.js';
import { trimReport } from '../session/trim-report.js';
import { waitCheckText, waitNoticeText } from './resilience.js';

/** How much of an error the retry line shows. */
const RETRY_REASON_CHARS = 100;

/** The warnings the runtime itself gives. */
export type RuntimeWarningCode =
  'model_mismatch' | 'shell_not_sandboxed' | 'owned_env_ignored' | 'resume_args_ignored';

/** A warning the runtime gives, before its display line is written. */
export type RuntimeWarning = Omit<WarningEvent, 'text' | 'code'> & { code: RuntimeWarningCode };

/** An event the runtime makes, before its display line is written: the event without `text`. */
export type RuntimeNotice =
  | Omit<RetryEvent, 'text'>
  | Omit<WaitEvent, 'text'>
  | Omit<WaitingEvent, 'text'>
  | Omit<RecoveredEvent, 'text'>
  | Omit<StallEvent, 'text'>
  | Omit<BudgetEvent, 'text'>
  | Omit<TrimEvent, 'text'>
  | (Omit<HandoffEvent, 'text' | 'phase'> & { phase: 'near' | 'writing' })
  | RuntimeWarning;

/** What a step emits: a complete event (from the SDK, a guard, a hook) or a runtime notice to describe. */
export type Emitted = FlowerEvent | RuntimeNotice;

/** True when `emitted` is a notice still without its display line. */
export function isNotice(emitted: Emitted): emitted is RuntimeNotice {
  return !('text' in emitted);
}

/** `notice` as a complete event, its `text` the display line in `lang`. */
export function describeEvent(notice: RuntimeNotice, lang: Lang): FlowerEvent {
  switch (notice.kind) {
    case 'retry':
      return { ...notice, text: retryLine(notice, lang) };
    case 'wait':
      return {
        ...notice,
        text: waitNoticeText({ ...notice, state: 'unreachable', waitedS: 0 }, lang),
      };
    case 'recovered':
      return { ...notice, text: waitNoticeText({ ...notice, state: 'back', maxWaitS: 0 }, lang) };
    case 'waiting':
      return { ...notice, text: waitCheckText(notice, lang) };
    case 'stall':
      return { ...notice, text: uiText('rt.stall', { idle: humanDuration(notice.idleS, lang) }, lang) };
    case 'budget': {
      const key = notice.scope === 'run' ? 'rt.budget.run' : 'rt.budget.step';
      const vars = { cap: notice.capUsd.toFixed(2), spent: notice.spentUsd.toFixed(4) };
      return { ...notice, text: uiText(key, vars, lang) };
    }
    case 'trim':
      return { ...notice, text: trimReport(notice.report, lang) };
    case 'handoff':
      return { ...notice, text: handoffLine(notice, lang) };
    case 'warning':
      return { ...notice, text: warningLine(notice, lang) };
    default:
      return notice satisfies never;
  }
}

function retryLine(notice: Omit<RetryEvent, 'text'>, lang: Lang): string {
  if (notice.cause === 'interrupt') {
    return uiText(notice.withMessage === true ? 'int.resumeSaid' : 'int.resume', {}, lang);
  }
  const vars = {
    n: notice.attempt,
    kind: notice.errorKind ?? 'unknown',
    why: firstWords(notice.reason ?? ''),
    next: notice.attempt + 1,
    max: notice.maxAttempts ?? notice.attempt + 1,
    delay: humanDuration(notice.delayS, lang),
  };
  return uiText('rt.retry', vars, lang);
}

function handoffLine(notice: Extract<RuntimeNotice, { kind: 'handoff' }>, lang: Lang): string {
  const window = Math.round(notice.window / 1000);
  if (notice.phase === 'writing') {
    return uiText('ho.writing', { ctx: (notice.context / 1000).toFixed(1), win: window }, lang);
  }
  const vars = {
    ctx: Math.round(notice.context / 1000),
    win: window,
    at: Math.round(notice.threshold / 1000),
  };
  return uiText('ho.near', vars, lang);
}

function warningLine(notice: RuntimeWarning, lang: Lang): string {
  switch (notice.code) {
    case 'model_mismatch': {
      const { wanted, served } = notice.model ?? { wanted: '', served: notice.detail };
      return uiText('rt.modelMismatch', { want: wanted, served }, lang);
    }
    case 'shell_not_sandboxed':
      return uiText('warn.noSandbox', { reason: notice.detail }, lang);
    case 'owned_env_ignored':
      return uiText('warn.ownedEnv', { keys: notice.detail }, lang);
    case 'resume_args_ignored':
      return uiText('warn.resumeArgs', { keys: notice.detail }, lang);
    default:
      return notice.code satisfies never;
  }
}

/** The error's first line, short enough for the one retry line (the whole text is in the manifest). */
function firstWords(error: string): string {
  const line = error.trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > RETRY_REASON_CHARS ? `${line.slice(0, RETRY_REASON_CHARS - 1)}…` : line;
}
