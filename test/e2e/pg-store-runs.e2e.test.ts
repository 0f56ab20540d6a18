// Runs whose transcripts live in PostgreSQL (`--store` / `FLOWER_STORE`): the built CLI, the real SDK and its
// real Claude Code binary, flower's fake Messages API and a real PostgreSQL server started for this file.
// The location carries the password of the server's password-protected user, and no file flower leaves
// behind, no line it prints, may hold that password.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { projectKey } from '../../src/agent/project-key.js';
import { readManifest } from '../../src/runtime/manifest.js';
import { PgSessionStore } from '../../src/session/pg-session-store.js';
import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  message,
  scratchEnvironment,
  text,
  type FakeRequest,
  type FakeResponse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import {
  SECRET_PASSWORD,
  SECRET_USER,
  secretLocation,
  startPostgres,
  type PostgresServer,
} from '../support/postgres-server.js';
import { flowerCli, type FlowerCli } from './support/flower-cli.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';
import { bashStep, nextStep, progressOf, UsageMeter } from './support/plan-model.js';
import { WORK_PROMPT, writeWorkflow } from './support/workflow-fixture.js';
import { filesHolding } from './support/files-holding.js';

let postgres: PostgresServer;

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  await killStrayFlowers();
  await postgres?.stop();
});

/** The main transcripts the server holds for `workspace`. */
async function serverSessions(location: string, workspace: string): Promise<string[]> {
  const store = new PgSessionStore(location);
  try {
    return (await store.listSessions(projectKey(workspace))).map((item) => item.sessionId);
  } finally {
    await store.close();
  }
}

/** What the SQLite file of the run directory holds (transcripts), when it exists at all. */
function localProjects(runDir: string): string[] {
  const path = join(runDir, 'sessions.db');
  if (!existsSync(path)) return [];
  const store = new SqliteSessionStore(path, { readonly: true });
  try {
    return store.projects();
  } finally {
    store.close();
  }
}

/** The sessions the run directory's manifest names. */
function localSessions(runDir: string): string[] {
  return readManifest(runDir).map((row) => String(row.session_id));
}

describe('flower once --store postgres://… (e2e)', () => {
  let cli: FlowerCli;
  afterAll(async () => {
    await cli?.close();
  });

  test('stores the transcript in the server, resumes it from there, and never writes or prints the password', async () => {
    cli = await flowerCli((request: FakeRequest): FakeResponse =>
      request.thread === MAIN_THREAD && JSON.stringify(request.body.messages).includes('which word')
        ? message([text('tulip')])
        : message([text('noted')]),
    );
    const { scratch } = cli;
    const location = await secretLocation(postgres, 'once_store');
    const runDir = join(scratch.workspace, 'runs');

    const first = await cli.run(['once', '--store', location, 'remember the word tulip']);
    expect(first.exitCode, first.stderr).toBe(0);
    const sessions = await serverSessions(location, scratch.workspace);
    expect(sessions).toHaveLength(1);
    const [sessionId] = sessions as [string];
    expect(first.stderr).toContain(sessionId);
    // The run's records are on the server too: no manifest or lineage file in the run directory, and
    // `status --store` finds the step there (the same command without the store sees no step).
    expect(readdirSync(runDir).filter((name) => /^(manifest|lineage)\.json$/.test(name))).toEqual([]);
    const fromServer = await cli.run(['status', '--json', '--store', location]);
    expect(fromServer.exitCode, fromServer.stderr).toBe(0);
    expect(JSON.parse(fromServer.stdout)).toMatchObject({
      found: true,
      steps: [{ step: 'ad-hoc', state: 'ok', sessionId }],
    });
    const fromFiles = await cli.run(['status', '--json']);
    expect(JSON.parse(fromFiles.stdout)).toMatchObject({ steps: [] });
    // Nothing of the transcript in the run directory's SQLite file.
    expect(localProjects(runDir)).toEqual([]);
    // The local copy Claude Code keeps goes: the resume must come from the server.
    rmSync(join(runDir, 'claude', 'projects'), { recursive: true, force: true });

    const second = await cli.run(['once', '--resume', sessionId, '--store', location, 'which word?']);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toBe('tulip');
    expect(JSON.stringify(cli.server.calls.at(-1)?.body.messages)).toContain('remember the word tulip');
    expect(await serverSessions(location, scratch.workspace)).toEqual([sessionId]);
    expect(localProjects(runDir)).toEqual([]);

    // A session the server does not hold is refused by name, the location shown without its password.
    const missing = await cli.run(['once', '--resume', 'no-such-session', '--store', location, 'hi']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('no-such-session');
    expect(missing.stderr).toContain(`${SECRET_USER}:***@127.0.0.1`);

    const status = await cli.run(['status', '--store', location]);
    const printed = [first, second, missing, status].flatMap((run) => [run.stdout, run.stderr]).join('\n');
    expect(printed).not.toContain(SECRET_PASSWORD);
    expect(filesHolding(scratch.dir, SECRET_PASSWORD)).toEqual([]);
  });

  test('an unreachable server, a wrong password or a malformed location: one line, its exit code, nothing written', async () => {
    cli ??= await flowerCli(() => message([text('never asked')]));
    const { scratch } = cli;
    const good = new URL(await secretLocation(postgres, 'bad_input'));
    const wrong = new URL(good);
    wrong.password = 'wrong-Pa55';
    const closed = new URL(good);
    closed.port = '1'; // nothing listens on port 1 of 127.0.0.1
    const cases = [
      { location: wrong.toString(), code: 1, says: /password authentication failed/, secret: 'wrong-Pa55' },
      { location: closed.toString(), code: 1, says: /ECONNREFUSED/, secret: SECRET_PASSWORD },
      {
        location: `postgres://${SECRET_USER}:${SECRET_PASSWORD}@/db`,
        code: 2,
        says: /not a PostgreSQL URL/,
        secret: SECRET_PASSWORD,
      },
      { location: 'elsewhere.db', code: 2, says: /neither a PostgreSQL URL nor/, secret: SECRET_PASSWORD },
    ];
    // Every case through `once`; `go` (which checks before its prompt and its run directory) with one.
    const runs = [
      ...cases.map((item, index) => ({
        item,
        args: ['-w', `bad-${index}`, 'once', '--store', item.location, 'hi'],
      })),
      { item: cases[0]!, args: ['-w', 'bad-go', 'go', 'build a thing'] },
    ];
    for (const { item, args } of runs) {
      const run = await cli.run(args, { env: { FLOWER_STORE: item.location }, cwd: scratch.dir });
      expect(run.exitCode, `${args.join(' ')}: ${run.stderr}`).toBe(item.code);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(item.says)]);
      if (item.location.startsWith('postgres')) expect(run.stderr).toContain('***');
      expect(run.stderr + run.stdout).not.toContain(item.secret);
      expect(existsSync(join(scratch.dir, args[1]!, 'runs')), args.join(' ')).toBe(false);
    }
  });
});

