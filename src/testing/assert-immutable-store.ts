/**
 * A store double that fails as soon as anything mutates what was appended to a store or returned by its
 * `load()`: the caller after `append`, the store itself, or a consumer of loaded transcripts (the load
 * pipeline must copy on write). After langgraph's `MemorySaverAssertImmutable`.
 *
 * @module
 */
import type {
  SessionKey,
  SessionStore,
  SessionStoreEntry,
  SessionSummaryEntry,
} from '../agent/claude-sdk.js';

/**
 * Wraps a {@link SessionStore}. Every batch passed to `append` and every array returned by `load` is
 * deep-frozen before anyone else sees it, so a mutation (by the caller, the wrapped store, or a consumer of
 * loaded transcripts) throws a `TypeError` at the offending line instead of corrupting a transcript quietly.
 * A store that keeps the caller's array, or hands out an internal array and later pushes to it, fails too.
 * All modules are ES modules, hence strict mode, where writing to a frozen object throws.
 */
export class AssertImmutableStore implements SessionStore {
  /** The store being watched. */
  readonly inner: SessionStore;

  constructor(inner: SessionStore) {
    this.inner = inner;
  }

  async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    deepFreeze(entries);
    await this.inner.append(key, entries);
  }

  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    return deepFreeze(await this.inner.load(key));
  }

  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    return this.#call('listSessions', (store) => store.listSessions?.(projectKey));
  }

  async listSessionSummaries(projectKey: string): Promise<SessionSummaryEntry[]> {
    return this.#call('listSessionSummaries', (store) => store.listSessionSummaries?.(projectKey));
  }

  async delete(key: SessionKey): Promise<void> {
    await this.#call('delete', (store) => store.delete?.(key));
  }

  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    return this.#call('listSubkeys', (store) => store.listSubkeys?.(key));
  }

  /** Closes the wrapped store when it has a `close()`. */
  close(): void {
    (this.inner as { close?: () => void }).close?.();
  }

  async #call<T>(name: string, invoke: (store: SessionStore) => Promise<T> | undefined): Promise<T> {
    const pending = invoke(this.inner);
    if (pending === undefined) throw new Error(`the wrapped store has no ${name}()`);
    return await pending;
  }
}

/** Freezes `value` and everything reachable from it (plain JSON data). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
