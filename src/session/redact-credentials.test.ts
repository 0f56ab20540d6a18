import { describe, expect, test } from 'vitest';
import type { SessionKey, SessionStore, SessionStoreEntry } from '../agent/claude-sdk.js';
import { REDACTED_CREDENTIAL, redactEntries, redactingStore } from './redact-credentials.js';

const KEY = 'sk-ant-api03-secretvalue';
const TOKEN = 'gateway-token-1234';

function toolResult(text: string): SessionStoreEntry {
  return {
    type: 'user',
    uuid: 'u1',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: text }] },
  };
}

describe('redactEntries', () => {
  test('replaces every exact credential value in nested strings, in a copy', () => {
    const entry = toolResult(`ANTHROPIC_API_KEY=${KEY}\nANTHROPIC_AUTH_TOKEN=${TOKEN}\nagain ${KEY}`);
    const [redacted] = redactEntries([entry], [KEY, TOKEN]);
    const text = JSON.stringify(redacted);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(TOKEN);
    expect(text.split(REDACTED_CREDENTIAL)).toHaveLength(4);
    // The original is untouched: the SDK may still hold it.
    expect(JSON.stringify(entry)).toContain(KEY);
  });

  test('leaves entries without a credential as the same objects', () => {
    const entry = toolResult('nothing secret here');
    expect(redactEntries([entry], [KEY])[0]).toBe(entry);
  });

  test('replaces a longer value whole when a shorter one is part of it', () => {
    const short = 'abcdefgh12';
    const long = `${short}-and-more`;
    const [redacted] = redactEntries([toolResult(`v=${long}`)], [short, long]);
    expect(JSON.stringify(redacted)).toContain(`v=${REDACTED_CREDENTIAL}`);
    expect(JSON.stringify(redacted)).not.toContain('-and-more');
  });

  test('ignores values too short to be a real credential', () => {
    const entry = toolResult('x marks the spot');
    expect(redactEntries([entry], ['x'])[0]).toBe(entry);
  });
});

describe('redactingStore', () => {
  test('appends redacted entries and passes every other call through', async () => {
    const appended: SessionStoreEntry[][] = [];
    const store: SessionStore & { extra(): string } = {
      append(_key: SessionKey, entries: SessionStoreEntry[]) {
        appended.push(entries);
        return Promise.resolve();
      },
      load() {
        return Promise.resolve(null);
      },
      extra() {
        return 'kept';
      },
    };
    const wrapped = redactingStore(store, [KEY]);
    await wrapped.append({ projectKey: 'p', sessionId: 's' }, [toolResult(`key ${KEY}`)]);
    expect(JSON.stringify(appended)).not.toContain(KEY);
    expect(JSON.stringify(appended)).toContain(REDACTED_CREDENTIAL);
    expect(wrapped.extra()).toBe('kept');
  });

  test('is the store itself when there is nothing to redact', () => {
    const store: SessionStore = { append: () => Promise.resolve(), load: () => Promise.resolve(null) };
    expect(redactingStore(store, [])).toBe(store);
  });
});
