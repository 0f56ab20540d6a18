// Parking through a usage limit (acceptance, issue 17): the fake answers a subscription's 429 with a reset a
// few seconds ahead; flower sends no request until then, shows one countdown line, and resumes the same
// session; killed with SIGKILL during the wait, a rerun keeps waiting for the same reset time. The issue's
// 20 s is shortened to 8 s (15 s when the run is killed and rerun during the wait): what is checked (no request before the reset, the same session after it) does
// not depend on the length, and the test stays fast. Real SDK, real Claude Code binary, flower's fake API.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readManifest } from '../../src/runtime/manifest.js';
import { PARKED_FILE, readParked } from '../../src/runtime/usage-limit.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  scratchEnvironment,
  type FakeRequest,
  type FakeScript,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';
import { bashStep, nextStep, progressOf, UsageMeter } from './support/plan-model.js';
import { writeWorkflow } from './support/workflow-fixture.js';

/**
 * How far ahead the reset is. Long enough that a loaded machine still gets the 429 to flower before it, and,
 * for the kill test, starts the rerun before it: the rerun must find the reset still ahead.
 */
const RESET_AHEAD_S = 8;
const RESET_AHEAD_KILL_S = 15;
const STEPS = 3;

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
  server = null;
  scratch = null;
});

/**
 * A plan of three Bash steps whose step 2 first meets the usage limit: a 429 with the unified rate-limit
 * headers a subscription gets. `limited` resolves with the reset time (epoch seconds) when it was sent.
 */
function limitedPlan(aheadS: number): { script: FakeScript; limited: Promise<number> } {
  const meter = new UsageMeter();
  let resetAt: number | null = null;
  let announce: (reset: number) => void = () => undefined;
  const limited = new Promise<number>((resolve) => (announce = resolve));
  const script: FakeScript = (request: FakeRequest) => {
    if (request.thread !== MAIN_THREAD) return meter.say('no subagents here');
    const progress = progressOf(request);
    const step = nextStep(progress, STEPS);
    if (step > STEPS) return meter.say('Plan finished.');
    if (step === 2 && resetAt === null) {
      resetAt = Math.ceil(Date.now() / 1000) + aheadS;
      announce(resetAt);
      return {
        kind: 'status',
        status: 429,
        errorType: 'rate_limit_error',
        message: 'usage limit reached',
        retryAfterS: aheadS,
        headers: {
          'anthropic-ratelimit-unified-status': 'rejected',
          'anthropic-ratelimit-unified-reset': String(resetAt),
          'anthropic-ratelimit-unified-representative-claim': 'five_hour',
        },
      };
    }
    return meter.answer([bashStep(step, progress)]);
  };
  return { script, limited };
}

/** A subscription's environment: the OAuth token instead of an API key (only then the child reads the limit). */
function subscriptionEnv(scratch: ScratchEnvironment): Record<string, string> {
  const env: Record<string, string> = { ...scratch.env, CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-fake' };
  delete env['ANTHROPIC_API_KEY'];
  return env;
}

function messageCalls(server: FakeAnthropicServer): FakeRequest[] {
  return server.calls.filter((call) => call.path === '/v1/messages');
}

function ranLog(workspace: string): string[] {
  return readFileSync(join(workspace, 'ran.log'), 'utf8').trim().split('\n');
}

const COUNTDOWN = /usage limit · resumes at \d\d:\d\d · \d+:\d\d left · Ctrl-C to stop/;

describe('parking through a usage limit (e2e)', () => {
  test('sends nothing until the reset, shows one countdown line, then resumes the same session', async () => {
    const { script, limited } = limitedPlan(RESET_AHEAD_S);
    server = await FakeAnthropicServer.start(script);
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const target = writeWorkflow(scratch.dir);
    const run = new FlowerProcess(['-w', scratch.workspace, 'run', target], {
      cwd: scratch.dir,
      env: subscriptionEnv(scratch),
    });
    const resetAt = await limited;
    const limitedCalls = messageCalls(server).length;
    // The first request after the limit: it must not come before the reset time.
    const next = await server.nextCall();
    expect(Date.now() / 1000).toBeGreaterThanOrEqual(resetAt);
    expect(next.path).toBe('/v1/messages');
    expect(messageCalls(server).length).toBe(limitedCalls + 1);

    expect(await run.exited, run.stderr).toEqual({ code: 0, signal: null });
    expect(run.lines.filter((line) => COUNTDOWN.test(line))).toHaveLength(1);
    expect(run.stderr).toContain('resuming the same session');
    expect(new Set(server.calls.map((call) => call.headers['x-claude-code-session-id'])).size).toBe(1);
    expect(ranLog(scratch.workspace)).toEqual(['step-01', 'step-02', 'step-03']);
    expect(existsSync(join(scratch.workspace, 'runs', PARKED_FILE))).toBe(false);
    const [row] = readManifest(join(scratch.workspace, 'runs'));
    // The wait is no attempt: the resumed attempt is the first one's continuation.
    expect(row).toMatchObject({ ok: true, attempts: 1, resumed: true, error: null });
  });

  test('killed with SIGKILL during the wait, a rerun keeps waiting for the same reset time', async () => {
    const { script, limited } = limitedPlan(RESET_AHEAD_KILL_S);
    server = await FakeAnthropicServer.start(script);
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const target = writeWorkflow(scratch.dir);
    const env = subscriptionEnv(scratch);
    const runDir = join(scratch.workspace, 'runs');
    const first = new FlowerProcess(['-w', scratch.workspace, 'run', target], { cwd: scratch.dir, env });
    const resetAt = await limited;
    await first.waitForLine(COUNTDOWN);
    expect(readParked(runDir)).toMatchObject({ resets_at: resetAt, step: 'work' });
    await first.crash();
    const sessions = new Set(server.calls.map((call) => call.headers['x-claude-code-session-id']));

    const status = new FlowerProcess(['-w', scratch.workspace, 'status'], { cwd: scratch.dir, env });
    expect(await status.exited).toEqual({ code: 0, signal: null });
    expect(status.stdout.join('')).toMatch(/parked: usage limit of step work · resumes at \d\d:\d\d/);

    const second = new FlowerProcess(['-w', scratch.workspace, 'run', target], { cwd: scratch.dir, env });
    await second.waitForLine(COUNTDOWN);
    const next = await server.nextCall();
    expect(Date.now() / 1000).toBeGreaterThanOrEqual(resetAt);
    expect(next.path).toBe('/v1/messages');
    expect(await second.exited, second.stderr).toEqual({ code: 0, signal: null });
    expect(second.lines.filter((line) => COUNTDOWN.test(line))).toHaveLength(1);
    expect(new Set(server.calls.map((call) => call.headers['x-claude-code-session-id']))).toEqual(sessions);
    expect(ranLog(scratch.workspace)).toEqual(['step-01', 'step-02', 'step-03']);
    await until(() => !existsSync(join(runDir, PARKED_FILE)), 'the park record removed');
  });
});