describe('flower export --to postgres://… (e2e)', () => {
  test("copies a SQLite run's transcripts into the server, where once --resume --store finds the session", async () => {
    const cli = await flowerCli((request: FakeRequest): FakeResponse =>
      JSON.stringify(request.body.messages).includes('which colour')
        ? message([text('teal')])
        : message([text('noted')]),
    );
    try {
      const { scratch } = cli;
      const location = await secretLocation(postgres, 'exported_run');
      const first = await cli.run(['once', 'remember the colour teal']);
      expect(first.exitCode, first.stderr).toBe(0);
      const runDir = join(scratch.workspace, 'runs');
      const [sessionId] = localSessions(runDir);
      expect(sessionId).toBeDefined();

      const exported = await cli.run(['export', '--to', location]);
      expect(exported.exitCode, exported.stderr).toBe(0);
      expect(exported.stdout).toContain(`Copied 1 session(s)`);
      expect(exported.stdout).toContain(`${SECRET_USER}:***@`);
      expect(await serverSessions(location, scratch.workspace)).toEqual([sessionId]);
      // Again: what the server holds is left alone, never merged.
      const again = await cli.run(['export', '--to', location]);
      expect(again.stdout).toContain('Copied 0 session(s)');
      expect(again.stdout).toContain('1 already there, left alone');

      // The local transcript goes: the session now lives in the server only.
      rmSync(join(runDir, 'sessions.db'));
      rmSync(join(runDir, 'claude', 'projects'), { recursive: true, force: true });
      const resumed = await cli.run(['once', '--resume', sessionId!, '--store', location, 'which colour?']);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(resumed.stdout).toBe('teal');
      expect(JSON.stringify(cli.server.calls.at(-1)?.body.messages)).toContain('remember the colour teal');
      const printed = [first, exported, again, resumed].flatMap((run) => [run.stdout, run.stderr]).join('\n');
      expect(printed).not.toContain(SECRET_PASSWORD);
      expect(filesHolding(scratch.dir, SECRET_PASSWORD)).toEqual([]);
    } finally {
      await cli.close();
    }
  });
});

