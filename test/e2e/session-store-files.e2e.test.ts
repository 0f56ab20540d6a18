// What the built CLI does to the files of a run folder's `sessions.db` when it only looks, or when the file is
// not flower's: another program's SQLite database is refused with one line and left byte for byte as it was,
// and waking in a finished run's folder, then ending the input at the prompt, changes no file at all (not even
// SQLite's -wal/-shm companions).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import { projectKey } from '../../src/agent/project-key.js';
import { Lineage } from '../../src/runtime/lineage.js';
import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  scriptTurns,
  text,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FLOWER_CLI } from './support/flower-process.js';

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await server?.close();
  await scratch?.cleanup();
  server = null;
  scratch = null;
});

/** Every path under `directory`, with a content hash for files: any creation, change or removal shows. */
function snapshot(directory: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const key = relative(directory, path);
      if (statSync(path).isDirectory()) {
        entries[key] = 'dir';
        walk(path);
      } else {
        entries[key] = createHash('sha256').update(readFileSync(path)).digest('hex');
      }
    }
  };
  walk(directory);
  return entries;
}

async function setUp(): Promise<ScratchEnvironment> {
  // One answer, so a flower that wrongly went ahead would finish with exit 0 and fail the test.
  server = await FakeAnthropicServer.start(scriptTurns({ main: [message([text('Done.')])] }));
  scratch = await scratchEnvironment({ baseUrl: server.url });
  return scratch;
}

function flower(args: string[], scratch: ScratchEnvironment, cwd: string) {
  // stdin closed at once: a prompt reads end of input.
  return execa('node', [FLOWER_CLI, ...args], {
    env: scratch.env,
    extendEnv: false,
    cwd,
    input: '',
    reject: false,
    timeout: 60_000,
  });
}

describe('sessions.db files (e2e)', () => {
  test('flower once refuses another program’s SQLite file named sessions.db and leaves it byte for byte', async () => {
    const scratch = await setUp();
    const workspace = scratch.workspace;
    const path = join(workspace, 'runs', 'sessions.db');
    mkdirSync(join(workspace, 'runs'));
    const database = new Database(path);
    database.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    database.prepare('INSERT INTO notes (body) VALUES (?)').run('keep me');
    database.close();
    const before = readFileSync(path);

    const run = await flower(['-w', workspace, 'once', 'say done'], scratch, workspace);

    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toEqual([
      `${path} is another program's SQLite database, not a flower session store (it holds notes). ` +
        'It was left untouched: move it away, or point flower at another run directory with --run-dir.',
    ]);
    expect(createHash('sha256').update(readFileSync(path)).digest('hex')).toBe(
      createHash('sha256').update(before).digest('hex'),
    );
    expect(readdirSync(join(workspace, 'runs')).filter((name) => name.startsWith('sessions.db'))).toEqual([
      'sessions.db',
    ]);
    expect(server?.calls).toHaveLength(0);
  });

  test('waking in a finished run’s folder, then end of input at the prompt, changes no file', async () => {
    const scratch = await setUp();
    const workspace = scratch.workspace;
    const notes = join(workspace, '.flower', 'notes');
    mkdirSync(notes, { recursive: true });
    writeFileSync(
      join(notes, 'brief.md'),
      '## Goal\nA date CLI.\n## Acceptance criteria\n- prints the date\n## Boundaries\nNo network.\n' +
        '## Unknowns and assumptions\nUTC.\n',
    );
    // What a finished run leaves: the lineage naming the work session, and a store closed cleanly (WAL mode,
    // checkpointed, no -wal/-shm beside it).
    const runDir = join(workspace, 'runs');
    Lineage.open(runDir, workspace).remember('work', 's-work');
    const store = new SqliteSessionStore(join(runDir, 'sessions.db'));
    await store.append({ projectKey: projectKey(workspace), sessionId: 's-work' }, [
      { type: 'assistant', uuid: 'u1', message: { usage: { input_tokens: 36_849 } } },
    ]);
    store.close();
    const before = snapshot(workspace);

    const run = await flower(['-w', workspace], scratch, workspace);

    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(snapshot(workspace)).toEqual(before);
    expect(server?.calls).toHaveLength(0);
  });
});
