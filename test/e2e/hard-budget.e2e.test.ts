// The hard budget (acceptance, issue 17): scripted turns costing $0.03 each under `-b 0.10` — no turn starts
// once the spend so far plus the next turn's estimate crosses $0.10, the final spend stays within the
// documented bound, the run stops with exit 1 and one line; a rerun without a larger budget says the budget
// is spent and how to raise it, and `-b 0.20` resumes the same session and finishes. Real SDK, real Claude
// Code binary, flower's fake Messages API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readManifest } from '../../src/runtime/manifest.js';
import { usageCost } from '../../src/runtime/price-table.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  message,
  scratchEnvironment,
  text,
  type FakeRequest,
  type ScratchEnvironment,
  type Usage,
} from '../../src/testing/index.js';
import { FlowerProcess, killStrayFlowers } from './support/flower-process.js';
import { bashStep, nextStep, progressOf } from './support/plan-model.js';
import { writeWorkflow } from './support/workflow-fixture.js';

/** $0.03 at claude-opus-5-5's list price: 7000 × $4 + 100 × $20 per million. */
const TURN: Usage = {
  input_tokens: 7000,
  output_tokens: 100,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};
const TURN_USD = usageCost('claude-opus-5-5', TURN);
const STEPS = 5;

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
  server = null;
  scratch = null;
});

function script(request: FakeRequest) {
  if (request.thread !== MAIN_THREAD) return message([text('no subagents here')], { usage: TURN });
  const progress = progressOf(request);
  const step = nextStep(progress, STEPS);
  if (step > STEPS) return message([text('Plan finished.')], { usage: TURN });
  return message([bashStep(step, progress)], { usage: TURN });
}

function ranLog(workspace: string): string[] {
  return readFileSync(join(workspace, 'ran.log'), 'utf8').trim().split('\n');
}

describe('the hard budget (e2e)', () => {
  test('stops before the turn that would cross the cap; a larger -b resumes the same session', async () => {
    expect(TURN_USD).toBeCloseTo(0.03, 12);
    server = await FakeAnthropicServer.start(script);
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const target = writeWorkflow(scratch.dir);
    const runDir = join(scratch.workspace, 'runs');
    const args = (...more: string[]): string[] => ['-w', scratch!.workspace, 'run', target, ...more];
    const options = { cwd: scratch.dir, env: scratch.env };

    const first = new FlowerProcess(args('-b', '0.10'), options);
    expect(await first.exited, first.stderr).toEqual({ code: 1, signal: null });
    // Three turns spent $0.09; a fourth would make about $0.12: it never started, and the third turn's
    // tool was not run either (it would have been followed by that fourth request).
    expect(server.calls.filter((call) => call.path === '/v1/messages')).toHaveLength(3);
    expect(ranLog(scratch.workspace)).toEqual(['step-01', 'step-02']);
    const [stopped] = readManifest(runDir);
    expect(stopped).toMatchObject({
      ok: false,
      error: 'error_max_budget_usd: run budget exhausted',
      budget_stop: { scope: 'run', cap_usd: 0.1 },
    });
    // The bound the docs state for one thread: none. The measured overshoot is 0.
    expect(stopped!.cost_usd).toBeCloseTo(3 * TURN_USD, 10);
    expect(stopped!.cost_usd).toBeLessThanOrEqual(0.1);
    expect(first.stderr).toContain('Run budget $0.10 used up ($0.0900 spent in this run)');

    // Without a larger budget nothing starts, and the line says how to raise it.
    const callsBefore = server.calls.length;
    for (const again of [args(), args('-b', '0.10')]) {
      const refused = new FlowerProcess(again, options);
      expect(await refused.exited).toEqual({ code: 1, signal: null });
      expect(refused.stderr.replace(/\s+/g, ' ')).toContain(
        'The run stopped at its budget of $0.10 ($0.0900 spent) and is not continued without a larger one: run again with -b 1.10',
      );
    }
    expect(server.calls.length).toBe(callsBefore);

    const second = new FlowerProcess(args('-b', '0.20'), options);
    expect(await second.exited, second.stderr).toEqual({ code: 0, signal: null });
    expect(ranLog(scratch.workspace)).toEqual(['step-01', 'step-02', 'step-03', 'step-04', 'step-05']);
    const rows = readManifest(runDir);
    expect(rows.map((row) => row.session_id)).toEqual([stopped!.session_id, stopped!.session_id]);
    expect(new Set(server.calls.map((call) => call.headers['x-claude-code-session-id'])).size).toBe(1);
    expect(rows[1]).toMatchObject({ ok: true });
    expect(rows[1]!.cost_usd).toBeLessThanOrEqual(0.2);
  });
});
