import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { OWNER_TOKEN_VARIABLE } from '../agent/tied-spawn.js';
import {
  FOREIGN_STALE_S,
  HEARTBEAT_S,
  isLive,
  isRunning,
  OWN_TOKEN,
  processStartTime,
  PROCESSES_FILE,
  RunProcesses,
  type ProcessRecord,
} from './run-processes.js';

let runDir: string;
const started: ChildProcess[] = [];

beforeEach(() => {
  runDir = mkdtempSync(join(tmpdir(), 'flower-run-processes-'));
});

afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  rmSync(runDir, { recursive: true, force: true });
});

/** A running process, carrying `token` in its environment when given. */
async function sleeper(token?: string): Promise<ChildProcess> {
  const child = spawn('sleep', ['60'], {
    stdio: 'ignore',
    env: { PATH: '/usr/bin:/bin', ...(token === undefined ? {} : { [OWNER_TOKEN_VARIABLE]: token }) },
  });
  started.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child;
}

async function endedProcess(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

function record(overrides: Partial<ProcessRecord>): ProcessRecord {
  const now = Math.floor(Date.now() / 1000);
  return {
    pid: 1,
    started: null,
    host: hostname(),
    since: now,
    beat: now,
    token: 'other',
    go: false,
    sessions: [],
    children: [],
    ...overrides,
  };
}

function onDisk(): ProcessRecord[] {
  return JSON.parse(readFileSync(join(runDir, PROCESSES_FILE), 'utf8')) as ProcessRecord[];
}

function exited(child: ChildProcess): Promise<unknown> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', resolve));
}

describe('process identity', () => {
  test('a pid counts as the same process only with the same start time', async () => {
    const child = await sleeper();
    const identity = { pid: child.pid!, started: processStartTime(child.pid!) };
    expect(identity.started).toMatch(/^\d+$/);
    expect(isRunning(identity)).toBe(true);
    // The same pid with another start time is a reused pid: not the recorded process.
    expect(isRunning({ pid: child.pid!, started: '1' })).toBe(false);
    expect(isRunning({ pid: await endedProcess(), started: null })).toBe(false);
  });

  test('a record of another host is live while its heartbeat is fresh', () => {
    const now = Date.now() / 1000;
    const foreign = record({ host: `${hostname()}-elsewhere`, pid: 999_999 });
    expect(isLive({ ...foreign, beat: now - 10 }, now)).toBe(true);
    expect(isLive({ ...foreign, beat: now - FOREIGN_STALE_S - 1 }, now)).toBe(false);
  });
});

