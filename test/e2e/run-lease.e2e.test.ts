// Run leases (docs/scaling.md) with two "hosts": two flower processes with different FLOWER_HOST names
// sharing one run directory, with a short stale time (FLOWER_LEASE_STALE=3 s, so a renewal every second).
// While host alpha drives the run, host beta only watches; after a kill -9 of alpha, beta takes over once
// the lease is stale, resumes the same session and finishes, and no step runs twice. A holder whose lease
// another process took stops before its next turn. Real CLI, SDK and Claude Code binary, fake Messages API.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { readManifest } from '../../src/runtime/manifest.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  scratchEnvironment,
  toolUse,
  type FakeRequest,
  type FakeResponse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';
import { bashStep, nextStep, progressOf, stepToolId, UsageMeter } from './support/plan-model.js';
import { writeWorkflow } from './support/workflow-fixture.js';

const STALE_S = 3;
const HEARTBEAT_S = 1;
const STEPS = 3;
const FINAL = 'All 3 steps are done.';

let server: FakeAnthropicServer;
let scratch: ScratchEnvironment;
let target = '';
let hold: 'hang' | 'fifo' | 'none' = 'hang';
let reachedStep2: () => void = () => undefined;
const meter = new UsageMeter();

function main(request: FakeRequest): FakeResponse {
  const progress = progressOf(request);
  const step = nextStep(progress, STEPS);
  if (step > STEPS) return meter.say(FINAL);
  if (step === 2 && hold === 'hang') {
    reachedStep2();
    return { kind: 'hang' };
  }
  if (step === 2 && hold === 'fifo') {
    // Step 2's tool blocks until the test lets it go: the holder is between two turns.
    reachedStep2();
    const command = `echo step-02 >> ran.log && cat ${fifo()} > /dev/null`;
    return meter.answer([toolUse('Bash', { command, description: 'wait' }, stepToolId(step, progress))]);
  }
  return meter.answer([bashStep(step, progress)]);
}

const fifo = (): string => join(scratch.dir, 'step-2.fifo');
let workspace = '';
const runDir = (): string => join(workspace, 'runs');

function flower(host: string): FlowerProcess {
  return new FlowerProcess(['-w', workspace, 'run', target], {
    cwd: scratch.dir,
    env: { ...scratch.env, FLOWER_HOST: host, FLOWER_LEASE_STALE: String(STALE_S) },
  });
}

function leaseRow(): { host: string; pid: number; token: string; since: number; beat: number } | undefined {
  const database = new Database(join(runDir(), 'sessions.db'), { readonly: true });
  try {
    return database
      .prepare("SELECT host, pid, token, since, beat FROM flower_leases WHERE run LIKE 'run:%'")
      .get() as { host: string; pid: number; token: string; since: number; beat: number } | undefined;
  } finally {
    database.close();
  }
}

