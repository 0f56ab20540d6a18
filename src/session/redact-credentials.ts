/**
 * Keeping credential values out of stored transcripts. The agent's shell is scrubbed of credentials where
 * Claude Code's sandbox can run, but where it cannot (or a tool finds the value some other way) a tool result
 * may carry the key; the session store is the one place everything the model saw is written, so it replaces
 * every exact credential value with {@link REDACTED_CREDENTIAL} before writing.
 *
 * @module
 */
import type { SessionStore, SessionStoreEntry } from '../agent/claude-sdk.js';

/** What a credential value is replaced with in a stored entry. */
export const REDACTED_CREDENTIAL = '[credential removed by flower]';

/**
 * Values shorter than this are not redacted: replacing a short string everywhere would mangle the transcript
 * (a test key like `x`), and real keys and tokens are far longer.
 */
export const MIN_REDACTED_LENGTH = 8;

/**
 * `entries` with every exact occurrence of a value of `secrets` in any string (object keys included)
 * replaced by {@link REDACTED_CREDENTIAL}. Entries that hold no secret are returned as they are (same
 * object); the others are copied, never changed in place (the SDK may still hold them).
 */
export function redactEntries(
  entries: readonly SessionStoreEntry[],
  secrets: readonly string[],
): SessionStoreEntry[] {
  const values = usableSecrets(secrets);
  if (values.length === 0) return [...entries];
  return entries.map((entry) => {
    const text = JSON.stringify(entry);
    return values.some((value) => text.includes(value))
      ? (redactValue(entry, values) as SessionStoreEntry)
      : entry;
  });
}

/**
 * `store` whose `append` redacts credential values first (see {@link redactEntries}); every other method is
 * the store's own. With no usable secret, `store` itself is returned.
 */
export function redactingStore<T extends SessionStore>(store: T, secrets: readonly string[]): T {
  const values = usableSecrets(secrets);
  if (values.length === 0) return store;
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'append') {
        return (key: Parameters<SessionStore['append']>[0], entries: SessionStoreEntry[]) =>
          target.append(key, redactEntries(entries, values));
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function usableSecrets(secrets: readonly string[]): string[] {
  // Longest first, so a key that contains another is replaced whole.
  return [...new Set(secrets.filter((secret) => secret.length >= MIN_REDACTED_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
}

function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactString(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      copy[redactString(key, secrets)] = redactValue(item, secrets);
    return copy;
  }
  return value;
}

function redactString(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED_CREDENTIAL);
  }
  return result;
}
