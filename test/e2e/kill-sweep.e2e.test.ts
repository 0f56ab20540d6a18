// The kill sweep: a short plan of Bash steps, each appending one numbered line to `lines.txt`, is killed with
// SIGKILL (flower, Claude Code and their process group) at many points — request k of the plan, k = 1…STEPS,
// and then OFFSETS ms after it reached the fake API, which spreads the kills over the streamed answer, the
// permission hook, the tool itself (each step sleeps after its append) and the mirroring of the turn into
// sessions.db — and then `flower` runs the same command again to the end. The appended lines must read
// 1…STEPS exactly: no line twice. The scripted model behaves like a careful real one: it runs the next step
// it has no clean result for, redoes a call it is told was interrupted with no result, and when told a call
// may have completed it first looks at the file. Real SDK, real Claude Code binary, flower's fake API.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  message,
  scratchEnvironment,
  text,
  toolUse,
  type FakeRequest,
  type FakeResponse,
} from '../../src/testing/index.js';
import { openSqlite } from '../../src/session/sqlite-driver.js';
import { PLACEHOLDER_TEXT } from '../../src/session/placeholder-text.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';
import { writeWorkflow } from './support/workflow-fixture.js';

const STEPS = 3;
/** Milliseconds after request k reached the fake API; the kills land from the stream to the next request. */
const OFFSETS = [0, 15, 30, 45, 60, 80, 100, 125, 150, 180, 215, 250, 300, 360];
/** Kill points run at the same time (each has its own fake API, scratch folder and processes). */
const PARALLEL = 3;
const FINAL = 'All steps are done.';

const STEP_ID = /^toolu_s(\d+)_(\d+)$/;
const CHECK_ID = /^toolu_c(\d+)_(\d+)$/;

type Block = Record<string, unknown>;

const line = (step: number): string => `line-${String(step).padStart(2, '0')}`;

/** What the conversation says about each step, as a careful model reads it. */
interface PlanView {
  /** Steps with a clean result, or a clean look at the file that shows their line. */
  done: Set<number>;
  /** Per step: the outcome of its latest call (`clean`, `redo` when interrupted, `unsure` when it may have run). */
  latest: Map<number, 'clean' | 'redo' | 'unsure'>;
  /** Per step: calls issued, and looks at the file taken since its latest call (with what they showed). */
  calls: Map<number, number>;
  checks: Map<number, number>;
  /** Per step: whether the latest look at the file (after the latest call) showed its line; absent: no look. */
  seen: Map<number, boolean>;
  /** True when some result in the conversation said a call may have completed. */
  toldUnsure: boolean;
}

function readPlan(request: Pick<FakeRequest, 'body'>): PlanView {
  const view: PlanView = {
    done: new Set(),
    latest: new Map(),
    calls: new Map(),
    checks: new Map(),
    seen: new Map(),
    toldUnsure: false,
  };
  const messages = (request.body as { messages?: Array<{ content: unknown }> }).messages ?? [];
  const stepOf = new Map<string, { step: number; check: boolean }>();
  for (const item of messages) {
    for (const block of Array.isArray(item.content) ? (item.content as Block[]) : []) {
      if (block['type'] === 'tool_use' && typeof block['id'] === 'string') {
        const call = STEP_ID.exec(block['id']);
        const check = CHECK_ID.exec(block['id']);
        if (call !== null) {
          const step = Number(call[1]);
          stepOf.set(block['id'], { step, check: false });
          view.calls.set(step, (view.calls.get(step) ?? 0) + 1);
          view.seen.delete(step);
        } else if (check !== null) {
          const step = Number(check[1]);
          stepOf.set(block['id'], { step, check: true });
          view.checks.set(step, (view.checks.get(step) ?? 0) + 1);
        }
      }
      if (block['type'] !== 'tool_result' || typeof block['tool_use_id'] !== 'string') continue;
      const owner = stepOf.get(block['tool_use_id']);
      const body = JSON.stringify(block['content'] ?? '');
      const unsure = body.includes(JSON.stringify(PLACEHOLDER_TEXT.journalled).slice(1, -1));
      if (unsure) view.toldUnsure = true;
      if (owner === undefined) continue;
      const outcome = unsure
        ? 'unsure'
        : block['is_error'] === true || /interrupted/i.test(body)
          ? 'redo'
          : 'clean';
      if (owner.check) {
        if (outcome === 'clean') view.seen.set(owner.step, body.includes(line(owner.step)));
        continue;
      }
      view.latest.set(owner.step, outcome);
    }
  }
  for (let step = 1; step <= STEPS; step += 1) {
    if (view.latest.get(step) === 'clean' || view.seen.get(step) === true) view.done.add(step);
  }
  return view;
}