/** Lets step 2's `cat` finish: opens the FIFO's writing end without waiting for a reader. */
function releaseFifo(): void {
  try {
    closeSync(openSync(fifo(), constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No reader (the tool is gone already): nothing to release.
  }
}

function messageCalls(): FakeRequest[] {
  return server.calls.filter((call) => call.path === '/v1/messages' && call.body.messages !== undefined);
}

beforeAll(async () => {
  server = await FakeAnthropicServer.start((request) =>
    request.thread === MAIN_THREAD ? main(request) : meter.say('unused'),
  );
  scratch = await scratchEnvironment({ baseUrl: server.url });
  target = writeWorkflow(scratch.dir);
  workspace = scratch.workspace;
  execFileSync('mkfifo', [fifo()]);
});

afterEach(async () => {
  await killStrayFlowers();
});

afterAll(async () => {
  await server?.close();
  await scratch?.cleanup();
});

describe('run leases across two hosts (e2e)', () => {
  test('after a kill -9 of the holder the other host takes over within the stale time plus a heartbeat; no step runs twice', async () => {
    hold = 'hang';
    const reached = new Promise<void>((resolve) => (reachedStep2 = resolve));
    const alpha = flower('alpha');
    await reached;
    expect(leaseRow()?.host).toBe('alpha');

    // While alpha lives, beta only watches: it prints the live holder and runs nothing.
    const callsBefore = messageCalls().length;
    const watcher = flower('beta');
    expect(await watcher.exited).toEqual({ code: 0, signal: null });
    expect(watcher.stderr).toContain(`pid ${alpha.child.pid} on alpha`);
    expect(messageCalls().length).toBe(callsBefore);

    // alpha dies without a word; from its last renewal, the lease is stale after STALE_S.
    const lastBeat = leaseRow()!.beat;
    expect(await alpha.crash()).toEqual({ code: null, signal: 'SIGKILL' });
    const killedAt = Date.now();
    hold = 'none';

    // beta tries again and again; it takes over only once the lease is stale, and then finishes.
    let beta: FlowerProcess;
    let tookOverAt: number;
    let takenAt: number;
    for (;;) {
      const startedAt = Date.now();
      beta = flower('beta');
      const exit = await Promise.race([
        beta.exited,
        until(() => leaseRow()?.host === 'beta', 'beta holding the lease', 20_000).then(
          () => 'took' as const,
        ),
      ]);
      if (exit === 'took') {
        tookOverAt = startedAt;
        takenAt = leaseRow()!.since;
        break;
      }
      expect(exit).toEqual({ code: 0, signal: null });
      expect(beta.stderr).toContain('on alpha');
      // Not before the stale time: a watcher never takes a lease that is still fresh.
      expect(Date.now() - lastBeat).toBeLessThan((STALE_S + HEARTBEAT_S) * 1000 + 2000);
    }
    // Never before the stale time: the lease was taken at least STALE_S after alpha's last renewal.
    expect(takenAt - lastBeat).toBeGreaterThanOrEqual(STALE_S * 1000);
    // Taken over by the first attempt that started after the stale time plus one heartbeat, at the latest.
    expect(tookOverAt - killedAt).toBeLessThanOrEqual((STALE_S + HEARTBEAT_S) * 1000 + 2000);
    expect(await beta.exited, beta.stderr).toEqual({ code: 0, signal: null });
    expect(beta.stderr).toContain('+ done');

    // One session throughout, and every step ran exactly once.
    const sessions = new Set(messageCalls().map((call) => call.headers['x-claude-code-session-id']));
    expect(sessions.size).toBe(1);
    expect(readFileSync(join(workspace, 'ran.log'), 'utf8').trim().split('\n')).toEqual([
      'step-01',
      'step-02',
      'step-03',
    ]);
    const rows = readManifest(runDir());
    expect(rows.at(-1)).toMatchObject({ ok: true, text: FINAL, session_id: [...sessions][0] });
    // beta released its lease when it finished.
    expect(leaseRow()).toBeUndefined();
  });

  test('a holder whose lease another process took stops before its next turn', async () => {
    // A run of its own, in another workspace.
    workspace = join(scratch.dir, 'second-workspace');
    mkdirSync(workspace);
    hold = 'fifo';
    const reached = new Promise<void>((resolve) => (reachedStep2 = resolve));
    const alpha = flower('alpha');
    await reached;
    await until(
      () =>
        existsSync(join(workspace, 'ran.log')) &&
        readFileSync(join(workspace, 'ran.log'), 'utf8').includes('step-02'),
      "step 2's tool running",
    );
    const callsBefore = messageCalls().length;

    // A partition healed late: another host wrote itself into the lease row.
    const database = new Database(join(runDir(), 'sessions.db'));
    database
      .prepare(
        "UPDATE flower_leases SET host = 'gamma', pid = 1, token = 'taken', beat = ? WHERE run LIKE 'run:%'",
      )
      .run(Date.now());
    database.close();

    // The tool ends now: its result is what would go back to the model in the next turn.
    releaseFifo();
    const exit = await alpha.exited;
    expect(exit.code).toBe(1);
    expect(alpha.stderr).toContain("This flower lost the run's lease (pid 1 on gamma holds it now)");
    // No turn after the one in flight: the result of step 2 was never sent to the model.
    expect(messageCalls().slice(callsBefore)).toEqual([]);
    expect(leaseRow()?.host).toBe('gamma');
  });
});