describe('RunProcesses', () => {
  test('a session claimed by a live process is refused; one of a dead process is taken over', async () => {
    const holder = await sleeper();
    const live = record({ pid: holder.pid!, started: processStartTime(holder.pid!), sessions: ['s1'] });
    const dead = record({ pid: await endedProcess(), started: '1', sessions: ['s2'] });
    writeFileSync(join(runDir, PROCESSES_FILE), JSON.stringify([live, dead]));
    const processes = new RunProcesses(runDir, 'test');

    expect(processes.claimSession('s1')).toEqual({ kind: 'in-use', holder: live });
    expect(processes.claimSession('s2')).toEqual({ kind: 'claimed' });
    expect(processes.claimSession('s3')).toEqual({ kind: 'claimed' });
    const own = onDisk().find((entry) => entry.pid === process.pid);
    expect(own?.sessions).toEqual(['s2', 's3']);
    expect(own?.token).toBe(OWN_TOKEN);
    processes.leave();
    expect(onDisk().map((entry) => entry.pid)).toEqual([holder.pid, dead.pid]);
  });

  test('enter() with go attaches to a live holder and claims nothing', async () => {
    const holder = await sleeper();
    const live = record({ pid: holder.pid!, started: processStartTime(holder.pid!), go: true });
    writeFileSync(join(runDir, PROCESSES_FILE), JSON.stringify([live]));
    const processes = new RunProcesses(runDir, 'test');
    expect(processes.goHolder()).toEqual(live);
    expect(processes.enter({ go: true })).toEqual(live);
    expect(onDisk()).toEqual([live]);
  });

  test("holding the run's lease, another host's fresh record claims neither its session nor go; this host's still does", async () => {
    const holder = await sleeper();
    const foreign = record({ host: `${hostname()}-elsewhere`, pid: 999_999, sessions: ['s1'], go: true });
    const local = record({ pid: holder.pid!, started: processStartTime(holder.pid!), sessions: ['s2'] });
    writeFileSync(join(runDir, PROCESSES_FILE), JSON.stringify([foreign, local]));
    // Without the lease (`once`), the other host's record counts until its heartbeat is old.
    expect(new RunProcesses(runDir, 'test').claimSession('s1')).toEqual({ kind: 'in-use', holder: foreign });
    expect(new RunProcesses(runDir, 'test').goHolder()).toEqual(foreign);

    const leased = new RunProcesses(runDir, 'test', { leased: true });
    expect(leased.goHolder()).toBeNull();
    expect(leased.claimSession('s1')).toEqual({ kind: 'claimed' });
    expect(leased.claimSession('s2')).toEqual({ kind: 'in-use', holder: local });
    expect(leased.enter({ go: true })).toBeNull();
    // The other host's record stays: only its own host can end what it left running.
    expect(onDisk().map((entry) => entry.pid)).toEqual([foreign.pid, holder.pid, process.pid]);
    leased.leave();
  });

  test('enter() ends what a dead process left running, drops its record and claims go', async () => {
    const left = await sleeper('dead-token');
    const bystander = await sleeper('another-token');
    const dead = record({ pid: await endedProcess(), started: '1', token: 'dead-token', go: true });
    writeFileSync(join(runDir, PROCESSES_FILE), JSON.stringify([dead]));
    const processes = new RunProcesses(runDir, 'test');
    expect(processes.goHolder()).toBeNull();
    expect(processes.enter({ go: true })).toBeNull();
    await exited(left);
    expect(left.signalCode).toBe('SIGKILL');
    expect(bystander.exitCode).toBeNull();
    expect(bystander.signalCode).toBeNull();
    const records = onDisk();
    expect(records.map((entry) => [entry.pid, entry.go])).toEqual([[process.pid, true]]);
    // Its own record is never a holder to itself.
    expect(processes.goHolder()).toBeNull();
    processes.leave();
    expect(onDisk()).toEqual([]);
  });

  test('an ended child costs no write of its own: the next write of the record drops it', async () => {
    const processes = new RunProcesses(runDir, 'test');
    processes.enter();
    const first = await sleeper();
    const second = await sleeper();
    processes.addChild(first.pid!);
    const written = readFileSync(join(runDir, PROCESSES_FILE), 'utf8');
    processes.removeChild(first.pid!);
    // Nothing was written for the ended child (docs/decisions.md D232)…
    expect(readFileSync(join(runDir, PROCESSES_FILE), 'utf8')).toBe(written);
    // …and the next write leaves it out, while a child started since is kept.
    processes.addChild(second.pid!);
    expect(onDisk()[0]!.children.map((child) => child.pid)).toEqual([second.pid]);
    processes.removeChild(second.pid!);
    processes.claimSession('sess-1');
    expect(onDisk()[0]!).toMatchObject({ children: [], sessions: ['sess-1'] });
    // A pid the system gave again after its child ended is a child of its own.
    processes.removeChild(first.pid!);
    processes.addChild(first.pid!);
    expect(onDisk()[0]!.children.map((child) => child.pid)).toEqual([first.pid]);
    processes.leave();
    expect(onDisk()).toEqual([]);
  });

  test('the heartbeat refreshes the record, and never brings back one that was removed', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const holder = new RunProcesses(runDir, 'test');
      holder.enter({ go: true });
      const first = onDisk()[0]!.beat;
      vi.advanceTimersByTime(HEARTBEAT_S * 1000);
      expect(onDisk()[0]!.beat).toBe(first + HEARTBEAT_S);
      // Another instance for the same directory in this process (the runtime's) removes the record.
      new RunProcesses(runDir, 'test').leave();
      vi.advanceTimersByTime(HEARTBEAT_S * 1000);
      expect(onDisk()).toEqual([]);
      holder.leave();
    } finally {
      vi.useRealTimers();
    }
  });
});
