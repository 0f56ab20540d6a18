// `flower ask` end to end: a real `flower run` child works against flower's fake Messages API and is held
// mid-run (the fake keeps one response back); meanwhile a second `flower ask` process in the same workspace
// answers from the running run's event log through the oracle on its own aside runtime. Then the run is
// released, and its next request carries neither the question nor the answer. Real SDK, real Claude Code.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readManifest } from '../../src/runtime/manifest.js';
import {
  FakeAnthropicServer,
  lastUserText,
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
import { WORK_PROMPT, writeWorkflow } from './support/workflow-fixture.js';

/** Opening words of the oracle's rule text: how the fake tells a side question from the run. */
const ORACLE_MARK = 'Your role: answer a question about a running run';
const QUESTION = 'what is it doing?';
const ANSWER = 'It is counting the widgets in the warehouse file.';
const SAID = 'Starting the plan: first I count the widgets.';

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
  server = null;
  scratch = null;
});

function isOracle(request: FakeRequest): boolean {
  return JSON.stringify(request.body?.system ?? '').includes(ORACLE_MARK);
}

function isRun(request: FakeRequest): boolean {
  return request.path === '/v1/messages' && !isOracle(request) && request.thread === MAIN_THREAD;
}

/** Everything the request sends the model, as one string to search. */
function sent(request: FakeRequest): string {
  return JSON.stringify({ system: request.body?.system, messages: request.body?.messages });
}

describe('flower ask (e2e)', () => {
  test('answers about a run in progress from another process, and the run never hears of it', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reached: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (reached = resolve));

    server = await FakeAnthropicServer.start(async (request) => {
      if (isOracle(request)) return message([text(ANSWER)]);
      if (request.thread !== MAIN_THREAD) return undefined;
      const turn: FakeResponse[] = [
        message([
          text(SAID),
          toolUse('Bash', { command: 'echo 42 > widgets.txt', description: 'count' }, 'toolu_c1'),
        ]),
        message([
          toolUse('Bash', { command: 'echo done >> widgets.txt', description: 'finish' }, 'toolu_c2'),
        ]),
        message([text('Counted 42 widgets.')]),
      ];
      if (request.turn === 1) {
        // The run's second call waits here until the test has asked its question.
        reached();
        await released;
      }
      return turn[request.turn];
    });
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const target = writeWorkflow(scratch.dir);
    const log = join(scratch.workspace, 'runs', 'events.jsonl');

    const run = new FlowerProcess(['-w', scratch.workspace, 'run', target], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    await held;
    await until(
      () => existsSync(log) && readFileSync(log, 'utf8').includes('echo 42 > widgets.txt'),
      'the tool call in events.jsonl',
    );
    const callsBeforeAsk = server.calls.filter(isRun).length;

    const ask = new FlowerProcess(['ask', QUESTION, '-w', scratch.workspace], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    expect(await ask.exited, ask.stderr).toEqual({ code: 0, signal: null });

    // The answer: stdout; the head and the cost line: stderr.
    expect(ask.stdout.join('')).toBe(`${ANSWER}\n`);
    expect(ask.lines[0]).toBe('# Aside · the oracle answers');
    expect(ask.stderr).toMatch(/\(\$\d+\.\d{4}, the running job was not disturbed\)/);
    expect(ask.stderr).not.toContain('no run is in progress');
    // The oracle saw the question and the run's recent events, from the log the running process writes.
    const oracleCalls = server.calls.filter(isOracle);
    expect(oracleCalls.length).toBeGreaterThanOrEqual(1);
    const prompt = lastUserText(oracleCalls[0]!);
    expect(prompt).toContain(QUESTION);
    expect(prompt).toContain(`[text·main] ${SAID}`);
    expect(prompt).toContain('[tool_call/Bash·main]');
    expect(prompt).toContain('echo 42 > widgets.txt');
    // The run was held the whole time: no call of its own while the question was answered.
    expect(server.calls.filter(isRun)).toHaveLength(callsBeforeAsk);

    release();
    expect(await run.exited, run.stderr).toEqual({ code: 0, signal: null });
    const after = server.calls.filter(isRun).slice(callsBeforeAsk);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(sent(after[0]!)).toContain('toolu_c2');
    expect(sent(after[0]!)).toContain(WORK_PROMPT);
    for (const call of server.calls.filter(isRun)) {
      expect(sent(call)).not.toContain(QUESTION);
      expect(sent(call)).not.toContain(ANSWER);
    }
    expect(readFileSync(join(scratch.workspace, 'widgets.txt'), 'utf8')).toBe('42\ndone\n');

    // The run's records hold only the run; the side question's row is in the aside folder.
    const runs = join(scratch.workspace, 'runs');
    expect(readManifest(runs).map((row) => row.step)).toEqual(['work']);
    expect(readManifest(join(runs, 'aside'))).toEqual([
      expect.objectContaining({ step: 'aside', ok: true, text: ANSWER }),
    ]);
    const events = readFileSync(log, 'utf8');
    expect(events).not.toContain(QUESTION);
    expect(events).not.toContain(ANSWER);
    expect(events.trim().split('\n').at(-1)).toMatch(/^\{"log":"close"/);
  });

  test('says no run has been recorded here and exits 1, without calling the API', async () => {
    server = await FakeAnthropicServer.start(() => undefined);
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const ask = new FlowerProcess(['-w', scratch.workspace, 'ask', QUESTION], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    expect(await ask.exited).toEqual({ code: 1, signal: null });
    expect(ask.lines).toEqual([
      `No run has been recorded here (${join(scratch.workspace, 'runs', 'events.jsonl')} does not exist). Start one with flower "…" or flower run <module>:<export>, then ask from another terminal.`,
    ]);
    expect(server.calls).toEqual([]);
  });
});
