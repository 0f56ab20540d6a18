/**
 * A session store seen through a window: every call goes to the real store, and the runtime hears about
 * what was stored (to price each API response as it lands) and what the SDK loaded for a resume (the
 * child's saved running total, and the load report for the `trim` event). One wrapper per query.
 *
 * @module
 */
import type { SessionKey, SessionStore, SessionStoreEntry } from '../agent/claude-sdk.js';

/** What the runtime wants to hear about. Exceptions thrown by these are swallowed: storage comes first. */
export interface StoreObserver {
  /** After the store committed `entries` under `key`. */
  onAppend?(key: SessionKey, entries: readonly SessionStoreEntry[]): void;
  /**
   * The store refused `entries` under `key` (the SDK then drops them and goes on): heard before the error
   * goes back to the SDK, so a runtime that stops on it (a full run directory) ends the step at once.
   */
  onAppendFailed?(key: SessionKey, error: unknown): void;
  /** After the store answered a load of `key` (`null`: nothing stored there). */
  onLoad?(key: SessionKey, entries: readonly SessionStoreEntry[] | null): void;
}

/** `store` with `observer` told about appends and loads; the optional methods exist only where `store` has them. */
export function observeStore(store: SessionStore, observer: StoreObserver): SessionStore {
  const quietly = (notify: () => void): void => {
    try {
      notify();
    } catch {
      // An observer is bookkeeping; a failure there must never fail the SDK's mirror or resume.
    }
  };
  const observed: SessionStore = {
    async append(key, entries) {
      try {
        await store.append(key, entries);
      } catch (error) {
        quietly(() => observer.onAppendFailed?.(key, error));
        throw error;
      }
      quietly(() => observer.onAppend?.(key, entries));
    },
    async load(key) {
      const entries = await store.load(key);
      quietly(() => observer.onLoad?.(key, entries));
      return entries;
    },
  };
  if (store.listSessions) observed.listSessions = store.listSessions.bind(store);
  if (store.listSessionSummaries) observed.listSessionSummaries = store.listSessionSummaries.bind(store);
  if (store.delete) observed.delete = store.delete.bind(store);
  if (store.listSubkeys) observed.listSubkeys = store.listSubkeys.bind(store);
  return observed;
}