/** The Bash command of plan step `step`: append its line, then take a moment (the sweep kills in it). */
type StepCommand = (step: number) => string;
const quickStep: StepCommand = (step) => `echo ${line(step)} >> lines.txt && sleep 0.15`;

/** The careful model's next move. */
function nextMove(request: FakeRequest, command: StepCommand = quickStep): FakeResponse {
  const view = readPlan(request);
  for (let step = 1; step <= STEPS; step += 1) {
    if (view.done.has(step)) continue;
    const calls = view.calls.get(step) ?? 0;
    const runStep = (): FakeResponse =>
      message([
        toolUse(
          'Bash',
          { command: command(step), description: `step ${step}` },
          `toolu_s${step}_${calls + 1}`,
        ),
      ]);
    // Told it may have run: look before acting, and act only if the look shows it did not.
    if (view.latest.get(step) === 'unsure' && !view.seen.has(step)) {
      const checks = view.checks.get(step) ?? 0;
      return message([
        toolUse(
          'Bash',
          { command: 'cat lines.txt || true', description: 'look' },
          `toolu_c${step}_${checks + 1}`,
        ),
      ]);
    }
    return runStep();
  }
  return message([text(FINAL)]);
}

interface PointOutcome {
  point: string;
  lines: string[];
  toldUnsure: boolean;
  killed: boolean;
  /** Steps whose line was on disk after the kill while their call was not in sessions.db. */
  lost: number;
  rerun: string;
}

/** One kill point: a run killed `offset` ms after main-thread request `request`, then a run to the end. */
async function killPoint(request: number, offset: number): Promise<PointOutcome> {
  let processRef: FlowerProcess | null = null;
  let killing = true;
  let seen = 0;
  let toldUnsure = false;
  const server = await FakeAnthropicServer.start((call) => {
    if (call.thread !== MAIN_THREAD) return message([text('ok')]);
    const answer = nextMove(call);
    if (readPlan(call).toldUnsure) toldUnsure = true;
    if (killing) {
      seen += 1;
      if (seen === request) {
        const target = processRef;
        setTimeout(() => void target?.crash(), offset);
      }
    }
    return answer;
  });
  const scratch = await scratchEnvironment({ baseUrl: server.url });
  try {
    const target = writeWorkflow(scratch.dir);
    const flower = (): FlowerProcess =>
      new FlowerProcess(['-w', scratch.workspace, 'run', target], { cwd: scratch.dir, env: scratch.env });
    processRef = flower();
    const first = await processRef.exited;
    killing = false;
    const lost = lostCalls(scratch.workspace);
    const second = flower();
    const exit = await second.exited;
    const file = join(scratch.workspace, 'lines.txt');
    const lines = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
    return {
      point: `request ${request} + ${offset} ms (first run ${first.signal ?? first.code})`,
      lines,
      toldUnsure,
      killed: first.signal === 'SIGKILL',
      lost,
      rerun: exit.code === 0 ? 'ok' : `exit ${exit.code ?? exit.signal}: ${second.stderr.slice(-800)}`,
    };
  } finally {
    await server.close();
    await scratch.cleanup();
  }
}

/** After a kill: how many steps had appended their line while sessions.db holds no call for them. */
function lostCalls(workspace: string): number {
  const file = join(workspace, 'lines.txt');
  const database = join(workspace, 'runs', 'sessions.db');
  if (!existsSync(file) || !existsSync(database)) return 0;
  const connection = openSqlite(database, { readonly: true });
  try {
    const rows = connection
      .prepare('SELECT payload FROM entries')
      .all()
      .map((row) => (row as { payload: string }).payload);
    const onDisk = readFileSync(file, 'utf8').trim().split('\n');
    return onDisk.filter((value) => !rows.some((row) => row.includes(`"toolu_s${Number(value.slice(5))}_`)))
      .length;
  } finally {
    connection.close();
  }
}

afterAll(async () => {
  await killStrayFlowers();
});

