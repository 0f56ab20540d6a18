import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { sdk, SdkLikeBackend, type LikeStep } from '../../test/support/sdk-like-backend.js';
import { agentSpec } from '../agent/agent-spec.js';
import { humanDuration, uiText } from '../config/ui-text.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { readManifest } from './manifest.js';
import { Resilience } from './resilience.js';
import type { ResilienceSettings } from './resilience-settings.js';
import { Runtime, type RunOptions } from './runtime.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const spec = agentSpec({ name: 'worker', instructions: '', allowedTools: ['Bash'] });
const REFUSED = 'API Error: Connection refused — a firewall or proxy may be blocking it (ECONNREFUSED)';

let dir: string;
let runtimes: Runtime[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-loop-')));
});

afterEach(() => {
  for (const runtime of runtimes) void runtime.close();
  runtimes = [];
  rmSync(dir, { recursive: true, force: true });
});

/** A resilience with millisecond waits and a scripted reachability probe (true = up). */
function resilience(probe: boolean[] = [true], settings: Partial<ResilienceSettings> = {}) {
  const answers = [...probe];
  const probes: number[] = [];
  const instance = new Resilience(
    { baseDelay: 0.001, probeInterval: 0.001, probeTimeout: 0.01, maxOfflineWait: 1, ...settings },
    {
      env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
      probe: () => {
        probes.push(Date.now());
        return Promise.resolve(answers.length > 1 ? (answers.shift() as boolean) : (answers[0] ?? true));
      },
    },
  );
  return { instance, probes };
}

function setUp(
  steps: LikeStep[],
  options: {
    probe?: boolean[];
    settings?: Partial<ResilienceSettings>;
    budgetUsd?: number;
    /** The API answered earlier in this process (a run that had been working). */
    reached?: boolean;
    /** The runtime's language (English by default). */
    lang?: 'en' | 'zh';
  } = {},
) {
  const backend = new SdkLikeBackend(steps);
  const { instance, probes } = resilience(options.probe, options.settings);
  if (options.reached === true) instance.markReached();
  const runtime = new Runtime({
    workspace: join(dir, 'ws'),
    config: options.lang === undefined ? config : { ...config, lang: options.lang },
    backend,
    resilience: instance,
    ...(options.budgetUsd === undefined ? {} : { budgetUsd: options.budgetUsd }),
  });
  runtimes.push(runtime);
  const events: FlowerEvent[] = [];
  const run = (prompt = 'do it', extra: RunOptions = {}, runSpec = spec) =>
    runtime.run(runSpec, prompt, {
      ...extra,
      onEvent: (event) => {
        events.push(event);
        extra.onEvent?.(event);
      },
    });
  return { backend, runtime, events, probes, run };
}

const ok = (sessionId = 'sess-1', cost = 0.5): LikeStep => [
  sdk.init(sessionId),
  sdk.text('finished', { sessionId, id: `m-${sessionId}-ok` }),
  sdk.result({ session_id: sessionId, total_cost_usd: cost }),
];

