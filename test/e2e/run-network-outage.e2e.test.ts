// Network outage (acceptance): the fake API refuses connections for 20 s in the middle of a `flower run`
// step, then comes back. flower must wait it out with one "unreachable" and one "reachable again" line,
// resume the same session (attempts = 2, resumed = true) and never show the model the API-error text.
// Real SDK, real Claude Code binary, flower's fake Messages API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readManifest } from '../../src/runtime/manifest.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  scratchEnvironment,
  type FakeRequest,
  type FakeResponse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FlowerProcess, killStrayFlowers } from './support/flower-process.js';
import { bashStep, nextStep, progressOf, UsageMeter } from './support/plan-model.js';
import { writeWorkflow } from './support/workflow-fixture.js';

const OUTAGE_MS = 20_000;
const STEPS = 5;

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
});

describe('flower run through a network outage (e2e)', () => {
  test('waits for the endpoint, resumes the same session once, and keeps the error out of the model', async () => {
    const meter = new UsageMeter();
    let onlineAgainAt = 0;
    let outage: Promise<void> | null = null;
    const script = (request: FakeRequest): FakeResponse => {
      if (request.thread !== MAIN_THREAD) return meter.say('no subagents here');
      const progress = progressOf(request);
      const step = nextStep(progress, STEPS);
      if (step === 3 && outage === null) {
        // Mid-step the API host goes away: this call breaks off, new connections are refused for 20 s.
        outage = server!.goOffline().then(
          () =>
            new Promise<void>((resolve) =>
              setTimeout(() => {
                onlineAgainAt = server!.calls.length;
                void server!.goOnline().then(resolve);
              }, OUTAGE_MS),
            ),
        );
        return { kind: 'hang' };
      }
      return step > STEPS ? meter.say('Plan finished.') : meter.answer([bashStep(step, progress)]);
    };
    server = await FakeAnthropicServer.start(script);
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const target = writeWorkflow(scratch.dir);

    const run = new FlowerProcess(['-w', scratch.workspace, 'run', target], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    const exit = await run.exited;
    expect(exit, run.stderr).toEqual({ code: 0, signal: null });

    const [row] = readManifest(join(scratch.workspace, 'runs'));
    expect(row).toMatchObject({ step: 'work', ok: true, attempts: 2, resumed: true, error: null });
    expect(row?.errors.length).toBeGreaterThan(0);
    expect(run.lines.filter((line) => line.includes('is unreachable'))).toHaveLength(1);
    expect(run.lines.filter((line) => line.includes('is reachable again'))).toHaveLength(1);
    expect(run.lines.filter((line) => line.includes('Attempt 1 failed (transient)'))).toHaveLength(1);

    // After the outage: the same session, the resume prompt, and no trace of the API error.
    expect(onlineAgainAt).toBeGreaterThan(0);
    const later = server.calls.slice(onlineAgainAt).filter((call) => call.path === '/v1/messages');
    expect(later.length).toBeGreaterThan(0);
    const sessions = new Set(server.calls.map((call) => call.headers['x-claude-code-session-id']));
    expect(sessions.size).toBe(1);
    expect(JSON.stringify(later[0]?.body.messages)).toContain('You were cut off mid-way');
    for (const call of later) {
      // Claude Code's own system-role notes (its Bash sandbox description names ECONNREFUSED in general) are
      // not the error; what must stay out is the outage in the conversation the model reads.
      const conversation = (call.body.messages as Array<{ role?: string }>).filter(
        (message) => message.role !== 'system',
      );
      const body = JSON.stringify(conversation);
      for (const error of row?.errors ?? []) expect(body).not.toContain(error);
      expect(body).not.toMatch(/ECONNREFUSED|Connection refused|API Error/);
    }
    const ran = readFileSync(join(scratch.workspace, 'ran.log'), 'utf8').trim().split('\n');
    expect(ran).toEqual(['step-01', 'step-02', 'step-03', 'step-04', 'step-05']);
  });
});