describe('flower run with FLOWER_STORE, killed with SIGKILL (e2e)', () => {
  const STEPS = 4;
  const KILL_AT = 3;
  let server: FakeAnthropicServer;
  let scratch: ScratchEnvironment;
  let killed = false;
  let reachedKill: () => void = () => undefined;
  const meter = new UsageMeter();

  beforeAll(async () => {
    server = await FakeAnthropicServer.start((request) => {
      const progress = progressOf(request);
      const step = nextStep(progress, STEPS);
      if (step > STEPS) return meter.say('All steps are done.');
      if (step === KILL_AT && !killed) {
        killed = true;
        reachedKill();
        return { kind: 'hang' };
      }
      return meter.answer([bashStep(step, progress)]);
    });
    scratch = await scratchEnvironment({ baseUrl: server.url });
  });

  afterAll(async () => {
    await killStrayFlowers();
    await server?.close();
    await scratch?.cleanup();
  });

  test('the rerun resumes the same session from the server; no completed tool runs twice', async () => {
    const location = await secretLocation(postgres, 'killed_run');
    const target = writeWorkflow(scratch.dir);
    const env = { ...scratch.env, FLOWER_STORE: location };
    const flower = () =>
      new FlowerProcess(['-w', scratch.workspace, 'run', target], { cwd: scratch.dir, env });
    const runDir = join(scratch.workspace, 'runs');

    const reached = new Promise<void>((resolve) => (reachedKill = resolve));
    const doomed = flower();
    await reached;
    // Step 2's result is in the server before the kill: the rerun must not run it again.
    await until(async () => {
      const store = new PgSessionStore(location);
      try {
        const key = projectKey(scratch.workspace);
        const [session] = await store.listSessions(key);
        if (session === undefined) return false;
        const entries = await store.load({ projectKey: key, sessionId: session.sessionId });
        return JSON.stringify(entries).includes('"tool_use_id":"toolu_s2_1"');
      } finally {
        await store.close();
      }
    }, "step 2's result in the server");
    expect(await doomed.crash()).toEqual({ code: null, signal: 'SIGKILL' });
    rmSync(join(runDir, 'claude', 'projects'), { recursive: true, force: true });

    const rerun = flower();
    const exit = await rerun.exited;
    expect(exit, rerun.stderr).toEqual({ code: 0, signal: null });

    const calls = server.calls.filter((call) => call.path === '/v1/messages');
    const sessions = new Set(calls.map((call) => call.headers['x-claude-code-session-id']));
    expect(sessions.size).toBe(1);
    expect(await serverSessions(location, scratch.workspace)).toEqual([...sessions]);
    expect(localProjects(runDir)).toEqual([]);
    // The rerun's first request already held the conversation up to the kill.
    const firstOfRerun = calls.find(
      (call, index) => index > 0 && JSON.stringify(call.body.messages).includes('toolu_s2_1'),
    );
    expect(JSON.stringify(firstOfRerun?.body.messages)).toContain(WORK_PROMPT);
    const ran = readFileSync(join(scratch.workspace, 'ran.log'), 'utf8').trim().split('\n');
    expect(ran).toEqual(['step-01', 'step-02', 'step-03', 'step-04']);
    expect(filesHolding(scratch.dir, SECRET_PASSWORD)).toEqual([]);
    expect(rerun.stderr + doomed.stderr).not.toContain(SECRET_PASSWORD);
  });
});

describe('two hosts on one PostgreSQL run (e2e)', () => {
  let server: FakeAnthropicServer;
  let scratch: ScratchEnvironment;
  let reachedStep2: () => void = () => undefined;
  let hung = false;
  const meter = new UsageMeter();

  beforeAll(async () => {
    server = await FakeAnthropicServer.start((request) => {
      const progress = progressOf(request);
      const step = nextStep(progress, 3);
      if (step > 3) return meter.say('All 3 steps are done.');
      // Only the first host hangs: a second driver (which must not exist) would finish at once.
      if (step === 2 && !hung) {
        hung = true;
        reachedStep2();
        return { kind: 'hang' };
      }
      return meter.answer([bashStep(step, progress)]);
    });
    scratch = await scratchEnvironment({ baseUrl: server.url });
  });

  afterAll(async () => {
    await killStrayFlowers();
    await server?.close();
    await scratch?.cleanup();
  });

  test('while one host drives the run, the other (its own workspace, same ?run=) only watches it from the server', async () => {
    const location = new URL(await secretLocation(postgres, 'two_hosts'));
    location.searchParams.set('run', 'shared');
    const target = writeWorkflow(scratch.dir);
    const flower = (host: string): FlowerProcess => {
      const workspace = join(scratch.dir, `host-${host}`);
      mkdirSync(workspace, { recursive: true });
      return new FlowerProcess(['-w', workspace, 'run', target], {
        cwd: scratch.dir,
        env: { ...scratch.env, FLOWER_HOST: host, FLOWER_STORE: location.toString() },
      });
    };
    const reached = new Promise<void>((resolve) => (reachedStep2 = resolve));
    const alpha = flower('alpha');
    await reached;
    const calls = server.calls.length;

    const beta = flower('beta');
    expect(await beta.exited, beta.stderr).toEqual({ code: 0, signal: null });
    expect(beta.stderr).toContain(`pid ${alpha.child.pid} on alpha`);
    // Where the run stands comes from alpha's rows on the server: beta's run directory has none.
    expect(beta.stderr).toContain('work · running');
    expect(existsSync(join(scratch.dir, 'host-beta', 'runs', 'manifest.json'))).toBe(false);
    expect(server.calls.length).toBe(calls);
    expect(await alpha.crash()).toEqual({ code: null, signal: 'SIGKILL' });
  });
});
