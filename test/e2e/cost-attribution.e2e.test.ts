// Cost where it went (acceptance, issue 17): a run whose worker is killed with SIGKILL while its subagent is
// mid-turn, then resumed to the end. The spend attributed per role and per subagent — by `flower status
// --json` from the store, and by the manifest rows' `cost_by` — must equal the usage the fake reported,
// priced at list, exactly once: the resumed process re-reads the transcript and must not count it again.
// Real SDK, real Claude Code binary, flower's fake Messages API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readManifest } from '../../src/runtime/manifest.js';
import type { RunStatus } from '../../src/runtime/run-status.js';
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

const STEPS = 3;
const AGENT_STEP = 2;
const SUB_TOOL = 'toolu_sub_1';
const TASK = 'Count the lines of ran.log';
const FINAL = 'The plan is done.';

let server: FakeAnthropicServer;
let scratch: ScratchEnvironment;
const mainMeter = new UsageMeter();
const subMeter = new UsageMeter();
/** Resolved when the first subagent's second request arrives: it hangs there until the kill. */
let killPoint: () => void = () => undefined;
let killed = false;

function main(request: FakeRequest): FakeResponse {
  const progress = progressOf(request);
  const step = nextStep(progress, STEPS);
  if (step > STEPS) return mainMeter.say(FINAL);
  if (step === AGENT_STEP) {
    const input = {
      description: 'count lines',
      prompt: `${TASK}\nand report the number.`,
      subagent_type: 'helper',
      run_in_background: false,
    };
    return mainMeter.answer([toolUse('Agent', input, stepToolId(step, progress))]);
  }
  return mainMeter.answer([bashStep(step, progress)]);
}

function subagent(request: FakeRequest): FakeResponse {
  const results = progressOf(request).results;
  if (results.get(SUB_TOOL) === true) {
    if (!killed) {
      killed = true;
      killPoint();
      return { kind: 'hang' };
    }
    return subMeter.say('3 lines.');
  }
  return subMeter.answer([toolUse('Bash', { command: 'wc -l < ran.log', description: 'count' }, SUB_TOOL)]);
}

beforeAll(async () => {
  server = await FakeAnthropicServer.start((request) =>
    request.thread === MAIN_THREAD ? main(request) : subagent(request),
  );
  scratch = await scratchEnvironment({ baseUrl: server.url });
});

afterAll(async () => {
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
});

describe('cost where it went (e2e)', () => {
  test('per-role and per-subagent sums equal the fake usage at list price, once, across a SIGKILL and resume', async () => {
    const target = writeWorkflow(scratch.dir);
    const runDir = join(scratch.workspace, 'runs');
    const options = { cwd: scratch.dir, env: scratch.env };
    const flower = (): FlowerProcess => new FlowerProcess(['-w', scratch.workspace, 'run', target], options);

    const reached = new Promise<void>((resolve) => (killPoint = resolve));
    const first = flower();
    await reached;
    // The subagent's first response is priced into the in-flight row before the kill.
    await until(
      () => (readManifest(runDir)[0]?.cost_by?.subagents.length ?? 0) > 0,
      "the subagent's spend in the manifest",
    );
    expect(await first.crash()).toEqual({ code: null, signal: 'SIGKILL' });

    const second = flower();
    expect(await second.exited, second.stderr).toEqual({ code: 0, signal: null });
    expect(server.unexpectedCalls).toEqual([]);

    const status = new FlowerProcess(['-w', scratch.workspace, 'status', '--json'], options);
    expect(await status.exited, status.stderr).toEqual({ code: 0, signal: null });
    const spend = (JSON.parse(status.stdout.join('')) as RunStatus).spend!;
    const expected = mainMeter.totalUsd + subMeter.totalUsd;
    expect(spend.totalUsd).toBeCloseTo(expected, 12);
    expect(spend.responses).toBe(mainMeter.sent.length + subMeter.sent.length);
    expect(spend.roles).toHaveLength(1);
    expect(spend.roles[0]!.role).toBe('coordinator');
    expect(spend.roles[0]!.usd).toBeCloseTo(expected, 12);
    expect(spend.mainUsd).toBeCloseTo(mainMeter.totalUsd, 12);
    // Two dispatches of the helper: the one killed mid-turn (its parent never got its result) and the one
    // the resumed worker sent again; each keeps its worker name and task line.
    expect(spend.subagents).toHaveLength(2);
    for (const subagent of spend.subagents) {
      expect(subagent).toMatchObject({
        type: 'helper',
        description: 'count lines',
        task: TASK,
        step: 'work',
      });
    }
    const subagentUsd = spend.subagents.reduce((sum, subagent) => sum + subagent.usd, 0);
    expect(subagentUsd).toBeCloseTo(subMeter.totalUsd, 12);

    // The manifest's rows hold the same attribution, each response in exactly one row.
    const rows = readManifest(runDir);
    expect(rows).toHaveLength(2);
    const rowMain = rows.reduce((sum, row) => sum + (row.cost_by?.main_usd ?? 0), 0);
    const rowSub = rows
      .flatMap((row) => row.cost_by?.subagents ?? [])
      .reduce((sum, subagent) => sum + subagent.cost_usd, 0);
    expect(rowMain).toBeCloseTo(mainMeter.totalUsd, 12);
    expect(rowSub).toBeCloseTo(subMeter.totalUsd, 12);
    expect(rows.flatMap((row) => row.cost_by?.subagents.map((subagent) => subagent.task) ?? [])).toEqual([
      TASK,
      TASK,
    ]);

    // The text form lists the top spenders with the worker's name and its task line.
    const text = new FlowerProcess(['-w', scratch.workspace, 'status'], options);
    expect(await text.exited).toEqual({ code: 0, signal: null });
    expect(text.stdout.join('')).toContain(
      `Top spenders ($${expected.toFixed(4)} priced from the session store):`,
    );
    expect(text.stdout.join('')).toContain(`by role: coordinator $${expected.toFixed(4)}`);
    expect(text.stdout.join('')).toMatch(new RegExp(`helper · \\$\\d\\.\\d{4} · work · "${TASK}"`));
    expect(readFileSync(join(scratch.workspace, 'ran.log'), 'utf8')).toContain('step-03');
  });
});
