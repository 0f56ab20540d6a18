import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import { TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import {
  SECRET_PASSWORD,
  SECRET_USER,
  startPostgres,
  type PostgresServer,
} from '../../test/support/postgres-server.js';
import type { SessionKey } from '../agent/claude-sdk.js';
import { FlowerError } from '../errors.js';
import type { Entry } from './entry-content.js';
import { EphemeralPolicy } from './ephemeral-policy.js';
import type { FlowerSessionStore } from './flower-session-store.js';
import { PgFlowerStore } from './pg-flower-store.js';
import { PrunePolicy } from './prune-policy.js';
import { PruningSessionStore } from './pruning-session-store.js';
import type { JournalledCall } from './tool-journal.js';
import { TrimPolicy } from './trim-policy.js';

let server: PostgresServer;
let directory: string;
let counter = 0;
const closing: Array<{ close(): unknown }> = [];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'flower-pg-flower-'));
});
afterEach(async () => {
  for (const store of closing.splice(0)) await store.close();
  rmSync(directory, { recursive: true, force: true });
});

/** A fresh database for each test, so no test sees another's rows. */
async function freshDatabase(): Promise<string> {
  counter += 1;
  return await server.createDatabase(`flower_store_${counter}`);
}

const policies = () => ({
  ephemeral: new EphemeralPolicy({ keepRecent: 1 }),
  trim: new TrimPolicy({ keepRecent: 1, minChars: 1000 }),
  prune: new PrunePolicy({ keepDenials: 0 }),
});

/** Glances, large reads, a denial, an API-error leaf, a reply cut after its tool call, two lost calls. */
function builtSession(): { key: SessionKey; main: Entry[]; subagent: Entry[]; lost: JournalledCall[] } {
  const transcript = new TranscriptBuilder();
  transcript.prompt('go');
  for (let index = 0; index < 4; index += 1) transcript.bash('git status', `clean ${index}`);
  transcript.denied('rm -rf /');
  for (const letter of ['a', 'b', 'c']) transcript.read(`/w/${letter}.txt`, letter.repeat(3000));
  transcript.apiError();
  transcript.prompt('again');
  const id = transcript.toolId();
  transcript.reply([{ type: 'tool_use', id, name: 'Edit', input: { file_path: '/w/a.txt' } }]);
  const sessionId = String(transcript.entries.find((entry) => entry['sessionId'])?.['sessionId']);
  const subagent = new TranscriptBuilder();
  subagent.prompt('look');
  subagent.read('/w/d.txt', 'd'.repeat(3000));
  subagent.read('/w/e.txt', 'e'.repeat(3000));
  const last = Date.parse(String(transcript.entries.at(-1)?.['timestamp'])) + 1;
  const lost = ['toolu_lost_main', 'toolu_lost_sub'].map((toolUseId, position) => ({
    sessionId,
    toolUseId,
    agentId: position === 0 ? null : 'a1',
    toolName: 'Bash',
    input: { command: 'make' },
    startedAt: Number.isNaN(last) ? Date.UTC(2026, 0, 1) : last,
  }));
  return {
    key: { projectKey: '-workspace', sessionId },
    main: transcript.entries,
    subagent: subagent.entries,
    lost,
  };
}

/** What a load gives, with the workspace folder named neutrally so two workspaces compare equal. */
function seen(entries: readonly Entry[] | null, workspace: string): unknown {
  return JSON.parse(JSON.stringify(entries).replaceAll(workspace, '<workspace>')) as unknown;
}

function spillFiles(workspace: string): Record<string, string> {
  const folder = join(workspace, '.flower', 'spill');
  const files: Record<string, string> = {};
  if (!existsSync(folder)) return files;
  for (const name of readdirSync(folder)) files[name] = readFileSync(join(folder, name), 'utf8');
  return files;
}

