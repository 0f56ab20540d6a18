// Crash continuity (the first acceptance test): `flower run` on a scripted 30-turn step is killed
// with SIGKILL — flower, Claude Code and the tools together — at five points: mid-stream, mid-tool, between
// turns, during a subagent and right after the result. Each rerun of the same command must resume the same
// session, no tool that had completed may run twice, and the manifest total must equal what the fake's
// reported usage costs at list price. Real SDK, real Claude Code binary, flower's fake Messages API.
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import { readManifest } from '../../src/runtime/manifest.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  toolUse,
  scratchEnvironment,
  type FakeRequest,
  type FakeResponse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';
import { bashStep, nextStep, progressOf, stepToolId, UsageMeter } from './support/plan-model.js';
import { WORK_PROMPT, writeWorkflow } from './support/workflow-fixture.js';

const STEPS = 29; // 29 tool turns and the final answer: a 30-turn step
const MID_STREAM_STEP = 4;
const MID_TOOL_STEP = 9;
const BETWEEN_TURNS_STEP = 15;
const AGENT_STEP = 20;
const SUB_TOOL = 'toolu_sub_1';
const FINAL = 'All 29 steps are done.';

type Phase = 'mid-stream' | 'mid-tool' | 'between-turns' | 'subagent' | 'after-result' | 'finish';

let server: FakeAnthropicServer;
let scratch: ScratchEnvironment;
let phase: Phase = 'mid-stream';
let killPoint: () => void = () => undefined;
const faulted = new Set<Phase>();
const meter = new UsageMeter();
let subTaskDone = false;

/** Resolves when the script reaches this phase's kill point. */
function armKill(): Promise<void> {
  return new Promise((resolve) => (killPoint = resolve));
}

function once(which: Phase): boolean {
  if (phase !== which || faulted.has(which)) return false;
  faulted.add(which);
  return true;
}

function main(request: FakeRequest): FakeResponse {
  const progress = progressOf(request);
  const step = nextStep(progress, STEPS);
  if (step > STEPS) return meter.say(FINAL);
  if (step === MID_STREAM_STEP && once('mid-stream')) {
    killPoint();
    return { kind: 'stall', afterEvents: 3 };
  }
  if (step === BETWEEN_TURNS_STEP && once('between-turns')) {
    killPoint();
    return { kind: 'hang' };
  }
  if (step === MID_TOOL_STEP && once('mid-tool')) {
    // Tells the test it is running (the FIFO write blocks until the test reads), then keeps running.
    const command = `echo $$ > tool.pid && echo begun-09 >> begun.log && echo running > ${fifo()} && sleep 120`;
    return meter.answer([
      toolUse('Bash', { command, description: 'a long step' }, stepToolId(step, progress)),
    ]);
  }
  if (step === AGENT_STEP) {
    const input = {
      description: 'side task',
      prompt: 'Do the side task.',
      subagent_type: 'helper',
      run_in_background: false,
    };
    return meter.answer([toolUse('Agent', input, stepToolId(step, progress))]);
  }
  return meter.answer([bashStep(step, progress)]);
}

function subagent(request: FakeRequest): FakeResponse {
  const results = progressOf(request).results;
  // Like a model that checks the disk first: a side task done by an earlier, killed subagent is not redone.
  if (results.get(SUB_TOOL) === true) subTaskDone = true;
  if (results.get(SUB_TOOL) === true && once('subagent')) {
    killPoint();
    return { kind: 'hang' };
  }
  if (subTaskDone) return meter.say('Side task done.');
  return meter.answer([toolUse('Bash', { command: 'echo sub-1 >> ran.log', description: 'side' }, SUB_TOOL)]);
}

