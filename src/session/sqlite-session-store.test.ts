import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { foldSessionSummary } from '../agent/claude-sdk.js';
import type { SessionKey, SessionStoreEntry } from '../agent/claude-sdk.js';
import { isFlowerError } from '../errors.js';
import { FLOWER_APPLICATION_ID } from './schema.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

/** The reference DDL, copied from docs/session-stores.md (not from schema.ts, so a drift fails). */
const REFERENCE_DDL = `CREATE TABLE IF NOT EXISTS entries (
    store_key TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    uid       TEXT,
    payload   TEXT NOT NULL,
    PRIMARY KEY (store_key, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS entries_uid
    ON entries(store_key, uid) WHERE uid IS NOT NULL;
CREATE TABLE IF NOT EXISTS meta (
    store_key TEXT PRIMARY KEY,
    mtime     INTEGER NOT NULL,
    next_seq  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS summaries (
    project_key TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    mtime       INTEGER NOT NULL,
    data        TEXT NOT NULL,
    PRIMARY KEY (project_key, session_id)
);
`;

/** Python's `json.dumps` default output: `", "` and `": "` separators, non-ASCII escaped. */
function pythonDumps(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${pythonDumps(key)}: ${pythonDumps(item)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

const PROJECT = '-Users-ada-code-calc';
const SESSION = '6f1c2d3e-0000-4000-8000-000000000001';
const main: SessionKey = { projectKey: PROJECT, sessionId: SESSION };
const subagent: SessionKey = { ...main, subpath: 'subagents/agent-a1b2c3' };

function transcript(): SessionStoreEntry[] {
  return [
    {
      type: 'queue-operation',
      operation: 'enqueue',
      timestamp: '2025-11-02T10:00:00.000Z',
      sessionId: SESSION,
    },
    {
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      isSidechain: false,
      cwd: '/Users/ada/code/calc',
      sessionId: SESSION,
      timestamp: '2025-11-02T10:00:01.000Z',
      message: { role: 'user', content: '做一个计算器 🌸' },
    },
    {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      sessionId: SESSION,
      timestamp: '2025-11-02T10:00:02.000Z',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'OK' }],
        usage: {
          input_tokens: 3,
          cache_read_input_tokens: 28000,
          cache_creation_input_tokens: 700,
          output_tokens: 9,
        },
      },
    },
    { type: 'last-prompt', lastPrompt: '做一个计算器', sessionId: SESSION },
  ];
}

function subagentTranscript(): SessionStoreEntry[] {
  return [
    { type: 'agent_metadata', agentType: 'coder' },
    { type: 'user', uuid: 's1', isSidechain: true, message: { role: 'user', content: 'Write calc.c' } },
  ];
}

/** A `sessions.db` as the Python flower leaves it: reference DDL, rollback journal, its JSON and summary shape. */
function writeReferenceDatabase(path: string): void {
  const database = new Database(path);
  database.exec(REFERENCE_DDL);
  const insert = database.prepare('INSERT INTO entries (store_key, seq, uid, payload) VALUES (?, ?, ?, ?)');
  const write = (key: string, entries: SessionStoreEntry[]) =>
    entries.forEach((entry, seq) => insert.run(key, seq, entry.uuid ?? null, pythonDumps(entry)));
  write(`${PROJECT}/${SESSION}`, transcript());
  write(`${PROJECT}/${SESSION}/subagents/agent-a1b2c3`, subagentTranscript());
  database.prepare('INSERT INTO meta VALUES (?, ?, ?)').run(`${PROJECT}/${SESSION}`, 1762077602000, 4);
  database
    .prepare('INSERT INTO meta VALUES (?, ?, ?)')
    .run(`${PROJECT}/${SESSION}/subagents/agent-a1b2c3`, 1762077601500, 2);
  database.prepare('INSERT INTO summaries VALUES (?, ?, ?, ?)').run(
    PROJECT,
    SESSION,
    1762077602000,
    pythonDumps({
      session_id: SESSION,
      mtime: 1762077602000,
      data: { is_sidechain: false, created_at: 1762077601000, first_prompt: '做一个计算器 🌸' },
    }),
  );
  database.close();
}