describe('Runtime attempt loop', () => {
  test('resumes the same session after a transient failure, with a prompt that carries no error detail', async () => {
    const { backend, events, probes, run } = setUp([
      [sdk.init(), sdk.text('half way', { id: 'm1' }), ...sdk.apiFailure(REFUSED)],
      ok(),
    ]);
    const step = await run();
    expect(step).toMatchObject({ ok: true, attempts: 2, resumed: true, error: null, text: 'finished' });
    expect(step.errors).toEqual([REFUSED]);
    const second = backend.requests[1];
    expect(second?.options).toMatchObject({ resume: 'sess-1' });
    expect(second?.options.forkSession).toBeUndefined();
    expect(second?.prompt).toBe(new Resilience().resumePrompt);
    expect(second?.prompt).not.toContain('ECONNREFUSED');
    expect(probes).toHaveLength(1);
    const retries = events.filter((event) => event.kind === 'retry');
    expect(retries).toEqual([
      expect.objectContaining({ attempt: 1, cause: 'error', errorKind: 'transient', step: 'worker' }),
    ]);
    expect(retries[0]?.text).toMatch(
      /^Attempt 1 failed \(transient\): api_error: API Error: .*ECONNREFUSED\) · attempt 2 of 6 in \d+ s, same session$/,
    );
    expect(events.some((event) => event.kind === 'wait' || event.kind === 'recovered')).toBe(false);
  });

  test('sends resumeAt and fork on the first attempt only, then resumes the forked session', async () => {
    const { backend, run } = setUp([
      [sdk.init('forked'), ...sdk.apiFailure(REFUSED, 'forked')],
      ok('forked'),
    ]);
    const step = await run('go on', { resume: 'parent', fork: true, resumeAt: 'msg-uuid-7' });
    expect(step).toMatchObject({ ok: true, sessionId: 'forked', attempts: 2 });
    expect(backend.requests[0]?.options).toMatchObject({
      resume: 'parent',
      forkSession: true,
      resumeSessionAt: 'msg-uuid-7',
    });
    expect(backend.requests[1]?.options).toMatchObject({ resume: 'forked' });
    expect(backend.requests[1]?.options.resumeSessionAt).toBeUndefined();
    expect(backend.requests[1]?.options.forkSession).toBeUndefined();
  });

  test('retries from scratch with the same prompt when no session was known yet', async () => {
    const { backend, run } = setUp([new Error('fetch failed'), ok()]);
    const step = await run('the task');
    expect(step).toMatchObject({ ok: true, attempts: 2, resumed: false });
    expect(backend.requests[1]?.prompt).toBe('the task');
    expect(backend.requests[1]?.options.resume).toBeUndefined();
  });

  test('stops at once on a fatal error: one attempt, no retry, no network wait', async () => {
    const { backend, events, probes, run } = setUp([
      [sdk.init(), ...sdk.apiFailure('Invalid API key · Fix external API key', 'sess-1', 401)],
    ]);
    const step = await run();
    expect(step).toMatchObject({ ok: false, attempts: 1, resumed: false });
    expect(step.error).toContain('401');
    expect(backend.remaining).toBe(0);
    expect(probes).toEqual([]);
    expect(events.some((event) => event.kind === 'retry')).toBe(false);
  });

  test('does not retry the resume of a session the store does not have', async () => {
    const { backend, run } = setUp([
      [
        sdk.result({
          is_error: true,
          subtype: 'error_during_execution',
          errors: ['No conversation found with session ID: gone'],
          session_id: 'x',
        }),
      ],
    ]);
    const step = await run('x', { resume: 'gone' });
    expect(step).toMatchObject({ ok: false, attempts: 1 });
    expect(step.error).toContain('No conversation found');
    expect(backend.remaining).toBe(0);
  });

  test('rescue() while a retry waits writes the failure being retried, then the step ends killed', async () => {
    const { backend, runtime, run } = setUp([[sdk.init(), ...sdk.apiFailure(REFUSED)], ok()]);
    let rowsAtRescue: ReturnType<typeof readManifest> = [];
    const step = await run('do it', {
      onEvent: (event) => {
        if (event.kind !== 'retry') return;
        runtime.rescue();
        rowsAtRescue = readManifest(runtime.runDir);
      },
    });
    // The process dies right after a rescue: its row must say what went wrong, not only that it was killed.
    expect(rowsAtRescue).toEqual([
      expect.objectContaining({ ok: false, error: expect.stringContaining('ECONNREFUSED') as unknown }),
    ]);
    expect(step).toMatchObject({ ok: false, error: 'killed-by-signal', outcome: { kind: 'killed' } });
    expect(backend.remaining).toBe(1);
  });

  test('gives up after maxAttempts and keeps the last error', async () => {
    const failing = (): LikeStep => [sdk.init(), ...sdk.apiFailure(REFUSED)];
    const { run } = setUp([failing(), failing(), failing()], { settings: { maxAttempts: 3 } });
    const step = await run();
    expect(step).toMatchObject({ ok: false, attempts: 3, resumed: true });
    expect(step.error).toContain('ECONNREFUSED');
    expect(step.errors).toHaveLength(3);
  });

  test('retries an unknown error only while retryUnknown is on', async () => {
    const odd = (): LikeStep => new Error('something odd');
    expect((await setUp([odd(), ok()]).run()).attempts).toBe(2);
    const strict = setUp([odd()], { settings: { retryUnknown: false } });
    expect(await strict.run()).toMatchObject({ ok: false, attempts: 1, error: 'Error: something odd' });
  });

  test('waits while the endpoint is unreachable: one wait and one recovered event per outage', async () => {
    const { events, run } = setUp([[sdk.init(), ...sdk.apiFailure(REFUSED)], ok()], {
      probe: [false, false, false, true],
      reached: true,
    });
    const step = await run();
    expect(step).toMatchObject({ ok: true, attempts: 2, resumed: true });
    const kinds = events
      .map((event) => event.kind)
      .filter((kind) => ['retry', 'wait', 'recovered'].includes(kind));
    expect(kinds).toEqual(['retry', 'wait', 'recovered']);
    expect(events.find((event) => event.kind === 'wait')?.text).toContain('127.0.0.1:9 is unreachable');
    expect(events.find((event) => event.kind === 'recovered')).toMatchObject({ host: '127.0.0.1', port: 9 });
  });

  test('ends with the outage noted when the network does not come back in time', async () => {
    const { backend, run } = setUp([[sdk.init(), ...sdk.apiFailure(REFUSED)], ok()], {
      probe: [false],
      settings: { maxOfflineWait: 0.01 },
      reached: true,
    });
    const step = await run();
    expect(step.ok).toBe(false);
    expect(step.error).toMatch(/ECONNREFUSED\) \| network not back within 0 s$/);
    expect(backend.remaining).toBe(1);
  });

  test('a runtime in Chinese words its retry and wait lines and the stored error in Chinese', async () => {
    const { events, runtime, run } = setUp([[sdk.init(), ...sdk.apiFailure(REFUSED)], ok()], {
      probe: [false],
      settings: { maxOfflineWait: 0.01 },
      reached: true,
      lang: 'zh',
    });
    const step = await run();
    const gaveUp = uiText('net.gaveUp', { wait: humanDuration(0.01, 'zh') }, 'zh');
    expect(step.error).toMatch(/ECONNREFUSED\) \| /);
    expect(step.error?.endsWith(` | ${gaveUp}`)).toBe(true);
    expect(readManifest(runtime.runDir)[0]?.error).toBe(step.error);
    // The typed outcome keeps the figures, and its message the English form, whatever the language.
    expect(step.outcome).toMatchObject({
      kind: 'error',
      cause: { kind: 'offline', waitS: 0.01, neverReached: false },
    });
    expect(step.outcome.kind === 'error' && step.outcome.message).toMatch(/\| network not back within 0 s$/);
    const retry = events.find((event) => event.kind === 'retry');
    expect(retry).toMatchObject({ reason: `api_error: ${REFUSED}`, maxAttempts: 6 });
    expect(retry?.text).toContain('第 1 次尝试失败');
    expect(retry?.text).toContain('第 2 次尝试(共 6 次)');
    const wait = events.find((event) => event.kind === 'wait');
    expect(wait?.text).toBe(
      uiText('net.unreachable', { host: '127.0.0.1', port: 9, wait: humanDuration(0.01, 'zh') }, 'zh'),
    );
  });

  test('an endpoint never reached in this process: said at once, a countdown per check, the short wait', async () => {
    const { backend, events, probes, run } = setUp([[sdk.init(), ...sdk.apiFailure(REFUSED)], ok()], {
      probe: [false],
      // An hour for a run that had been working; the short wait must bind instead.
      settings: { maxOfflineWait: 3600, unreachableWait: 0.05, probeInterval: 0.01 },
    });
    const step = await run();
    expect(step.ok).toBe(false);
    expect(step.error).toMatch(/ECONNREFUSED\) \| the API endpoint was never reachable; stopped after 0 s$/);
    expect(backend.remaining).toBe(1);
    const wait = events.find((event) => event.kind === 'wait');
    expect(wait?.text).toContain('127.0.0.1:9 was never reached from this process');
    expect(wait).toMatchObject({ maxWaitS: 0.05 });
    const checks = events.filter((event) => event.kind === 'waiting');
    // One countdown line after every failed probe but the last, after which the wait gives up.
    expect(checks.length).toBe(probes.length - 1);
    expect(checks.length).toBeGreaterThan(0);
    expect(checks[0]?.text).toMatch(
      /^waiting for 127\.0\.0\.1:9 · 0:00 so far · next check in 0 s · Ctrl-C to stop$/,
    );
  });

  test('an answered attempt counts as reached: a later outage gets the full wait', async () => {
    const { events, run } = setUp(
      [[sdk.init(), sdk.text('working', { id: 'm-1', tokens: 5000 }), ...sdk.apiFailure(REFUSED)], ok()],
      { probe: [false, false, true], settings: { unreachableWait: 0 } },
    );
    const step = await run();
    expect(step).toMatchObject({ ok: true, attempts: 2 });
    expect(events.find((event) => event.kind === 'wait')?.text).toContain('127.0.0.1:9 is unreachable');
  });

  test('an abort during the backoff ends the step as killed-by-signal and writes the row', async () => {
    const controller = new AbortController();
    const { runtime, run } = setUp([[sdk.init(), ...sdk.apiFailure(REFUSED)], ok()], {
      settings: { baseDelay: 60 },
    });
    const step = await run('x', {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.kind === 'retry') controller.abort();
      },
    });
    expect(step).toMatchObject({ ok: false, error: 'killed-by-signal', attempts: 1 });
    expect(readManifest(runtime.runDir)).toEqual([
      expect.objectContaining({ error: 'killed-by-signal', session_id: 'sess-1' }),
    ]);
  });
});