function killSession(leader: number): void {
  try {
    process.kill(-leader, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function fifo(): string {
  return join(scratch.dir, 'tool-running.fifo');
}

function flower(): FlowerProcess {
  return new FlowerProcess(['-w', scratch.workspace, 'run', target], { cwd: scratch.dir, env: scratch.env });
}

let target = '';
const database = (): string => join(scratch.workspace, 'runs', 'sessions.db');

/** True once the store holds, in the main transcript or a subagent's, a block with this tool id. */
async function stored(
  kind: 'tool_use' | 'tool_result',
  toolId: string,
  where: 'main' | 'subagent' = 'main',
): Promise<boolean> {
  if (!existsSync(database())) return false;
  const store = new SqliteSessionStore(database(), { readonly: true });
  try {
    const projectKey = store.projects()[0];
    if (projectKey === undefined) return false;
    const sessions = await store.listSessions(projectKey);
    for (const { sessionId } of sessions) {
      const keys =
        where === 'main'
          ? [{ projectKey, sessionId }]
          : (await store.listSubkeys({ projectKey, sessionId })).map((subpath) => ({
              projectKey,
              sessionId,
              subpath,
            }));
      for (const key of keys) {
        const entries = (await store.load(key)) ?? [];
        const field = kind === 'tool_use' ? '"id":"' : '"tool_use_id":"';
        if (JSON.stringify(entries).includes(`${field}${toolId}"`)) return true;
      }
    }
    return false;
  } finally {
    store.close();
  }
}

async function storedText(value: string): Promise<boolean> {
  if (!existsSync(database())) return false;
  const store = new SqliteSessionStore(database(), { readonly: true });
  try {
    const projectKey = store.projects()[0];
    if (projectKey === undefined) return false;
    for (const { sessionId } of await store.listSessions(projectKey)) {
      if (JSON.stringify(await store.load({ projectKey, sessionId })).includes(value)) return true;
    }
    return false;
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  server = await FakeAnthropicServer.start((request) =>
    request.thread === MAIN_THREAD ? main(request) : subagent(request),
  );
  scratch = await scratchEnvironment({ baseUrl: server.url });
  target = writeWorkflow(scratch.dir);
  execFileSync('mkfifo', [fifo()]);
});

afterAll(async () => {
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
});

describe('flower run after SIGKILL (e2e)', () => {
  test('resumes the same session after each of five kills, repeats no completed tool, and accounts every response', async () => {
    const runs: FlowerProcess[] = [];
    const crash = async (run: FlowerProcess): Promise<void> => {
      expect(await run.crash()).toEqual({ code: null, signal: 'SIGKILL' });
    };

    // 1. Mid-stream: the answer to step 4 has begun streaming; step 3's result is on disk.
    phase = 'mid-stream';
    let reached = armKill();
    runs.push(flower());
    await reached;
    await until(() => stored('tool_result', 'toolu_s3_1'), "step 3's result in the store");
    await crash(runs[0]!);

    // 2. Mid-tool: step 9's Bash command is running.
    phase = 'mid-tool';
    const running = new Promise<void>((resolve) => createReadStream(fifo()).once('data', () => resolve()));
    runs.push(flower());
    await running;
    await until(() => stored('tool_use', 'toolu_s9_1'), "step 9's call in the store");
    await crash(runs[1]!);
    // Claude Code starts each Bash command in a session of its own, out of reach of the group kill; a real
    // crash takes it down too.
    killSession(Number(readFileSync(join(scratch.workspace, 'tool.pid'), 'utf8')));

    // 3. Between turns: step 14's result is stored, the request for step 15 has arrived.
    phase = 'between-turns';
    reached = armKill();
    runs.push(flower());
    await reached;
    await until(() => stored('tool_result', 'toolu_s14_1'), "step 14's result in the store");
    await crash(runs[2]!);

    // 4. During a subagent: its Bash call has completed, its next request hangs.
    phase = 'subagent';
    reached = armKill();
    runs.push(flower());
    await reached;
    await until(() => stored('tool_result', SUB_TOOL, 'subagent'), "the subagent's result in the store");
    await crash(runs[3]!);

    // 5. Right after the result: the final answer is shown and stored, and so is the running total the
    // child saves after a result (the next child restarts its total from it; flower must subtract it).
    phase = 'after-result';
    runs.push(flower());
    await runs[4]!.waitForLine(/^\s+\+ done /);
    await until(() => storedText(FINAL), 'the final answer in the store');
    await until(() => storedText('"type":"cost-state"'), 'the saved running total in the store');
    await crash(runs[4]!);

    // 6. The same command once more finishes.
    phase = 'finish';
    runs.push(flower());
    const last = await runs[5]!.exited;
    expect(last, runs[5]!.stderr).toEqual({ code: 0, signal: null });
    expect(runs[5]!.stderr).toContain('+ done');

    // One session throughout: every request of every process carried it.
    const calls = server.calls.filter((call) => call.path === '/v1/messages');
    const sessions = new Set(calls.map((call) => call.headers['x-claude-code-session-id']));
    expect(sessions.size).toBe(1);
    expect(server.unexpectedCalls).toEqual([]);
    // Each process after the first resumed the conversation: its first request already held the plan prompt
    // and earlier steps' calls.
    const rows = readManifest(join(scratch.workspace, 'runs'));
    expect(rows).toHaveLength(6);
    const [sessionId] = sessions;
    expect(rows.every((row) => row.session_id === sessionId && row.step === 'work')).toBe(true);
    // The killed processes' rows were completed by the next start; the fifth may have finished its row
    // between the result and the kill.
    expect(rows.slice(0, 4).map((row) => row.error)).toEqual(Array(4).fill('killed-by-signal'));
    expect(rows.every((row) => row.ended_at > 0)).toBe(true);
    expect(rows[4]?.error === 'killed-by-signal' || rows[4]?.ok === true).toBe(true);
    expect(rows[5]).toMatchObject({ ok: true, error: null, text: FINAL });
    expect(JSON.stringify(calls.at(-1)?.body.messages)).toContain(WORK_PROMPT);

    // No completed tool ran twice; the one killed mid-run ran again once, to completion.
    const ran = readFileSync(join(scratch.workspace, 'ran.log'), 'utf8').trim().split('\n');
    const expected = [
      ...Array.from({ length: STEPS }, (_, index) => `step-${String(index + 1).padStart(2, '0')}`),
      'sub-1',
    ]
      .filter((line) => line !== `step-${AGENT_STEP}`)
      .sort();
    expect([...ran].sort()).toEqual(expected);
    expect(readFileSync(join(scratch.workspace, 'begun.log'), 'utf8')).toBe('begun-09\n');

    // Every response the fake completed is in the manifest, once, at the child's list price.
    const total = rows.reduce((sum, row) => sum + row.cost_usd, 0);
    expect(Math.abs(total - meter.totalUsd)).toBeLessThan(1e-9);
  });
});
