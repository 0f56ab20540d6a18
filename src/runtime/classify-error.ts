/**
 * `classify()`: sorts a step's error text into transient (wait and retry), fatal (stop) or unknown
 * (docs/resilience.md, decisions.md D30). The rules are plain patterns over the text the Claude Code child
 * and the SDK produce (recorded from the real binary), checked case-insensitively.
 *
 * @module
 */
import type { ErrorKind } from '../events/flower-event.js';

export type { ErrorKind } from '../events/flower-event.js';

/** Every stall error begins with this (`stall: no SDK message for <n> s`, decisions.md D30). */
export const STALL_PREFIX = 'stall:';

/**
 * Errors that a retry cannot fix: credentials, malformed requests, spent budgets and turn limits, and a
 * missing Claude Code executable. Checked before {@link TRANSIENT_PATTERNS} because an authentication
 * failure often mentions the "connection" it failed on; the other order would wait for the network forever.
 */
export const FATAL_PATTERNS: readonly RegExp[] = Object.freeze([
  /\b(?:400|401|403|404)\b/i,
  /invalid.?api.?key/i,
  /authentication/i,
  /unauthorized/i,
  /permission denied/i,
  /invalid_request/i,
  /credit balance/i,
  /quota exceeded/i,
  /budget/i,
  /max_turns/i,
  /CLINotFound/i,
  // The SDK's own wording when the bundled binary is missing or cannot start on this system.
  /claude code (?:executable|native binary) not found/i,
  /native binary at .* exists but failed to launch/i,
  // Node could not start the child at all (`spawn E2BIG`, `spawn … EACCES`), or refused its arguments or
  // environment before trying (a NUL byte in a variable): the next attempt would fail in the same way.
  /\bspawn\b.*\b(?:E2BIG|ENOENT|EACCES|ENOEXEC|EPERM|EISDIR|ENOTDIR)\b/i,
  /ERR_INVALID_ARG_(?:VALUE|TYPE)|must be a string without null bytes/i,
]);

/** Errors that go away by themselves: the network, overload, rate limits and timeouts. */
export const TRANSIENT_PATTERNS: readonly RegExp[] = Object.freeze([
  /ENOTFOUND|EAI_AGAIN|ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETDOWN/i,
  /socket hang up/i,
  /fetch failed/i,
  /network error/i,
  /connection error/i,
  /can't reach the api server/i,
  /\b(?:429|500|502|503|504|529)\b/i,
  /overloaded/i,
  /rate.?limit/i,
  /too many requests/i,
  /timeout/i,
  /timed out/i,
  /temporarily unavailable/i,
  /service unavailable/i,
  /internal server error/i,
]);

/**
 * The class of an error text. Empty or missing → `unknown`. A text beginning `stall:` is the stall
 * watchdog's own verdict and always `transient` — checked first, because its number of seconds could
 * otherwise read as a status code (`stall: no SDK message for 400 s`). Then fatal before transient.
 */
export function classify(text?: string | null): ErrorKind {
  const value = (text ?? '').trim();
  if (value === '') return 'unknown';
  if (value.toLowerCase().startsWith(STALL_PREFIX)) return 'transient';
  if (FATAL_PATTERNS.some((pattern) => pattern.test(value))) return 'fatal';
  if (TRANSIENT_PATTERNS.some((pattern) => pattern.test(value))) return 'transient';
  return 'unknown';
}
