/**
 * User-visible lines the CLI needs that are not in the UI catalog (src/config/ui-text.ts) yet. They are
 * kept together here, with catalog-style keys, so they can move into the catalog in one step.
 *
 * @module
 */

const PENDING = {
  'fail.credHint': 'Run `flower setup` to fix the credentials, then run the same command again.',
  'fail.overloaded': '! The API is overloaded (HTTP 529); try again in a few minutes: {e}',
  'fail.rateLimited':
    '! The API is rate limiting this key (HTTP 429); wait a little and run the command again: {e}',
  'fail.other': '! {e}',
  'once.resume': 'Session {id}; continue it with: flower once --resume {id} "..."',
  'err.notYet':
    '`flower {command}` is not available yet in this version; `flower once "..."` runs a single agent.',
  'err.didYouMean':
    "'{word}' looks like a mistyped command: did you mean `flower {command}`? To send it as a request: flower go {word}",
  'err.forkNeedsResume': '--fork needs --resume <session_id>: only an existing session can be forked.',
  'err.unexpected': 'Unexpected error: {e} (set FLOWER_DEBUG=1 to see the stack)',
} as const;

/** A key of the pending lines. */
export type PendingKey = keyof typeof PENDING;

/** One pending line with its `{name}` placeholders filled. */
export function pendingText(key: PendingKey, vars: Record<string, string | number> = {}): string {
  return PENDING[key].replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}
