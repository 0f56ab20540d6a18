// `flower run` end to end against faults (acceptance): a 401 on every call stops fast with no waiting loop;
// a stream that stalls is cut by the watchdog and the same session resumed; a workspace moved together
// with its run directory resumes its session and says so; a hangup writes the in-flight row and the rerun
// resumes. Real SDK, real Claude Code binary, flower's fake Messages API.
import { existsSync, readFileSync, realpathSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { projectKey } from '../../src/agent/project-key.js';
import { readManifest } from '../../src/runtime/manifest.js';
import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  scratchEnvironment,
  type FakeRequest,
  type FakeResponse,
  type FakeScript,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';
import { bashStep, nextStep, progressOf, UsageMeter } from './support/plan-model.js';
import { WORK_PROMPT, writeWorkflow } from './support/workflow-fixture.js';

const projectKeyOf = (path: string): string => projectKey(realpathSync(path));

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
  server = null;
  scratch = null;
});

async function setUp(
  script: FakeScript,
): Promise<{ server: FakeAnthropicServer; scratch: ScratchEnvironment; target: string }> {
  server = await FakeAnthropicServer.start(script);
  scratch = await scratchEnvironment({ baseUrl: server.url });
  return { server, scratch, target: writeWorkflow(scratch.dir) };
}

/** A plan of `steps` Bash steps; `fault` may answer a step's first request otherwise. */
function plan(
  steps: number,
  fault: (step: number) => FakeResponse | undefined = () => undefined,
): FakeScript {
  const meter = new UsageMeter();
  return (request: FakeRequest) => {
    if (request.thread !== MAIN_THREAD) return meter.say('no subagents here');
    const progress = progressOf(request);
    const step = nextStep(progress, steps);
    if (step > steps) return meter.say('Plan finished.');
    return fault(step) ?? meter.answer([bashStep(step, progress)]);
  };
}

async function storeHolds(workspace: string, toolUseId: string): Promise<boolean> {
  const path = join(workspace, 'runs', 'sessions.db');
  if (!existsSync(path)) return false;
  const store = new SqliteSessionStore(path, { readonly: true });
  try {
    const projectKey = projectKeyOf(workspace);
    for (const { sessionId } of await store.listSessions(projectKey)) {
      const entries = await store.load({ projectKey, sessionId });
      if (JSON.stringify(entries).includes(`"tool_use_id":"${toolUseId}"`)) return true;
    }
    return false;
  } finally {
    store.close();
  }
}

function ranLog(workspace: string): string[] {
  return readFileSync(join(workspace, 'ran.log'), 'utf8').trim().split('\n');
}

