import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import type { SessionKey } from '../agent/claude-sdk.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

const main: SessionKey = { projectKey: '-work-app', sessionId: '6f1c2d3e-0000-4000-8000-000000000002' };

describe('appendBatch', () => {
  let directory: string;
  let store: SqliteSessionStore;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'flower-append-batch-'));
    store = new SqliteSessionStore(join(directory, 'sessions.db'));
  });

  afterEach(() => {
    store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const rows = () => {
    const database = new Database(store.path, { readonly: true });
    try {
      return database.prepare('SELECT seq, uid, payload FROM entries ORDER BY seq').all();
    } finally {
      database.close();
    }
  };

  test('keeps the first of a uuid repeated within one batch, with gapless seq numbers', async () => {
    await store.append(main, [
      { type: 'user', uuid: 'u1', n: 1 },
      { type: 'user', uuid: 'u1', n: 2 },
      { type: 'tag' },
      { type: 'user', uuid: 'u2' },
      { type: 'user', uuid: 'u2', n: 3 },
    ]);
    await store.append(main, [{ type: 'user', uuid: 'u2' }, { type: 'tag' }]);
    expect(rows()).toEqual([
      { seq: 0, uid: 'u1', payload: '{"type":"user","uuid":"u1","n":1}' },
      { seq: 1, uid: null, payload: '{"type":"tag"}' },
      { seq: 2, uid: 'u2', payload: '{"type":"user","uuid":"u2"}' },
      { seq: 3, uid: null, payload: '{"type":"tag"}' },
    ]);
  });

  test('still fails loudly when a seq is taken, instead of dropping the entry', async () => {
    await store.append(main, [{ type: 'user', uuid: 'u1' }]);
    const database = new Database(store.path);
    database.prepare('UPDATE meta SET next_seq = 0').run();
    database.close();
    await expect(store.append(main, [{ type: 'user', uuid: 'u2' }])).rejects.toThrow(/UNIQUE/);
    expect(rows()).toHaveLength(1);
  });
});