describe('Runtime interrupts', () => {
  test('resumes with the words once they are typed, without counting an attempt', async () => {
    const { runtime, backend, events, run } = setUp([
      {
        messages: [sdk.init(), sdk.text('working', { id: 'm1' }), sdk.text('still', { id: 'm2' })],
        hang: true,
      },
      ok(),
    ]);
    let typed: (words: string) => void = () => undefined;
    const words = new Promise<string>((resolve) => (typed = resolve));
    const step = await run('x', {
      onEvent: (event) => {
        if (event.kind === 'text' && event.text === 'working') {
          runtime.interrupt(words);
          setImmediate(() => typed('  try the other file  '));
        }
      },
    });
    expect(step).toMatchObject({ ok: true, attempts: 1, resumed: true });
    expect(backend.requests[1]?.prompt).toMatch(
      /^The human interrupted you and said:\n\ntry the other file\n\n/,
    );
    expect(backend.requests[1]?.prompt.endsWith(Runtime.INTERRUPT_NOTE)).toBe(true);
    expect(events.filter((event) => event.kind === 'text').map((event) => event.text)).not.toContain('still');
    expect(events.find((event) => event.kind === 'retry')).toMatchObject({
      cause: 'interrupt',
      text: 'Interrupted; resuming with your message',
    });
  });

  test('ends as interrupted-by-human when no session is known yet, and a late interrupt reaches nothing', async () => {
    const { runtime, backend, run } = setUp([
      [
        sdk.text('no init yet', { sessionId: '', id: 'm1' }),
        sdk.text('still none', { sessionId: '', id: 'm2' }),
      ],
    ]);
    const step = await run('x', { onEvent: () => runtime.interrupt() });
    expect(step).toMatchObject({ ok: false, error: 'interrupted-by-human', attempts: 1 });
    expect(backend.remaining).toBe(0);
    expect(runtime.interrupt('too late')).toBe(false);
  });
});