describe('PgFlowerStore', () => {
  test('loads exactly what PruningSessionStore loads: every layer, and the journal kept on the server', async () => {
    const { key, main, subagent, lost } = builtSession();
    const subagentKey = { ...key, subpath: 'subagents/agent-a1' };
    const sqliteWorkspace = join(directory, 'workspace-1');
    const pgWorkspace = join(directory, 'workspace-2');
    const sqlite = new PruningSessionStore(join(directory, 'sessions.db'), sqliteWorkspace, {
      ...policies(),
      journal: true,
    });
    const database = await freshDatabase();
    const postgres = new PgFlowerStore(database, pgWorkspace, { ...policies(), journal: true });
    closing.push(sqlite, postgres);
    for (const store of [sqlite, postgres] as FlowerSessionStore[]) {
      await store.append(key, main);
      await store.append(subagentKey, subagent);
    }
    for (const call of lost) {
      sqlite.toolJournal!.record(call);
      await postgres.toolJournal!.record(call);
      // A retried hook keeps the first row.
      await postgres.toolJournal!.record({ ...call, startedAt: call.startedAt + 5 });
    }
    for (const target of [key, subagentKey]) {
      expect(seen(await postgres.load(target), pgWorkspace)).toEqual(
        seen(await sqlite.load(target), sqliteWorkspace),
      );
      expect(postgres.reportFor(target)).toEqual(sqlite.reportFor(target));
    }
    // Every layer did something, the journal included, so "the same" is not "both did nothing".
    expect(postgres.reportFor(key)).toMatchObject({ expired: 3, cleared: 2, pruned: 1, denialsDropped: 1 });
    expect(postgres.reportFor(key)?.healed).toBeGreaterThanOrEqual(2);
    await postgres.spillsWritten();
    await sqlite.spillsWritten();
    expect(spillFiles(pgWorkspace)).toEqual(spillFiles(sqliteWorkspace));
    expect(Object.keys(spillFiles(pgWorkspace))).not.toHaveLength(0);
    // The journal is a table on the server, beside the transcripts; storage is never rewritten by a load.
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      const rows = await client.query<{ tool_use_id: string; started_at: string }>(
        'SELECT tool_use_id, started_at FROM flower.tool_calls ORDER BY tool_use_id',
      );
      expect(rows.rows).toEqual(
        lost.map((call) => ({ tool_use_id: call.toolUseId, started_at: String(call.startedAt) })),
      );
    } finally {
      await client.end();
    }
    expect(await postgres.base.load(key)).toEqual(main);
  });

  test("answers flower's own questions as the SQLite store does", async () => {
    const sqlite = new PruningSessionStore(join(directory, 'sessions.db'), directory);
    const postgres = new PgFlowerStore(await freshDatabase(), directory);
    closing.push(sqlite, postgres);
    const turn = (tokens: number) => ({
      type: 'assistant',
      uuid: `a${tokens}`,
      message: {
        usage: { input_tokens: 1, cache_read_input_tokens: tokens, cache_creation_input_tokens: 2 },
      },
    });
    const answers = async (store: PruningSessionStore | PgFlowerStore) => {
      await store.append({ projectKey: '-a', sessionId: 's1' }, [
        turn(100),
        turn(250),
        { type: 'user', uuid: 'u1' },
      ]);
      await store.append({ projectKey: '-a', sessionId: 's2' }, [{ type: 'user', uuid: 'u2' }]);
      await store.append({ projectKey: '-a', sessionId: 's2', subpath: 'subagents/agent-x' }, [
        { type: 'user' },
      ]);
      await store.append({ projectKey: '-b', sessionId: 's2' }, [{ type: 'user', uuid: 'u3' }]);
      const before = {
        has: [await store.hasSession('-a', 's1'), await store.hasSession('-a', 'nope')],
        context: [await store.lastContext('-a', 's1'), await store.lastContext('-a', 's1', 1)],
        projects: await store.projects(),
      };
      // s2 exists under the target already: it stays where it is; s1 moves with its summary.
      const moved = await store.rekey('-a', '-b');
      const after = {
        moved,
        projects: await store.projects(),
        a: (await store.listSessions('-a')).map((item) => item.sessionId),
        b: (await store.listSessions('-b')).map((item) => item.sessionId),
        summaries: (await store.listSessionSummaries('-b')).map((item) => item.sessionId),
        movedEntries: await store.load({ projectKey: '-b', sessionId: 's1' }),
        kept: await store.listSubkeys({ projectKey: '-a', sessionId: 's2' }),
      };
      await store.checkpoint();
      return { before, after };
    };
    const fromSqlite = await answers(sqlite);
    const fromPostgres = await answers(postgres);
    expect(fromPostgres).toEqual(fromSqlite);
    expect(fromPostgres.before).toEqual({ has: [true, false], context: [253, 0], projects: ['-a', '-b'] });
    expect(fromPostgres.after.moved).toBe(1);
  });

  test('refuses a wrong password with one line that never shows it', async () => {
    const database = await freshDatabase();
    const url = new URL(database);
    url.username = SECRET_USER;
    url.password = 'not-the-password';
    const store = new PgFlowerStore(url.toString(), directory, { journal: true });
    closing.push(store);
    const failure = await store.ready().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(FlowerError);
    expect((failure as FlowerError).code).toBe('STORE_UNREADABLE');
    const message = (failure as Error).message;
    expect(message).toContain('password authentication failed');
    expect(message).toContain(`${SECRET_USER}:***@`);
    expect(message).not.toContain('not-the-password');
    expect(message).not.toContain('\n');
    // With the right one it works, journal table and all.
    url.password = SECRET_PASSWORD;
    const right = new PgFlowerStore(url.toString(), directory, { journal: true });
    closing.push(right);
    await right.ready();
  });
});