function rawRows(path: string, sql: string, ...parameters: unknown[]): unknown[] {
  const database = new Database(path, { readonly: true });
  try {
    return database.prepare(sql).all(...parameters);
  } finally {
    database.close();
  }
}

async function expectFlowerError(work: () => unknown, pattern: RegExp): Promise<void> {
  let caught: unknown;
  try {
    await work();
  } catch (error) {
    caught = error;
  }
  expect(isFlowerError(caught), String(caught)).toBe(true);
  expect((caught as Error).message).toMatch(pattern);
}

describe('SqliteSessionStore', () => {
  let directory: string;
  let path: string;
  const open: SqliteSessionStore[] = [];
  const openStore = (options?: ConstructorParameters<typeof SqliteSessionStore>[1], at = path) => {
    const store = new SqliteSessionStore(at, options);
    open.push(store);
    return store;
  };

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'flower-sqlite-store-'));
    path = join(directory, 'runs', 'sessions.db');
  });

  afterEach(() => {
    for (const store of open.splice(0)) store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  describe('schema', () => {
    test('creates the reference schema byte for byte', () => {
      openStore().close();
      const reference = join(directory, 'reference.db');
      const database = new Database(reference);
      database.exec(REFERENCE_DDL);
      database.close();
      const objects = (file: string) =>
        rawRows(file, 'SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name');
      expect(objects(path)).toEqual(objects(reference));
      expect(objects(path)).toHaveLength(7); // 3 tables, the uid index, 3 automatic primary-key indexes
    });

    test('marks a new file as flower’s with its application id', () => {
      openStore().close();
      expect(rawRows(path, 'PRAGMA application_id')).toEqual([{ application_id: FLOWER_APPLICATION_ID }]);
    });

    test('opens a store written before the application id, recognising it by its tables', async () => {
      mkdirSync(join(directory, 'runs'));
      writeReferenceDatabase(path);
      const store = openStore();
      expect(await store.load(main)).toHaveLength(transcript().length);
      store.close();
      expect(rawRows(path, 'PRAGMA application_id')).toEqual([{ application_id: FLOWER_APPLICATION_ID }]);
    });

    test('puts the file in WAL mode', () => {
      openStore();
      expect(rawRows(path, 'PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    });

    test('opens a database built with the reference DDL without changing its schema', async () => {
      mkdirSync(join(directory, 'runs'));
      writeReferenceDatabase(path);
      const before = rawRows(path, 'SELECT type, name, sql FROM sqlite_master ORDER BY name');
      const store = openStore();
      await store.append(main, [{ type: 'user', uuid: 'new' }]);
      store.close();
      expect(rawRows(path, 'SELECT type, name, sql FROM sqlite_master ORDER BY name')).toEqual(before);
    });
  });

  describe('append', () => {
    test('stores payload JSON, uuid as uid, and consecutive seq numbers', async () => {
      const store = openStore();
      await store.append(main, [{ type: 'user', uuid: 'u1' }, { type: 'tag' }, { type: 'user', uuid: '' }]);
      await store.append(main, [
        { type: 'user', uuid: 'u1' },
        { type: 'user', uuid: 'u2' },
      ]);
      expect(rawRows(path, 'SELECT store_key, seq, uid, payload FROM entries ORDER BY seq')).toEqual([
        { store_key: `${PROJECT}/${SESSION}`, seq: 0, uid: 'u1', payload: '{"type":"user","uuid":"u1"}' },
        { store_key: `${PROJECT}/${SESSION}`, seq: 1, uid: null, payload: '{"type":"tag"}' },
        { store_key: `${PROJECT}/${SESSION}`, seq: 2, uid: null, payload: '{"type":"user","uuid":""}' },
        { store_key: `${PROJECT}/${SESSION}`, seq: 3, uid: 'u2', payload: '{"type":"user","uuid":"u2"}' },
      ]);
      expect(rawRows(path, 'SELECT store_key, next_seq FROM meta')).toEqual([
        { store_key: `${PROJECT}/${SESSION}`, next_seq: 4 },
      ]);
    });

    test('leaves meta and summary untouched by a pure replay', async () => {
      const store = openStore();
      await store.append(main, transcript());
      const before = rawRows(
        path,
        'SELECT * FROM meta UNION ALL SELECT project_key, mtime, data FROM summaries',
      );
      await store.append(
        main,
        transcript().filter((entry) => entry.uuid !== undefined),
      );
      expect(
        rawRows(path, 'SELECT * FROM meta UNION ALL SELECT project_key, mtime, data FROM summaries'),
      ).toEqual(before);
    });

    test('issues an mtime after the stored one even when the stored one is ahead of the clock', async () => {
      const store = openStore();
      await store.append(main, [{ type: 'x' }]);
      const future = Date.now() + 3_600_000;
      const database = new Database(path);
      database.prepare('UPDATE meta SET mtime = ?').run(future);
      database.close();
      await store.append(main, [{ type: 'y' }]);
      expect((await store.listSessions(PROJECT))[0]!.mtime).toBe(future + 1);
      expect((await store.listSessionSummaries(PROJECT))[0]!.mtime).toBe(future + 1);
    });

    test('writes summaries only for main transcripts, as the SDK summary JSON', async () => {
      const store = openStore();
      await store.append(subagent, subagentTranscript());
      expect(rawRows(path, 'SELECT * FROM summaries')).toEqual([]);
      await store.append(main, transcript());
      const rows = rawRows(path, 'SELECT project_key, session_id, mtime, data FROM summaries') as Array<{
        mtime: number;
        data: string;
      }>;
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.data)).toEqual(
        foldSessionSummary(undefined, main, transcript(), { mtime: rows[0]!.mtime }),
      );
    });

    test('waits for another writer up to the busy timeout, then fails so the SDK can retry', async () => {
      const store = openStore({ busyTimeoutMs: 300 });
      const other = new Database(path);
      try {
        other.exec('BEGIN IMMEDIATE');
        const started = Date.now();
        await expect(store.append(main, [{ type: 'x' }])).rejects.toThrow(/locked/);
        expect(Date.now() - started).toBeGreaterThanOrEqual(250);
        other.exec('COMMIT');
        await store.append(main, [{ type: 'x' }]);
        expect(await store.load(main)).toEqual([{ type: 'x' }]);
      } finally {
        other.close();
      }
    });

    test('rejects keys no SDK would send', async () => {
      const store = openStore();
      await expect(store.append({ ...main, subpath: '' }, [{ type: 'x' }])).rejects.toThrow(
        /subpath is empty/,
      );
      await expect(store.append({ projectKey: 'a/b', sessionId: 's' }, [{ type: 'x' }])).rejects.toThrow(
        TypeError,
      );
      await expect(store.load({ ...main, subpath: '' })).rejects.toThrow(/subpath is empty/);
    });
  });

  describe('a sessions.db written by the Python flower', () => {
    beforeEach(() => {
      mkdirSync(join(directory, 'runs'));
      writeReferenceDatabase(path);
    });

    test('loads main and subagent transcripts deep-equal', async () => {
      const store = openStore();
      expect(await store.load(main)).toEqual(transcript());
      expect(await store.listSubkeys(main)).toEqual(['subagents/agent-a1b2c3']);
      expect(await store.load(subagent)).toEqual(subagentTranscript());
      expect(await store.listSessions(PROJECT)).toEqual([{ sessionId: SESSION, mtime: 1762077602000 }]);
      expect(store.projects()).toEqual([PROJECT]);
      expect(store.hasSession(PROJECT, SESSION)).toBe(true);
      expect(store.lastContext(PROJECT, SESSION)).toBe(28703);
    });

    test('rebuilds a Python summary row from the transcript, once', async () => {
      const store = openStore();
      const expected = foldSessionSummary(undefined, main, transcript(), { mtime: 1762077602000 });
      expect(await store.listSessionSummaries(PROJECT)).toEqual([expected]);
      expect(rawRows(path, 'SELECT data FROM summaries')).toEqual([{ data: JSON.stringify(expected) }]);
      expect(expected.data).toMatchObject({ firstPrompt: '做一个计算器 🌸', cwd: '/Users/ada/code/calc' });
    });

    test('reports a Python summary rebuilt without writing when opened read-only', async () => {
      const store = openStore({ readonly: true });
      const expected = foldSessionSummary(undefined, main, transcript(), { mtime: 1762077602000 });
      expect(await store.listSessionSummaries(PROJECT)).toEqual([expected]);
      expect(
        JSON.parse((rawRows(path, 'SELECT data FROM summaries')[0] as { data: string }).data),
      ).toHaveProperty('session_id');
    });

    test('continues the transcript after its last seq, de-duplicating against Python rows', async () => {
      const store = openStore();
      const more: SessionStoreEntry[] = [
        { type: 'assistant', uuid: 'a1', message: { content: 'replayed' } },
        {
          type: 'user',
          uuid: 'u9',
          timestamp: '2025-11-02T11:00:00.000Z',
          message: { role: 'user', content: 'Add sqrt' },
        },
      ];
      await store.append(main, more);
      expect(await store.load(main)).toEqual([...transcript(), more[1]]);
      expect(rawRows(path, 'SELECT seq FROM entries WHERE uid = ?', 'u9')).toEqual([{ seq: 4 }]);
      const [summary] = await store.listSessionSummaries(PROJECT);
      expect(summary!.data).toEqual(foldSessionSummary(undefined, main, [...transcript(), more[1]!]).data);
      expect(summary!.mtime).toBeGreaterThan(1762077602000);
    });
  });

  describe("flower's synchronous queries", () => {
    test('hasSession looks for a main transcript only', async () => {
      const store = openStore();
      expect(store.hasSession(PROJECT, SESSION)).toBe(false);
      await store.append(subagent, subagentTranscript());
      expect(store.hasSession(PROJECT, SESSION)).toBe(false);
      await store.append(main, transcript());
      expect(store.hasSession(PROJECT, SESSION)).toBe(true);
      expect(store.hasSession('other', SESSION)).toBe(false);
    });

    test('lastContext takes the newest non-zero usage, skipping bad rows and zero-usage entries', async () => {
      const store = openStore();
      const usage = (input: number, read: number, creation: number) => ({
        type: 'assistant',
        message: {
          usage: {
            input_tokens: input,
            cache_read_input_tokens: read,
            cache_creation_input_tokens: creation,
          },
        },
      });
      await store.append(main, [
        usage(10, 100, 1000),
        usage(20, 200, 2000),
        { type: 'user', message: { content: 'hi' } },
      ]);
      expect(store.lastContext(PROJECT, SESSION)).toBe(2220);
      await store.append(main, [
        usage(0, 0, 0),
        { type: 'assistant', message: { usage: 'odd' } },
        { type: 'x' },
      ]);
      const database = new Database(path);
      database
        .prepare('INSERT INTO entries VALUES (?, 99, NULL, ?)')
        .run(`${PROJECT}/${SESSION}`, '{not json');
      database.close();
      expect(store.lastContext(PROJECT, SESSION)).toBe(2220);
      expect(store.lastContext(PROJECT, SESSION, 4)).toBe(0);
      expect(store.lastContext(PROJECT, 'unknown')).toBe(0);
      await store.append(subagent, [usage(5, 5, 5)]);
      expect(store.lastContext(PROJECT, SESSION)).toBe(2220);
    });

    test('projects lists every project key once, sorted', async () => {
      const store = openStore();
      expect(store.projects()).toEqual([]);
      await store.append({ projectKey: 'zeta', sessionId: 's' }, [{ type: 'x' }]);
      await store.append({ projectKey: 'alpha', sessionId: 's', subpath: 'subagents/agent-1' }, [
        { type: 'x' },
      ]);
      await store.append({ projectKey: 'zeta', sessionId: 't' }, [{ type: 'x' }]);
      expect(store.projects()).toEqual(['alpha', 'zeta']);
    });

    test('reportFor is null in the base store', async () => {
      const store = openStore();
      await store.append(main, transcript());
      await store.load(main);
      expect(store.reportFor(main)).toBeNull();
    });
  });

  describe('rekey', () => {
    test('moves transcripts, subagent transcripts and summaries to the new project key', async () => {
      const store = openStore();
      const other: SessionKey = { projectKey: PROJECT, sessionId: 'second' };
      await store.append(main, transcript());
      await store.append(subagent, subagentTranscript());
      await store.append(other, [{ type: 'x', uuid: 'x1' }]);
      await store.append({ projectKey: `${PROJECT}-2`, sessionId: 'untouched' }, [{ type: 'x' }]);
      const summaries = await store.listSessionSummaries(PROJECT);

      expect(store.rekey(PROJECT, '-moved-calc')).toBe(2);

      const moved = { ...main, projectKey: '-moved-calc' };
      expect(await store.load(moved)).toEqual(transcript());
      expect(await store.load({ ...subagent, projectKey: '-moved-calc' })).toEqual(subagentTranscript());
      expect(await store.listSessionSummaries('-moved-calc')).toEqual(summaries);
      expect(store.hasSession(PROJECT, SESSION)).toBe(false);
      expect(store.projects()).toEqual([`${PROJECT}-2`, '-moved-calc']);
      // De-duplication follows the moved transcript.
      await store.append({ projectKey: '-moved-calc', sessionId: 'second' }, [{ type: 'x', uuid: 'x1' }]);
      expect(await store.load({ projectKey: '-moved-calc', sessionId: 'second' })).toEqual([
        { type: 'x', uuid: 'x1' },
      ]);
    });

    test('leaves a session in place when the target already has that session id', async () => {
      const store = openStore();
      await store.append(main, transcript());
      await store.append({ ...main, sessionId: 'free' }, [{ type: 'x' }]);
      await store.append({ ...subagent, projectKey: 'target' }, [{ type: 'y' }]);
      expect(store.rekey(PROJECT, 'target')).toBe(1);
      expect(await store.load(main)).toEqual(transcript());
      expect(await store.load({ ...subagent, projectKey: 'target' })).toEqual([{ type: 'y' }]);
      expect(await store.load({ projectKey: 'target', sessionId: 'free' })).toEqual([{ type: 'x' }]);
      expect(store.rekey('target', 'target')).toBe(0);
    });
  });

  describe('subclass seam', () => {
    test('load passes stored entries through an overridable transform; loadRaw keeps the original', async () => {
      class Marking extends SqliteSessionStore {
        seen: SessionKey[] = [];
        protected override transform(key: SessionKey, entries: SessionStoreEntry[]): SessionStoreEntry[] {
          this.seen.push(key);
          return entries.map((entry) => ({ ...entry, marked: true }));
        }
        original(key: SessionKey) {
          return this.loadRaw(key);
        }
      }
      const store = new Marking(path);
      open.push(store);
      await store.append(main, [{ type: 'x', uuid: '1' }]);
      expect(await store.load(main)).toEqual([{ type: 'x', uuid: '1', marked: true }]);
      expect(store.original(main)).toEqual([{ type: 'x', uuid: '1' }]);
      expect(await store.load(subagent)).toBeNull();
      expect(store.seen).toEqual([main]);
    });
  });

  describe('WAL checkpoint', () => {
    const copyDatabaseAlone = () => {
      const copy = join(directory, 'copy', 'sessions.db');
      mkdirSync(join(directory, 'copy'), { recursive: true });
      copyFileSync(path, copy);
      return copy;
    };

    test('without a checkpoint the .db file alone misses recent entries', async () => {
      const store = openStore();
      await store.append(main, transcript());
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
      const copy = openStore({}, copyDatabaseAlone());
      expect(await copy.load(main)).toBeNull();
    });

    test('checkpoint folds the log into the file, which alone is then complete', async () => {
      const store = openStore();
      await store.append(main, transcript());
      store.checkpoint();
      expect(statSync(`${path}-wal`).size).toBe(0);
      expect(await openStore({}, copyDatabaseAlone()).load(main)).toEqual(transcript());
    });

    test('close checkpoints first and is idempotent; a closed store refuses work', async () => {
      const store = openStore();
      // Another connection stays open, so SQLite's own checkpoint-on-last-close does not happen.
      const other = openStore();
      await store.append(main, transcript());
      store.close();
      expect(await other.load(main)).toEqual(transcript());
      store.close();
      expect(existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0).toBe(0);
      expect(await openStore({}, copyDatabaseAlone()).load(main)).toEqual(transcript());
      await expect(store.load(main)).rejects.toThrow(/is closed/);
      expect(() => store.hasSession(PROJECT, SESSION)).toThrow(/is closed/);
    });
  });

  describe('opened on first use', () => {
    test('creates nothing until a call needs the file, and a close before that creates nothing', async () => {
      const untouched = openStore({ openOnFirstUse: true });
      untouched.checkpoint();
      untouched.close();
      expect(existsSync(path)).toBe(false);

      const store = openStore({ openOnFirstUse: true });
      expect(existsSync(path)).toBe(false);
      await store.append(main, transcript());
      expect(existsSync(path)).toBe(true);
      expect(await store.load(main)).toEqual(transcript());
    });

    test('a file that is not a database fails its first use with the same error, left untouched', async () => {
      mkdirSync(join(directory, 'runs'));
      const garbage = Buffer.from('this is not a database, it is a shopping list\n'.repeat(200));
      writeFileSync(path, garbage);
      const store = openStore({ openOnFirstUse: true });
      const message = new RegExp(`${path.replaceAll('.', '\\.')} cannot be read.*left untouched`);
      await expectFlowerError(() => store.open(), message);
      await expectFlowerError(() => store.append(main, transcript()), message);
      expect(readFileSync(path).equals(garbage)).toBe(true);
    });
  });

  describe('read-only', () => {
    test('reads an existing store and refuses to change it', async () => {
      const writer = openStore();
      await writer.append(main, transcript());
      writer.close();
      const store = openStore({ readonly: true });
      expect(await store.load(main)).toEqual(transcript());
      await expect(store.append(main, [{ type: 'x' }])).rejects.toThrow(/read-only/);
      await expect(store.delete(main)).rejects.toThrow(/read-only/);
      expect(() => store.rekey(PROJECT, 'other')).toThrow(/read-only/);
      store.checkpoint();
    });

    test('says so when there is no file, without creating one', async () => {
      await expectFlowerError(() => openStore({ readonly: true }), /No session store at .*sessions\.db/);
      expect(existsSync(path)).toBe(false);
    });
  });

  describe('unusable files', () => {
    test('refuses a file that is not a database, naming it and leaving it untouched', async () => {
      mkdirSync(join(directory, 'runs'));
      const garbage = Buffer.from('this is not a database, it is a shopping list\n'.repeat(200));
      writeFileSync(path, garbage);
      await expectFlowerError(
        () => openStore(),
        new RegExp(`${path.replaceAll('.', '\\.')} cannot be read.*left untouched`),
      );
      expect(readFileSync(path).equals(garbage)).toBe(true);
      expect(existsSync(`${path}-wal`)).toBe(false);
    });

    test('refuses another program’s SQLite database without adding tables to it', async () => {
      mkdirSync(join(directory, 'runs'));
      const database = new Database(path);
      database.exec('CREATE TABLE entries (id INTEGER PRIMARY KEY, title TEXT)');
      database.close();
      await expectFlowerError(() => openStore(), /not a flower session store.*column entries\.store_key/);
      expect(rawRows(path, "SELECT name FROM sqlite_master WHERE type = 'table'")).toEqual([
        { name: 'entries' },
      ]);
    });

    test.each([
      ['a rollback journal', 'DELETE'],
      ['WAL mode', 'WAL'],
    ])('leaves another program’s SQLite database in %s byte for byte as it was', async (_mode, journal) => {
      mkdirSync(join(directory, 'runs'));
      const database = new Database(path);
      database.pragma(`journal_mode = ${journal}`);
      database.exec('CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)');
      database.prepare('INSERT INTO users (name) VALUES (?)').run('ada');
      database.close();
      const before = readFileSync(path);
      await expectFlowerError(
        () => openStore(),
        /sessions\.db is another program's SQLite database, not a flower session store \(it holds users\)/,
      );
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(existsSync(`${path}-wal`)).toBe(false);
      expect(existsSync(`${path}-shm`)).toBe(false);
    });

    test('refuses a database that carries another program’s application id', async () => {
      mkdirSync(join(directory, 'runs'));
      const database = new Database(path);
      database.pragma('application_id = 1234');
      database.close();
      const before = readFileSync(path);
      await expectFlowerError(() => openStore(), /another program's application id/);
      expect(readFileSync(path).equals(before)).toBe(true);
    });

    test('names the key and row of a stored entry that is not JSON', async () => {
      const store = openStore();
      await store.append(main, [{ type: 'x' }]);
      const database = new Database(path);
      database.prepare('UPDATE entries SET payload = ?').run('{broken');
      database.close();
      await expectFlowerError(
        () => store.load(main),
        new RegExp(`${PROJECT}/${SESSION} #0 is not valid JSON`),
      );
    });
  });
});
