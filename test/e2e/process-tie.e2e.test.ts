// Claude Code must not outlive flower, and one run must have one driver. `kill -9` of flower alone (not its
// process group) mid-turn — while a tool runs, and while a request hangs — must leave no process of the run
// within 5 s, and the fake API must see no request after the kill. A process a dead flower left behind
// (recorded in `processes.json`, carrying its token) is ended by the next flower before that one's first
// request. A second `flower` on a workspace whose `go` run is live only watches; once the holder is killed,
// the next one runs. Real SDK, real Claude Code binary, flower's fake Messages API.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { OWNER_TOKEN_VARIABLE } from '../../src/agent/tied-spawn.js';
import {
  isRunning,
  processStartTime,
  PROCESSES_FILE,
  type ProcessRecord,
} from '../../src/runtime/run-processes.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  message,
  scratchEnvironment,
  text,
  toolUse,
  type FakeRequest,
  type FakeResponse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';

/** The acceptance bound: no process of the run may remain this long after flower's death. */
const GONE_WITHIN_MS = 5_000;

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;
const strays: number[] = [];

afterEach(async () => {
  await killStrayFlowers();
  for (const pid of [...strays, ...(scratch === null ? [] : processesOf(scratch.dir))]) kill(pid);
  strays.length = 0;
  await server?.close();
  await scratch?.cleanup();
  server = null;
  scratch = null;
});

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Processes whose environment or command line names the scratch folder: every process of the run. */
function processesOf(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environment = readFileSync(`/proc/${entry}/environ`, 'utf8');
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (environment.includes(dir) || commandLine.includes(dir)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

function records(runDir: string): ProcessRecord[] {
  const path = join(runDir, PROCESSES_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ProcessRecord[]) : [];
}

/** Kills flower alone — its children are not signalled — and waits until none of the run's processes is left. */
async function killFlowerAlone(flower: FlowerProcess, dir: string): Promise<number> {
  const killedAt = Date.now();
  process.kill(flower.child.pid!, 'SIGKILL');
  await flower.exited;
  await until(() => processesOf(dir).length === 0, 'no process of the run left', GONE_WITHIN_MS);
  return killedAt;
}

describe('Claude Code tied to flower (e2e)', () => {
  test.each(['a tool runs', 'a request hangs'] as const)(
    'kill -9 of flower while %s leaves no process of the run and no further request',
    async (moment) => {
      const requestTimes: number[] = [];
      let reached: () => void = () => undefined;
      const atKillPoint = new Promise<void>((resolve) => (reached = resolve));
      server = await FakeAnthropicServer.start((request: FakeRequest): FakeResponse | undefined => {
        requestTimes.push(Date.now());
        if (request.thread !== MAIN_THREAD) return message([text('ok')]);
        if (request.turn === 0) {
          // The tool writes its pid, then runs far longer than the test; it is the test's kill point.
          const command =
            moment === 'a tool runs' ? 'echo $$ > tool.pid; sleep 300' : 'echo ready > ready.txt';
          return message([toolUse('Bash', { command, description: 'work' }, 'toolu_work_1')]);
        }
        if (moment === 'a request hangs') {
          reached();
          return { kind: 'hang' };
        }
        return message([text('done')]);
      });
      scratch = await scratchEnvironment({ baseUrl: server.url });
      const workspace = scratch.workspace;
      const runDir = join(workspace, 'runs');
      const flower = new FlowerProcess(['-w', workspace, 'once', '-t', 'Bash', 'work'], {
        cwd: scratch.dir,
        env: scratch.env,
      });
      if (moment === 'a tool runs') {
        await until(() => existsSync(join(workspace, 'tool.pid')), 'the tool running');
      } else {
        await atKillPoint;
      }
      // The child is recorded with its start time, so a later process can tell it from a reused pid.
      const own = records(runDir).find((record) => record.pid === flower.child.pid);
      expect(own?.children).toHaveLength(1);
      const child = own!.children[0]!;
      expect(child.started).toBe(processStartTime(child.pid));
      expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')).toContain('claude');

      const killedAt = await killFlowerAlone(flower, scratch.dir);
      expect(requestTimes.filter((time) => time > killedAt)).toEqual([]);
    },
  );

  test('a rerun ends what a dead flower left running on the run before its first request', async () => {
    let survivorAtFirstRequest: boolean | null = null;
    let survivor = { pid: 0, started: null as string | null };
    server = await FakeAnthropicServer.start((request) => {
      survivorAtFirstRequest ??= isRunning(survivor);
      return request.thread === MAIN_THREAD ? message([text('done')]) : message([text('ok')]);
    });
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const runDir = join(scratch.workspace, 'runs');
    mkdirSync(runDir, { recursive: true });
    // A stand-in for a killed flower: a process that has ended, and a "tool" of it still running with its
    // token, in a session of its own (as Claude Code's Bash tool runs), recorded as the child.
    const deadFlower = spawn('true');
    await new Promise((resolve) => deadFlower.once('exit', resolve));
    const token = 'deadbeefdeadbeef';
    const tool = spawn('sleep', ['300'], {
      detached: true,
      stdio: 'ignore',
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', [OWNER_TOKEN_VARIABLE]: token },
    });
    tool.unref();
    strays.push(tool.pid!);
    await until(() => processStartTime(tool.pid!) !== null, 'the stand-in tool started');
    survivor = { pid: tool.pid!, started: processStartTime(tool.pid!) };
    const dead: ProcessRecord = {
      pid: deadFlower.pid!,
      started: '1',
      host: hostname(),
      since: Math.floor(Date.now() / 1000) - 60,
      beat: Math.floor(Date.now() / 1000) - 60,
      token,
      go: true,
      sessions: [],
      children: [],
    };
    writeFileSync(join(runDir, PROCESSES_FILE), JSON.stringify([dead]));

    const flower = new FlowerProcess(['-w', scratch.workspace, 'once', 'hello'], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    expect(await flower.exited).toEqual({ code: 0, signal: null });
    expect(survivorAtFirstRequest).toBe(false);
    expect(isRunning(survivor)).toBe(false);
    // The dead process's record is gone, and so is the finished one's own.
    expect(records(runDir)).toEqual([]);
  });
});

describe('one driver per go run (e2e)', () => {
  test('a second flower only watches a live go run; after the holder is killed the next one runs', async () => {
    const requestTimes: number[] = [];
    let reached: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (reached = resolve));
    server = await FakeAnthropicServer.start(() => {
      requestTimes.push(Date.now());
      reached();
      return { kind: 'hang' };
    });
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const workspace = scratch.workspace;
    const options = { cwd: scratch.dir, env: scratch.env };
    const first = new FlowerProcess(['-w', workspace, 'build a clock'], options);
    await held;
    const before = requestTimes.length;

    const second = new FlowerProcess(['-w', workspace, 'build a clock'], options);
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.stderr).toContain(`live in another flower (pid ${first.child.pid}`);
    expect(second.stderr).toContain('flower ask');
    expect(requestTimes.length).toBe(before);
    const [holding] = records(join(workspace, 'runs')).filter((record) => record.go);
    expect(holding?.pid).toBe(first.child.pid);

    // `once` may share the run directory, but not the session the live run is continuing.
    const session = holding!.sessions[0]!;
    const sharing = new FlowerProcess(['-w', workspace, 'once', '--resume', session, 'go on'], options);
    expect(await sharing.exited).toEqual({ code: 1, signal: null });
    expect(sharing.lines.filter((line) => line.includes(session))).toEqual([
      expect.stringMatching(
        new RegExp(`^Session ${session} is being continued by another flower \\(pid ${first.child.pid},`),
      ),
    ]);
    expect(requestTimes.length).toBe(before);

    // A holder killed outright leaves its record behind; the next flower sees it is dead and runs.
    await killFlowerAlone(first, scratch.dir);
    const third = new FlowerProcess(['-w', workspace, 'build a clock'], options);
    await until(() => requestTimes.length > before, 'the next flower reaching the API');
    expect(third.stderr).not.toContain('live in another flower');
    const holders = records(join(workspace, 'runs')).filter((record) => record.go);
    expect(holders.map((record) => record.pid)).toEqual([third.child.pid]);
  });
});