describe('Runtime stall watchdog', () => {
  test('aborts a silent stream, records a stall and resumes the same session', async () => {
    const { backend, events, run } = setUp(
      [{ messages: [sdk.init(), sdk.text('begun', { id: 'm1' })], hang: true }, ok()],
      { settings: { stallTimeoutS: 0.05 } },
    );
    const step = await run();
    expect(step).toMatchObject({ ok: true, attempts: 2, resumed: true });
    expect(events.find((event) => event.kind === 'stall')).toMatchObject({ sessionId: 'sess-1' });
    expect(step.errors).toEqual([expect.stringMatching(/^stall: no SDK message for 0 s$/)]);
    expect(events.find((event) => event.kind === 'retry')).toMatchObject({
      cause: 'stall',
      errorKind: 'transient',
    });
    expect(backend.requests[1]?.options).toMatchObject({ resume: 'sess-1' });
  });

  test('records the stall as the error when it cannot retry', async () => {
    const { run } = setUp([{ messages: [sdk.init()], hang: true }], {
      settings: { stallTimeoutS: 0.05, enabled: false },
    });
    const step = await run();
    expect(step.ok).toBe(false);
    expect(step.error).toMatch(/^stall: no SDK message for 0 s$/);
  });
});

describe('Runtime budgets', () => {
  test('gives each attempt what is left of the step cap and stops before spending past it', async () => {
    const capped = agentSpec({ name: 'worker', instructions: '', maxBudgetUsd: 0.5 });
    const { backend, events, run } = setUp([
      [
        sdk.init(),
        sdk.text('a', { id: 'm1' }),
        ...sdk.apiFailure(REFUSED).slice(0, 1),
        sdk.result({ is_error: true, total_cost_usd: 0.3, result: REFUSED, terminal_reason: 'api_error' }),
      ],
      [
        sdk.init(),
        ...sdk.apiFailure(REFUSED).slice(0, 1),
        sdk.result({ is_error: true, total_cost_usd: 0.2, result: REFUSED, terminal_reason: 'api_error' }),
      ],
    ]);
    const step = await run('x', {}, capped);
    expect(backend.requests.map((request) => request.options.maxBudgetUsd)).toEqual([
      0.5,
      expect.closeTo(0.2, 6),
    ]);
    expect(step).toMatchObject({
      ok: false,
      error: 'error_max_budget_usd: step budget exhausted',
      attempts: 3,
    });
    expect(events.find((event) => event.kind === 'budget')).toMatchObject({ scope: 'step', capUsd: 0.5 });
  });

  test('caps a step by what the run has left and names the run cap when the SDK stops it', async () => {
    const { backend, events, runtime, run } = setUp(
      [
        ok('s1', 0.4),
        [
          sdk.init('s2'),
          sdk.result({
            session_id: 's2',
            is_error: true,
            subtype: 'error_max_budget_usd',
            errors: ['Reached maximum budget ($0.1)'],
            total_cost_usd: 0.1,
          }),
        ],
      ],
      { budgetUsd: 0.5 },
    );
    await run('first');
    const second = await run('second');
    expect(backend.requests[1]?.options.maxBudgetUsd).toBeCloseTo(0.1);
    expect(second).toMatchObject({
      ok: false,
      error: 'error_max_budget_usd: run budget exhausted',
      attempts: 1,
    });
    expect(events.filter((event) => event.kind === 'budget')).toEqual([
      expect.objectContaining({ scope: 'run', capUsd: 0.5, spentUsd: expect.closeTo(0.5, 6) as unknown }),
    ]);
    expect(runtime.totalCost()).toBe(0.5);
  });
});