describe('flower run killed anywhere in a turn (e2e)', () => {
  test(`repeats no step over a sweep of ${STEPS * OFFSETS.length} kill points`, async () => {
    const points: Array<[number, number]> = [];
    for (let request = 1; request <= STEPS; request += 1) {
      for (const offset of OFFSETS) points.push([request, offset]);
    }
    const outcomes: PointOutcome[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < points.length) {
        const [request, offset] = points[next++] as [number, number];
        outcomes.push(await killPoint(request, offset));
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));

    const expected = Array.from({ length: STEPS }, (_, index) => line(index + 1));
    const wrong = outcomes
      .filter((outcome) => outcome.rerun !== 'ok' || outcome.lines.join(' ') !== expected.join(' '))
      .map(
        (outcome) =>
          `${outcome.point}, ${outcome.lost} call(s) missing from the store: ${outcome.lines.join(' ')} (${outcome.rerun})`,
      );
    expect(wrong).toEqual([]);
    // The sweep reached the window it is about: some reruns were told a call may have completed.
    expect(outcomes.filter((outcome) => outcome.toldUnsure).length).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => !outcome.killed).map((outcome) => outcome.point)).toEqual([]);
  }, 900_000);
});

describe('a tool call the store lost (e2e)', () => {
  test('is shown to the resumed model as started and maybe completed, so it looks instead of redoing', async () => {
    const requests: FakeRequest[] = [];
    // Step 2 appends its line and then keeps running, so the kill lands after its effect.
    const slowSecond: StepCommand = (step) =>
      step === 2 ? `echo $$ > tool.pid && echo ${line(step)} >> lines.txt && sleep 60` : quickStep(step);
    const server = await FakeAnthropicServer.start((call) => {
      if (call.thread !== MAIN_THREAD) return message([text('ok')]);
      requests.push(call);
      return nextMove(call, slowSecond);
    });
    const scratch = await scratchEnvironment({ baseUrl: server.url });
    try {
      const target = writeWorkflow(scratch.dir);
      const flower = (): FlowerProcess =>
        new FlowerProcess(['-w', scratch.workspace, 'run', target], { cwd: scratch.dir, env: scratch.env });
      const database = join(scratch.workspace, 'runs', 'sessions.db');
      const lines = join(scratch.workspace, 'lines.txt');
      const storedCall = (): boolean => {
        if (!existsSync(database)) return false;
        const connection = openSqlite(database, { readonly: true });
        try {
          return (
            connection.prepare(`SELECT 1 FROM entries WHERE payload LIKE '%"toolu_s2_1"%'`).get() !==
            undefined
          );
        } finally {
          connection.close();
        }
      };
      const first = flower();
      await until(() => existsSync(lines) && readFileSync(lines, 'utf8').includes(line(2)), "step 2's line");
      await until(storedCall, "step 2's call in the store");
      expect(await first.crash()).toEqual({ code: null, signal: 'SIGKILL' });
      // Claude Code runs each Bash command in a session of its own, out of reach of the group kill.
      try {
        process.kill(-Number(readFileSync(join(scratch.workspace, 'tool.pid'), 'utf8')), 'SIGKILL');
      } catch {
        // Already gone.
      }
      // The state a kill a moment earlier leaves: the tool has run, its call never reached the store.
      const connection = openSqlite(database);
      try {
        expect(
          connection.prepare(`DELETE FROM entries WHERE payload LIKE '%"toolu_s2_1"%'`).run().changes,
        ).toBe(1);
      } finally {
        connection.close();
      }
      expect(storedCall()).toBe(false);

      const resumedFrom = requests.length;
      const second = flower();
      const exit = await second.exited;
      expect(exit, second.stderr).toEqual({ code: 0, signal: null });
      expect(readFileSync(lines, 'utf8')).toBe(`${line(1)}\n${line(2)}\n${line(3)}\n`);
      // The resumed model was sent the lost call, answered as "may have completed", and looked at the file.
      const resumed = requests[resumedFrom]!;
      const sent = JSON.stringify(resumed.body);
      expect(sent).toContain('"id":"toolu_s2_1"');
      expect(sent).toContain(JSON.stringify(PLACEHOLDER_TEXT.journalled));
      expect(JSON.stringify(requests[resumedFrom + 1]?.body)).toContain(line(2));
      expect(
        requests.slice(resumedFrom).some((call) => JSON.stringify(call.body).includes('toolu_c2_1')),
      ).toBe(true);
    } finally {
      await server.close();
      await scratch.cleanup();
    }
  });
});