describe('flower run against faults (e2e)', () => {
  test('stops as fatal within 10 s when every call answers 401: no retry, no waiting', async () => {
    const { server, scratch, target } = await setUp(() => ({ kind: 'status', status: 401 }));
    const started = Date.now();
    const run = new FlowerProcess(['-w', scratch.workspace, 'run', target], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    const exit = await run.exited;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(exit).toEqual({ code: 1, signal: null });
    expect(run.stderr).toContain('Looks like a credential problem');
    expect(run.stderr).toContain("Stopped: the 'work' step did not finish");
    expect(run.stderr).not.toMatch(/Attempt \d+ failed|unreachable|resuming/);
    const [row] = readManifest(join(scratch.workspace, 'runs'));
    expect(row).toMatchObject({
      ok: false,
      attempts: 1,
      resumed: false,
      error: expect.stringContaining('401') as unknown,
    });
    // flower's small CLI retry count: three calls, then the step ends.
    expect(server.calls.filter((call) => call.path === '/v1/messages').length).toBeLessThanOrEqual(3);
  });

  test('cuts a stalled stream after the watchdog time, then resumes the same session and finishes', async () => {
    let stalled = false;
    const { server, scratch, target } = await setUp(
      plan(4, (step) => {
        if (step !== 2 || stalled) return undefined;
        stalled = true;
        return { kind: 'stall', afterEvents: 3 };
      }),
    );
    const run = new FlowerProcess(['-w', scratch.workspace, 'run', target], {
      cwd: scratch.dir,
      env: { ...scratch.env, FLOWER_STALL_TIMEOUT: '5' },
    });
    const exit = await run.exited;
    expect(exit, run.stderr).toEqual({ code: 0, signal: null });
    const [row] = readManifest(join(scratch.workspace, 'runs'));
    expect(row).toMatchObject({ ok: true, attempts: 2, resumed: true, error: null });
    expect(row?.errors).toEqual(['stall: no SDK message for 5 s']);
    expect(run.lines.filter((line) => line.includes('No message from the agent for 5 s'))).toHaveLength(1);
    expect(run.stderr).toContain('Attempt 1 failed (transient)');
    expect(new Set(server.calls.map((call) => call.headers['x-claude-code-session-id'])).size).toBe(1);
    expect(ranLog(scratch.workspace)).toEqual(['step-01', 'step-02', 'step-03', 'step-04']);
  });

  test('resumes the same session after the workspace and its run directory moved, and says so', async () => {
    const { server, scratch, target } = await setUp(plan(2));
    const first = new FlowerProcess(['-w', 'workspace', 'run', target], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    expect(await first.exited, first.stderr).toEqual({ code: 0, signal: null });
    const callsBefore = server.calls.length;

    const moved = join(scratch.dir, 'moved workspace');
    renameSync(scratch.workspace, moved);
    const second = new FlowerProcess(['-w', 'moved workspace', 'run', target], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    expect(await second.exited, second.stderr).toEqual({ code: 0, signal: null });

    // The warning line wraps at the terminal width; its words are what matters.
    expect(second.stderr.replace(/\s+/g, ' ')).toContain(
      `! The workspace moved from ${scratch.workspace} to ${moved};`,
    );
    const rows = readManifest(join(moved, 'runs'));
    expect(rows).toHaveLength(2);
    expect(rows[1]?.session_id).toBe(rows[0]?.session_id);
    expect(rows[1]).toMatchObject({ ok: true });
    // The moved run's first request carries the earlier conversation, and no step ran again.
    const resumed = server.calls.slice(callsBefore).find((call) => call.path === '/v1/messages');
    expect(JSON.stringify(resumed?.body.messages)).toContain(WORK_PROMPT);
    expect(JSON.stringify(resumed?.body.messages)).toContain('echo step-02 >> ran.log');
    expect(resumed?.headers['x-claude-code-session-id']).toBe(rows[0]?.session_id);
    expect(ranLog(moved)).toEqual(['step-01', 'step-02']);
    expect(projectKey(moved)).not.toBe(projectKey(scratch.workspace));
  });

  test('SIGHUP writes the in-flight row and the same command resumes the session', async () => {
    let hung = false;
    let reached: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (reached = resolve));
    const { server, scratch, target } = await setUp(
      plan(3, (step) => {
        if (step !== 2 || hung) return undefined;
        hung = true;
        reached();
        return { kind: 'hang' };
      }),
    );
    const first = new FlowerProcess(['-w', scratch.workspace, 'run', target], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    await hanging;
    // Step 1's result reaches the store within ~50 ms of the tool's end (eager mirror); a hangup inside
    // that window would lose it, as any crash would.
    await until(() => storeHolds(scratch.workspace, 'toolu_s1_1'), "step 1's result in the store");
    // A closed terminal hangs up its whole process group: flower and the Claude Code child alike.
    process.kill(-first.child.pid!, 'SIGHUP');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGHUP' });
    const [killed] = readManifest(join(scratch.workspace, 'runs'));
    expect(killed).toMatchObject({ step: 'work', ok: false, error: 'killed-by-signal' });
    expect(killed?.ended_at).toBeGreaterThan(0);

    const second = new FlowerProcess(['-w', scratch.workspace, 'run', target], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    expect(await second.exited, second.stderr).toEqual({ code: 0, signal: null });
    const rows = readManifest(join(scratch.workspace, 'runs'));
    expect(rows.map((row) => row.session_id)).toEqual([killed?.session_id, killed?.session_id]);
    expect(new Set(server.calls.map((call) => call.headers['x-claude-code-session-id'])).size).toBe(1);
    expect(ranLog(scratch.workspace)).toEqual(['step-01', 'step-02', 'step-03']);
  });
});
