import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import type { SessionKey, SessionStore, SessionStoreEntry } from '../agent/claude-sdk.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { AssertImmutableStore } from './assert-immutable-store.js';

const key: SessionKey = { projectKey: 'p', sessionId: 's' };

/** A deliberately bad store: it keeps the caller's array and hands it back from load(). */
class ReferenceKeepingStore implements SessionStore {
  readonly kept = new Map<string, SessionStoreEntry[]>();
  append(target: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    const existing = this.kept.get(target.sessionId);
    if (existing === undefined) this.kept.set(target.sessionId, entries);
    else existing.push(...entries);
    return Promise.resolve();
  }
  load(target: SessionKey): Promise<SessionStoreEntry[] | null> {
    return Promise.resolve(this.kept.get(target.sessionId) ?? null);
  }
}

describe('AssertImmutableStore', () => {
  let directory: string;
  let inner: SqliteSessionStore;
  let store: AssertImmutableStore;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'flower-immutable-'));
    inner = new SqliteSessionStore(join(directory, 'sessions.db'));
    store = new AssertImmutableStore(inner);
  });

  afterEach(() => {
    inner.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('passes calls through to the wrapped store', async () => {
    await store.append(key, [{ type: 'user', uuid: 'u1' }]);
    expect(await store.load(key)).toEqual([{ type: 'user', uuid: 'u1' }]);
    expect((await store.listSessions('p')).map((session) => session.sessionId)).toEqual(['s']);
    expect(await store.listSessionSummaries('p')).toHaveLength(1);
    expect(await store.listSubkeys(key)).toEqual([]);
    await store.delete(key);
    expect(await store.load(key)).toBeNull();
  });

  test('throws at the line that mutates an appended entry', async () => {
    const entries: SessionStoreEntry[] = [{ type: 'user', uuid: 'u1', message: { content: 'a' } }];
    await store.append(key, entries);
    expect(() => {
      (entries[0]!['message'] as { content: string }).content = 'b';
    }).toThrow(TypeError);
    expect(() => entries.push({ type: 'x' })).toThrow(TypeError);
  });

  test('throws at the line that mutates a loaded entry', async () => {
    await store.append(key, [{ type: 'user', uuid: 'u1', message: { content: 'a' } }]);
    const loaded = (await store.load(key))!;
    expect(() => {
      (loaded[0]!['message'] as { content: string }).content = 'b';
    }).toThrow(TypeError);
  });

  test('reports a store that later changes an array it handed out', async () => {
    const watched = new AssertImmutableStore(new ReferenceKeepingStore());
    await watched.append(key, [{ type: 'a' }]);
    await expect(watched.append(key, [{ type: 'b' }])).rejects.toThrow(TypeError);
  });
});
