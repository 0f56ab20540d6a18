/**
 * The `store_key` column: how an SDK {@link SessionKey} becomes one string in `sessions.db`, the same way the
 * Python flower spells it, plus the prefix ranges used to find every key under a project or a session.
 *
 * @module
 */
import type { SessionKey } from '../agent/claude-sdk.js';

/**
 * `projectKey/sessionId` for a main transcript, `projectKey/sessionId/subpath` for a subagent transcript
 * (`subpath` looks like `subagents/agent-<id>`), as in the reference (docs/session-stores.md).
 *
 * @throws TypeError for a key no SDK would send: an empty `subpath` (the SDK omits it for the main
 *   transcript; the reference silently treated `""` as main for entries but not for summaries), an empty id,
 *   or a `/` in the project key or session id (it would make one session's keys look like another's).
 */
export function storeKey(key: SessionKey): string {
  const base = sessionPrefix(key.projectKey, key.sessionId);
  if (key.subpath === undefined) return base;
  if (key.subpath === '') {
    throw new TypeError('SessionKey.subpath is empty: omit it for the main transcript.');
  }
  return `${base}/${key.subpath}`;
}

/** True for the key of a main transcript (no subpath): the only kind that gets a summary row. */
export function isMainKey(key: SessionKey): boolean {
  return key.subpath === undefined;
}

/** `projectKey/sessionId`, checked: the store key of the main transcript. */
export function sessionPrefix(projectKey: string, sessionId: string): string {
  return `${checkedProjectKey(projectKey)}/${checkedSegment('sessionId', sessionId)}`;
}

/**
 * `projectKey` itself, after checking that it is non-empty and has no `/` (every store key of the project
 * starts with `projectKey + '/'`).
 */
export function checkedProjectKey(projectKey: string): string {
  return checkedSegment('projectKey', projectKey);
}

function checkedSegment(name: string, value: string): string {
  if (value === '') throw new TypeError(`SessionKey.${name} is empty.`);
  if (value.includes('/')) throw new TypeError(`SessionKey.${name} contains "/": ${JSON.stringify(value)}.`);
  return value;
}

/**
 * The half-open range `[low, high)` of every string that starts with `prefix + '/'`, for SQL range
 * comparisons (`store_key >= low AND store_key < high`). Unlike `LIKE 'prefix/%'`, `_` and `%` in a project
 * key are not wildcards, and the primary-key index is used (decisions.md D409). `'0'` is the code point right
 * after
 * `'/'`, so `high` is the smallest string above every key in the range under SQLite's byte order.
 */
export function childRange(prefix: string): { low: string; high: string } {
  return { low: `${prefix}/`, high: `${prefix}0` };
}
