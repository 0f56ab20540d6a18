/**
 * Parking through a usage limit (docs/resilience.md, decisions.md D323): when the API says a subscription's
 * limit is reached and when it resets, the run waits until then — recorded in `<runDir>/parked.json`, so a
 * kill or a reboot during the wait keeps waiting for the same time — and then resumes the same session once,
 * instead of failing or backing off into the limit again and again.
 *
 * What reaches flower (measured with the bundled Claude Code against the fake API): with a subscription's
 * OAuth token, a 429 whose `anthropic-ratelimit-unified-status` is `rejected` and whose
 * `anthropic-ratelimit-unified-reset` holds epoch seconds yields an SDK `rate_limit_event` with
 * `rate_limit_info: {status: 'rejected', resetsAt, rateLimitType}`, then a synthetic assistant message
 * ("You've hit your 5-hour limit · resets 7:11am (UTC)") and an error result. With an API key the child
 * shows neither the headers nor `retry-after`: only "API Error: Request rejected (429) · <message>", which
 * keeps the ordinary backoff. Older Claude Code versions said `Claude AI usage limit reached|<epoch>`; that
 * form is read too.
 *
 * @module
 */
import { existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { clockTime, formatElapsed } from '../config/format-elapsed.js';
import { uiText, type Lang } from '../config/ui-text.js';
import { isRecord } from '../internal/is-record.js';
import { LockedJsonFile } from '../internal/locked-json-file.js';

/** The park record's file name inside the run directory. */
export const PARKED_FILE = 'parked.json';

/** A run waiting for a usage limit to reset, as `parked.json` holds it. */
export interface ParkedState {
  /** When the limit resets: epoch seconds. No request is sent before. */
  resets_at: number;
  /** When the run parked: epoch seconds. */
  since: number;
  /** The step that met the limit. */
  step: string;
  /** The session that resumes once the limit resets. */
  session_id: string | null;
  /** Which limit (`five_hour`, `seven_day`, …) when the API said; else null. */
  limit: string | null;
}

/** The legacy text form: `Claude AI usage limit reached|1700000000`. */
const LEGACY_FORM = /usage limit reached\|(\d{9,11})\b/i;

/** The reset time and limit a raw SDK message announces as reached, or null (it is not such a message). */
export function usageLimitOf(message: unknown): { resetsAt: number; limit: string | null } | null {
  if (!isRecord(message) || message['type'] !== 'rate_limit_event') return null;
  const info = message['rate_limit_info'];
  if (!isRecord(info) || info['status'] !== 'rejected') return null;
  const resetsAt = info['resetsAt'];
  if (typeof resetsAt !== 'number' || !Number.isFinite(resetsAt) || resetsAt <= 0) return null;
  const limit = info['rateLimitType'];
  return { resetsAt, limit: typeof limit === 'string' ? limit : null };
}

/** The reset time in an error text of the legacy `usage limit reached|<epoch>` form, or null. */
export function usageLimitInText(text: string | null | undefined): number | null {
  const match = LEGACY_FORM.exec(text ?? '');
  return match?.[1] === undefined ? null : Number(match[1]);
}

function isParkedState(value: unknown): value is ParkedState {
  return (
    isRecord(value) &&
    typeof value['resets_at'] === 'number' &&
    Number.isFinite(value['resets_at']) &&
    typeof value['step'] === 'string'
  );
}

/** The park record of `runDir`, or null when the run is not parked (or the file cannot be read). */
export function readParked(runDir: string): ParkedState | null {
  const state = new LockedJsonFile(join(runDir, PARKED_FILE), { accepts: isParkedState }).read();
  return state.kind === 'parsed' ? (state.value as ParkedState) : null;
}

/** Records that the run parks until `state.resets_at` (atomically: a kill never leaves half a file). */
export function writeParked(runDir: string, runId: string, state: ParkedState): void {
  new LockedJsonFile(join(runDir, PARKED_FILE), { accepts: isParkedState }).update(runId, () => state);
}

/** The wait is over: the record goes. A missing file is fine. */
export function clearParked(runDir: string): void {
  const path = join(runDir, PARKED_FILE);
  try {
    if (existsSync(path)) unlinkSync(path);
  } catch {
    // Left behind, it only says a reset time that has passed; the next reader ignores it.
  }
}

/** The countdown line: `usage limit · resumes at 17:00 · 1:42:10 left · Ctrl-C to stop`. */
export function parkedText(resetsAt: number, nowS: number, lang: Lang = 'en'): string {
  return uiText(
    'rt.parked',
    { at: clockTime(resetsAt), left: formatElapsed(Math.ceil(resetsAt - nowS)) },
    lang,
  );
}
