// The run lease handed over between two "hosts" through the real CLI, on a real PostgreSQL server: two
// `flower run` processes with different FLOWER_HOST names, each with its own HOME, Claude Code config and run
// directory (`-r` on its "local disk"), sharing only the server and the workspace folder — a shared volume,
// mounted at the same path on both hosts, as the container's `/project` is. Host A drives a scripted
// four-step run and is SIGKILLed (its whole process group) while waiting for a model answer; host B, started
// again and again, only watches while the lease is fresh, takes over once it is stale (FLOWER_LEASE_STALE=4,
// a renewal every 4/3 s), resumes the same session and finishes; no step's tool runs twice. A holder whose
// lease row another host took stops before its next turn. With one run directory on the shared volume
// instead, host A's process record left there does not hold host B back once the lease is stale
// (docs/decisions.md D464).
// Real CLI, SDK and Claude Code binary, fake Messages API; timings are taken from the server's clock and
// from events, never from sleeps.
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

import { projectKey } from '../../src/agent/project-key.js';
import { PgSessionStore } from '../../src/session/pg-session-store.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  scratchEnvironment,
  toolUse,
  type FakeRequest,
  type FakeResponse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';
import { bashStep, nextStep, progressOf, stepToolId, UsageMeter } from './support/plan-model.js';
import { WORK_PROMPT, writeWorkflow } from './support/workflow-fixture.js';

const STALE_S = 4;
const HEARTBEAT_S = STALE_S / 3;
const STEPS = 4;
const FINAL = `All ${STEPS} steps are done.`;
const TARGET = 'flows.mjs:main';
const LEASE = `run:${TARGET}`;

let postgres: PostgresServer;
let server: FakeAnthropicServer;
/** One scratch environment per host: its HOME, TMPDIR, Claude Code config, and (under it) its run directory. */
const hosts = new Map<string, ScratchEnvironment>();
const meter = new UsageMeter();
/** The shared volume: one folder both hosts see at the same path (the project's files are the shared work). */
let volume = '';
/** The test's own connections, closed after each test. */
const clients: pg.Client[] = [];

/** How the scripted model answers the next main-thread request for plan step 3 (the step host A stops at). */
let atStep3: 'hang' | 'fifo' | 'answer' = 'answer';
let reachedStep3: () => void = () => undefined;
/** How many times the model was answered with each step's tool call: a repeated turn shows here. */
const toolAnswers = new Map<number, number>();

function main(request: FakeRequest): FakeResponse {
  const progress = progressOf(request);
  const step = nextStep(progress, STEPS);
  if (step > STEPS) return meter.say(FINAL);
  if (step === 3 && atStep3 === 'hang') {
    // Once: host A waits here for an answer that never comes; whoever asks next is answered.
    atStep3 = 'answer';
    reachedStep3();
    return { kind: 'hang' };
  }
  toolAnswers.set(step, (toolAnswers.get(step) ?? 0) + 1);
  if (step === 3 && atStep3 === 'fifo') {
    // Step 3's tool blocks until the test lets it go: the holder is between two turns.
    reachedStep3();
    const command = `echo step-03 >> ran.log && cat ${fifo()} > /dev/null`;
    return meter.answer([toolUse('Bash', { command, description: 'wait' }, stepToolId(step, progress))]);
  }
  return meter.answer([bashStep(step, progress)]);
}

const fifo = (): string => join(hosts.get('host-a')!.dir, 'step-3.fifo');

