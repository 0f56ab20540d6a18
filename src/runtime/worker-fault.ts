/**
 * A worker (a subagent inside Claude Code) whose request failed for a network reason (docs/resilience.md,
 * "A worker cut off by the network"; docs/decisions.md D344). Claude Code retries a subagent's request only
 * as often as the child's small `CLAUDE_CODE_MAX_RETRIES` allows, then ends the subagent and answers the
 * dispatch with its API-error text. That text must never reach the coordinator: it is a fault of the
 * network, not of the work. So the dispatch's hook stops the turn (`worker-fault-hook.ts`), the stored
 * result is replaced by the journal's "may have completed" answer (here), and the attempt ends as a
 * transient error that flower waits out and resumes like any other.
 *
 * @module
 */
import type { SessionStore, SessionStoreEntry } from '../agent/claude-sdk.js';
import { isRecord } from '../internal/is-record.js';
import { PLACEHOLDER_TEXT } from '../session/placeholder-text.js';
import { classify } from './classify-error.js';

/**
 * Claude Code's answer to a dispatch whose subagent ended on an API error (recorded from the real binary:
 * `Agent terminated early due to an API error: API Error: Connection refused … (ECONNREFUSED)`), optionally
 * behind the `Error: ` of a thrown tool error; a subagent whose last words are the error itself reads
 * `API Error: …`. Anchored at the start, so a report that merely mentions an API error does not match.
 */
const WORKER_API_ERROR =
  /^(?:Error:\s*)?(?:Agent terminated early due to an API error:\s*)?(API Error\b[\s\S]*)$/;

/**
 * The API error a dispatch's answer `text` reports when its worker was ended by a transient fault (the
 * network, an overload, a rate limit), else null. A fatal API error (a bad key, a malformed request) is the
 * coordinator's to see: waiting would not fix it.
 */
export function workerFaultText(text: string): string | null {
  const match = WORKER_API_ERROR.exec(text.trim());
  const error = match?.[1];
  if (error === undefined) return null;
  return classify(error) === 'transient' ? error : null;
}

/** The text of a tool's answer as hooks and stored results carry it: a string, or text blocks. */
export function answerText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(answerText).join('\n');
  if (!isRecord(value)) return '';
  if (typeof value['text'] === 'string') return value['text'];
  return value['content'] === undefined ? '' : answerText(value['content']);
}

/**
 * `entries` with the result of every dispatch in `faulted` (tool-use ids) replaced by the journal's answer
 * to a call whose result was lost: the worker may have done part or all of its task before it was cut off,
 * which is what that answer tells the model, and what a resumed coordinator checks on disk. Entries without
 * such a result are returned as they are (same object); the others are copied, never changed in place.
 */
export function settleWorkerFaults(
  entries: readonly SessionStoreEntry[],
  faulted: ReadonlySet<string>,
): SessionStoreEntry[] {
  if (faulted.size === 0) return [...entries];
  return entries.map((entry) => {
    const message = (entry as { message?: unknown }).message;
    if (!isRecord(message) || !Array.isArray(message['content'])) return entry;
    const content = message['content'] as unknown[];
    const hit = (block: unknown): boolean =>
      isRecord(block) &&
      block['type'] === 'tool_result' &&
      typeof block['tool_use_id'] === 'string' &&
      faulted.has(block['tool_use_id']);
    if (!content.some(hit)) return entry;
    const settled = content.map((block) =>
      hit(block) ? { ...(block as object), content: PLACEHOLDER_TEXT.journalled, is_error: true } : block,
    );
    const copy: Record<string, unknown> = { ...entry, message: { ...message, content: settled } };
    // Claude Code's own copy of the tool's answer carries the error text too.
    if ('toolUseResult' in copy) copy['toolUseResult'] = PLACEHOLDER_TEXT.journalled;
    return copy as SessionStoreEntry;
  });
}

/**
 * `store` whose `append` settles the results of the dispatches in `faulted` first (see
 * {@link settleWorkerFaults}), read at each append: the hook adds an id before the child writes its
 * result. Every other method is the store's own.
 */
export function settlingStore<T extends SessionStore>(store: T, faulted: ReadonlySet<string>): T {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'append') {
        return (key: Parameters<SessionStore['append']>[0], entries: SessionStoreEntry[]) =>
          target.append(key, settleWorkerFaults(entries, faulted));
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
