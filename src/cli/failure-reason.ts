/**
 * Why a step failed, in words a user can act on (docs/cli.md): a credential problem names
 * `flower setup`, an overloaded API says to try again later; anything else shows the error itself.
 *
 * @module
 */

/** The failure classes the CLI words differently. */
export type FailureKind = 'credentials' | 'overloaded' | 'rate_limited' | 'spawn' | 'other';

// The closing line's credential pattern (docs/cli.md); the Chinese alternative matches gateways that answer
// in Chinese.
const CREDENTIALS = /401|invalid[_ ]?api[_ ]?key|authentication|unauthorized|无效.*(key|token|密钥)/i;
const OVERLOADED = /\b529\b|overloaded/i;
const RATE_LIMITED = /\b429\b|rate.?limit/i;
// Node could not start the Claude Code child: its environment or arguments were refused.
const SPAWN =
  /\bspawn\b.*\b(?:E2BIG|ENOENT|EACCES|ENOEXEC|EPERM)\b|ERR_INVALID_ARG_VALUE|without null bytes/i;

/**
 * The step's error text the closing line matches: the error plus all recorded errors, space-joined. A
 * recorded error the error already quotes (the runtime puts the last API error into it) is not repeated.
 */
export function failureText(result: { error: string | null; errors: readonly string[] }): string {
  const error = result.error ?? '';
  const extra = result.errors.filter((part) => part !== '' && !error.includes(part));
  return [error, ...extra].filter((part) => part !== '').join(' ');
}

/** Which class a failure text belongs to; credentials are checked first. */
export function classifyFailure(text: string): FailureKind {
  if (CREDENTIALS.test(text)) return 'credentials';
  if (OVERLOADED.test(text)) return 'overloaded';
  if (RATE_LIMITED.test(text)) return 'rate_limited';
  if (SPAWN.test(text)) return 'spawn';
  return 'other';
}