/** Lets step 3's `cat` finish: opens the FIFO's writing end without waiting for a reader. */
function releaseFifo(): void {
  try {
    closeSync(openSync(fifo(), constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No reader (the tool is gone already): nothing to release.
  }
}

beforeAll(async () => {
  postgres = await startPostgres();
  server = await FakeAnthropicServer.start((request) =>
    request.thread === MAIN_THREAD ? main(request) : meter.say('unused'),
  );
  for (const name of ['host-a', 'host-b']) {
    const scratch = await scratchEnvironment({ baseUrl: server.url });
    // Each host has its own copy of the workflow module, as each machine has flower and the project's code.
    writeWorkflow(scratch.dir);
    hosts.set(name, scratch);
  }
  execFileSync('mkfifo', [fifo()]);
  volume = mkdtempSync(join(tmpdir(), 'flower-volume-'));
}, 60_000);

afterEach(async () => {
  releaseFifo();
  await killStrayFlowers();
  for (const client of clients.splice(0)) await client.end().catch(() => undefined);
});

afterAll(async () => {
  await server?.close();
  for (const scratch of hosts.values()) await scratch.cleanup();
  if (volume !== '') rmSync(volume, { recursive: true, force: true });
  await postgres?.stop();
});

/**
 * One run on the server: its database, a client for the test, and the path each host sees the workspace at
 * (the same folder on the shared volume, unless a test mounts it elsewhere for one host).
 */
interface SharedRun {
  url: string;
  name: string;
  client: pg.Client;
  workspaces: Map<string, string>;
  /** `?run=` in every host's location, when the run is named rather than known by its folder's name. */
  runName?: string;
  /** One run directory both hosts use, on the shared volume; by default each host's own, on its own disk. */
  sharedRunDir?: string;
}

async function sharedRun(name: string): Promise<SharedRun> {
  const url = await postgres.createDatabase(name);
  // The workspace on the shared volume; its base name is the run's name in the server.
  const workspace = join(volume, name);
  mkdirSync(workspace, { recursive: true });
  const client = new pg.Client({ connectionString: url });
  // A server stopping under a client the test has not closed yet must not fail the whole run.
  client.on('error', () => undefined);
  await client.connect();
  clients.push(client);
  return { url, name, client, workspaces: new Map([...hosts.keys()].map((host) => [host, workspace])) };
}

/** `flower run` on `host`: its own environment and run directory, the shared workspace and store. */
function flowerOn(host: string, run: SharedRun, command: string[] = ['run', TARGET]): FlowerProcess {
  const scratch = hosts.get(host)!;
  // Named connections: the test can see the server drop a killed host's sessions.
  const named = run.runName === undefined ? '' : `&run=${run.runName}`;
  const location = `${run.url}?application_name=flower_${host.replace('-', '_')}${named}`;
  const runDir = run.sharedRunDir ?? join(scratch.dir, 'runs', run.name);
  return new FlowerProcess(['-w', run.workspaces.get(host)!, '-r', runDir, '--store', location, ...command], {
    cwd: scratch.dir,
    env: { ...scratch.env, FLOWER_HOST: host, FLOWER_LEASE_STALE: String(STALE_S) },
  });
}

interface LeaseRow {
  host: string;
  pid: number;
  /** Server epoch milliseconds. */
  since: number;
  beat: number;
}

async function leaseRow(client: pg.Client): Promise<LeaseRow | undefined> {
  const result = await client.query<LeaseRow>(
    `SELECT host, pid, (extract(epoch FROM since) * 1000)::float8 AS since,
       (extract(epoch FROM beat) * 1000)::float8 AS beat
     FROM flower.flower_leases WHERE lease = $1`,
    [LEASE],
  );
  return result.rows[0];
}

/** The server's clock now, epoch milliseconds. */
async function serverNow(client: pg.Client): Promise<number> {
  const result = await client.query<{ now: number }>(
    'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now',
  );
  return result.rows[0]!.now;
}

/** Waits until the server holds no session of `host` (its `kill -9` is seen, anything it sent is settled). */
async function serverDropped(client: pg.Client, host: string): Promise<void> {
  const name = `flower_${host.replace('-', '_')}`;
  await until(async () => {
    const open = await client.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [name]);
    return open.rowCount === 0;
  }, `the server dropping ${host}'s connections`);
}

/** The model's main-thread requests from the `from`-th call the fake received on (earlier tests' too). */
function messageCalls(from = 0): FakeRequest[] {
  return server.calls
    .slice(from)
    .filter((call) => call.path === '/v1/messages' && call.thread === MAIN_THREAD);
}

function ranLog(workspace: string): string[] {
  return readFileSync(join(workspace, 'ran.log'), 'utf8').trim().split('\n');
}

/**
 * Host A drives the run of `run` until the model's answer for step 3, and is killed (its process group, -9)
 * once step 2's result is in the server; host B watches while the lease is fresh, takes over once it is
 * stale, and finishes the same session. `afterKill` runs between the kill and host B's first attempt.
 * Returns host B's stderr.
 */
async function handOver(run: SharedRun, afterKill: () => void = () => undefined): Promise<string> {
  const first = server.calls.length;
  atStep3 = 'hang';
  toolAnswers.clear();
  const reached = new Promise<void>((resolve) => (reachedStep3 = resolve));
  const alpha = flowerOn('host-a', run);
  await reached;
  expect((await leaseRow(run.client))?.host).toBe('host-a');
  // Step 2's result is in the server before the kill: host B must not run it again.
  await until(async () => {
    const store = new PgSessionStore(run.url);
    try {
      const key = projectKey(run.workspaces.get('host-a')!);
      const [session] = await store.listSessions(key);
      if (session === undefined) return false;
      const entries = await store.load({ projectKey: key, sessionId: session.sessionId });
      return JSON.stringify(entries).includes('"tool_use_id":"toolu_s2_1"');
    } finally {
      await store.close();
    }
  }, "step 2's result in the server");

  // While host A lives, host B attaches read-only: it says who drives the run, where it stands (from
  // the server's rows), and asks the model nothing.
  const callsBefore = messageCalls(first).length;
  const watcher = flowerOn('host-b', run);
  expect(await watcher.exited, watcher.stderr).toEqual({ code: 0, signal: null });
  expect(watcher.stderr).toContain(`This run is live in another flower (pid ${alpha.child.pid} on host-a`);
  expect(watcher.stderr).toContain('watching only, no step runs here');
  expect(watcher.stderr).toContain('work · running');
  expect(messageCalls(first).length).toBe(callsBefore);
  // `flower status` there names the driver on the other host, from the lease on the server.
  const status = flowerOn('host-b', run, ['status']);
  expect(await status.exited, status.stderr).toEqual({ code: 0, signal: null });
  // From the lease on the server, or from host A's record in a shared processes.json (its machine's name).
  const driver = run.sharedRunDir === undefined ? 'host-a' : hostname();
  expect(status.stdout.join('')).toContain(`live: pid ${alpha.child.pid} on ${driver}`);

  expect(await alpha.crash()).toEqual({ code: null, signal: 'SIGKILL' });
  await serverDropped(run.client, 'host-a');
  afterKill();
  const last = (await leaseRow(run.client))!;
  expect(last.host).toBe('host-a');

  // Host B tries again and again, each attempt a fresh `flower`, as a person or a supervisor would.
  const attempts: Array<{ startedAt: number; watched: boolean }> = [];
  let beta: FlowerProcess;
  for (;;) {
    const startedAt = await serverNow(run.client);
    beta = flowerOn('host-b', run);
    const outcome = await Promise.race([
      beta.exited,
      until(async () => (await leaseRow(run.client))?.host === 'host-b', 'host B holding the lease').then(
        () => 'took' as const,
      ),
    ]);
    if (outcome === 'took') {
      attempts.push({ startedAt, watched: false });
      break;
    }
    expect(outcome, beta.stderr).toEqual({ code: 0, signal: null });
    expect(beta.stderr).toContain(`pid ${alpha.child.pid} on host-a`);
    attempts.push({ startedAt, watched: true });
    expect(attempts.length, 'attempts before the take-over').toBeLessThan(40);
  }
  const taken = (await leaseRow(run.client))!;
  const exit = await beta.exited;
  expect(exit, beta.stderr).toEqual({ code: 0, signal: null });
  expect(beta.stderr).toContain('+ done');

  // On the server's clock: never taken before host A's last renewal was STALE_S old; and no attempt that
  // started after that only watched (each one then took over).
  const gapMs = taken.since - last.beat;
  expect(gapMs).toBeGreaterThanOrEqual(STALE_S * 1000);
  for (const attempt of attempts.filter((item) => item.watched))
    expect(attempt.startedAt).toBeLessThan(last.beat + STALE_S * 1000);
  const taker = attempts.at(-1)!;
  console.info(
    `lease handover: taken ${(gapMs / 1000).toFixed(2)} s after host A's last renewal ` +
      `(stale ${STALE_S} s, heartbeat ${HEARTBEAT_S.toFixed(2)} s); the taking attempt started ` +
      `${((taker.startedAt - last.beat) / 1000).toFixed(2)} s after it; ${attempts.length - 1} watched before`,
  );

  // One session throughout — in the model's requests and in the run's rows on the server — resumed
  // with the conversation up to the kill, and every step's tool ran exactly once.
  const calls = messageCalls(first);
  const sessions = new Set(calls.map((call) => call.headers['x-claude-code-session-id']));
  expect(sessions.size).toBe(1);
  const [sessionId] = [...sessions];
  const firstOfB = calls.find((call, index) => index >= callsBefore && call.body !== undefined);
  expect(JSON.stringify(firstOfB?.body.messages)).toContain('toolu_s2_1');
  expect(JSON.stringify(firstOfB?.body.messages)).toContain(WORK_PROMPT);
  expect(Object.fromEntries(toolAnswers)).toEqual({ 1: 1, 2: 1, 3: 1, 4: 1 });
  expect(ranLog(run.workspaces.get('host-b')!)).toEqual(['step-01', 'step-02', 'step-03', 'step-04']);
  const rows = (
    await run.client.query<{ data: string }>('SELECT data FROM flower.flower_manifest_rows ORDER BY position')
  ).rows.map((row) => JSON.parse(row.data) as { session_id: string; ok: boolean; text: string });
  expect(rows.map((row) => row.session_id)).toEqual(rows.map(() => sessionId));
  expect(rows.at(-1)).toMatchObject({ ok: true, text: FINAL });
  // Nothing of the run in host B's run directory but its own per-host files; the lease given back.
  const runDirOfB = run.sharedRunDir ?? join(hosts.get('host-b')!.dir, 'runs', run.name);
  expect(existsSync(join(runDirOfB, 'manifest.json'))).toBe(false);
  expect(await leaseRow(run.client)).toBeUndefined();
  return beta.stderr;
}

describe('the run lease handed over between two hosts on PostgreSQL (e2e)', () => {
  test(
    'after a kill -9 of host A, host B watches while the lease is fresh, then takes over the same session; no turn runs twice',
    { timeout: 120_000 },
    async () => {
      const run = await sharedRun('handover');
      await handOver(run);
    },
  );

  test(
    "with one run directory on the shared volume, host B takes over as soon as the lease is stale, not when host A's process record ages out",
    { timeout: 120_000 },
    async () => {
      // Both hosts use `<workspace>/runs` on the volume (the default run directory), so host A's process
      // record stays in the shared processes.json after its kill -9. Written on another machine it names that
      // machine and counts as live for 90 s after its last heartbeat, longer than the lease goes stale; the
      // two "hosts" here share one machine name, so the record is given another one, as host A's would be.
      const base = await sharedRun('shared_dir');
      const run = { ...base, sharedRunDir: join(base.workspaces.get('host-a')!, 'runs') };
      await handOver(run, () => {
        const file = join(run.sharedRunDir, 'processes.json');
        const records = JSON.parse(readFileSync(file, 'utf8')) as Array<{ host: string }>;
        expect(records.map((record) => record.host)).toEqual([hostname()]);
        writeFileSync(file, JSON.stringify(records.map((record) => ({ ...record, host: 'machine-a' }))));
      });
    },
  );

  test(
    'host B that sees the shared volume at another path takes over the same session of the named run, re-keyed',
    { timeout: 120_000 },
    async () => {
      // Both hosts name the run (`?run=`): with a run directory of its own, host B's path is not where host A's
      // run directory expects the workspace, and only the name says it is the same run.
      const run = { ...(await sharedRun('moved')), runName: 'shared-run' };
      // Host B mounts the volume elsewhere: a copy of the folder as host A left it stands for that mount,
      // taken once host A is gone.
      const mount = join(hosts.get('host-b')!.dir, 'mnt', run.name);
      mkdirSync(mount, { recursive: true });
      run.workspaces.set('host-b', mount);
      const stderr = await handOver(run, () =>
        cpSync(run.workspaces.get('host-a')!, mount, { recursive: true }),
      );
      expect(stderr).toContain(`The workspace moved from ${run.workspaces.get('host-a')} to ${mount}`);
      // The session now lives under host B's project key on the server, and under no other.
      const store = new PgSessionStore(run.url);
      try {
        const sessionId = messageCalls().at(-1)?.headers['x-claude-code-session-id'];
        expect((await store.listSessions(projectKey(mount))).map((item) => item.sessionId)).toEqual([
          sessionId,
        ]);
        expect(await store.listSessions(projectKey(run.workspaces.get('host-a')!))).toEqual([]);
      } finally {
        await store.close();
      }
    },
  );

  test("a holder whose lease row another host took stops before its next turn, with the taker's name", async () => {
    const run = await sharedRun('stolen');
    const workspace = run.workspaces.get('host-a')!;
    atStep3 = 'fifo';
    const reached = new Promise<void>((resolve) => (reachedStep3 = resolve));
    const alpha = flowerOn('host-a', run);
    await reached;
    await until(
      () => existsSync(join(workspace, 'ran.log')) && ranLog(workspace).includes('step-03'),
      "step 3's tool running",
    );
    const callsBefore = messageCalls().length;

    // A partition healed late: host C wrote itself into the lease row on the server.
    await run.client.query(
      `UPDATE flower.flower_leases SET host = 'host-c', pid = 1, token = 'taken',
         since = clock_timestamp(), beat = clock_timestamp() WHERE lease = $1`,
      [LEASE],
    );
    // The tool ends now: its result is what would go back to the model in the next turn.
    releaseFifo();
    const exit = await alpha.exited;
    expect(exit.code, alpha.stderr).toBe(1);
    expect(alpha.stderr).toContain("This flower lost the run's lease (pid 1 on host-c holds it now)");
    // No turn after the one in flight: step 3's result never went to the model.
    expect(messageCalls().slice(callsBefore)).toEqual([]);
    expect((await leaseRow(run.client))?.host).toBe('host-c');
  });
});
