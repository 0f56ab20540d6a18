import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { buildOptions } from '../agent/build-options.js';
import { isFlowerError } from '../errors.js';
import { closedPortUrl } from '../testing/closed-port.js';
import { classify } from './classify-error.js';
import {
  Resilience,
  SYSTEM_CLOCK,
  gaveUpText,
  waitNoticeText,
  type ResilienceClock,
  type WaitNotice,
} from './resilience.js';
import { DEFAULT_RESILIENCE_SETTINGS, type ResilienceSettings } from './resilience-settings.js';

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A clock whose sleeps take no real time: each sleep records its length and moves `now` forward. */
function fakeClock(onSleep?: (count: number) => void | Promise<void>): {
  clock: ResilienceClock;
  sleeps: number[];
} {
  let now = 1_700_000_000;
  const sleeps: number[] = [];
  const clock: ResilienceClock = {
    now: () => now,
    async sleep(seconds, signal) {
      if (signal?.aborted) return false;
      sleeps.push(seconds);
      await onSleep?.(sleeps.length);
      now += seconds;
      return !(signal?.aborted ?? false);
    },
  };
  return { clock, sleeps };
}

/** A clock whose sleep lasts until the signal aborts. */
function stuckClock(): ResilienceClock {
  return {
    now: () => 0,
    sleep: (_seconds, signal) =>
      new Promise((resolve) => signal?.addEventListener('abort', () => resolve(false), { once: true })),
  };
}

async function listenOn(port: number): Promise<void> {
  const server = createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
}

describe('Resilience', () => {
  test('has the defaults docs/resilience.md lists', () => {
    const resilience = new Resilience();
    expect({ ...resilience }).toEqual({ ...DEFAULT_RESILIENCE_SETTINGS });
    expect(resilience).toMatchObject({
      enabled: true,
      maxAttempts: 6,
      baseDelay: 4,
      maxDelay: 120,
      probeTimeout: 5,
      probeInterval: 15,
      maxOfflineWait: 3600,
      retryUnknown: true,
      stallTimeoutS: 120,
      cliMaxRetries: 2,
      apiTimeoutMs: 300_000,
    });
  });

  test('takes any subset of settings and keeps the defaults for the rest', () => {
    const resilience = new Resilience({ maxAttempts: 3, stallTimeoutS: 45 });
    expect(resilience.maxAttempts).toBe(3);
    expect(resilience.stallTimeoutS).toBe(45);
    expect(resilience.baseDelay).toBe(4);
  });

  test('keeps the default for a setting given as undefined', () => {
    const settings = { maxAttempts: undefined } as unknown as Partial<ResilienceSettings>;
    expect(new Resilience(settings).maxAttempts).toBe(6);
  });

  test.each([
    ['maxAttempts', 0],
    ['maxAttempts', 2.5],
    ['baseDelay', -1],
    ['maxDelay', Number.NaN],
    ['probeTimeout', 0],
    ['probeInterval', 0],
    ['maxOfflineWait', Number.POSITIVE_INFINITY],
    ['stallTimeoutS', 0],
    ['stallTimeoutS', 10_000_000],
    ['cliMaxRetries', -1],
    ['apiTimeoutMs', 0],
    ['enabled', 'yes'],
    ['retryUnknown', 1],
    ['resumePrompt', '  '],
  ])('rejects %s = %j with one line naming the setting', (key, value) => {
    let caught: unknown;
    try {
      new Resilience({ [key]: value });
    } catch (error) {
      caught = error;
    }
    expect(isFlowerError(caught)).toBe(true);
    const error = caught as Error & { code: string };
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`setting ${key} must be`);
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain(
      `got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    );
  });

  test('gives the child its retry count and request timeout through buildOptions', () => {
    const spec = agentSpec({ name: 'worker', instructions: 'work' });
    const options = buildOptions(spec, {
      baseEnv: { CLAUDE_CODE_MAX_RETRIES: '10', API_TIMEOUT_MS: '1' },
      resilience: new Resilience({ cliMaxRetries: 0, apiTimeoutMs: 5000 }),
    });
    expect(options.env?.['CLAUDE_CODE_MAX_RETRIES']).toBe('0');
    expect(options.env?.['API_TIMEOUT_MS']).toBe('5000');
  });

  describe('delayFor', () => {
    test('backs off about 4, 8, 16, 32, 64 s and caps at 120 s only from attempt 6', () => {
      const resilience = new Resilience({}, { random: () => 0.5 });
      expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => resilience.delayFor(attempt))).toEqual([
        4, 8, 16, 32, 64, 120, 120,
      ]);
    });

    test.each([
      [0, 0.75],
      [0.25, 0.875],
      [0.999999, 1.249_999_5],
    ])('scales by 0.75 + random·0.5 (random %d → ×%d)', (random, factor) => {
      const resilience = new Resilience({}, { random: () => random });
      expect(resilience.delayFor(1)).toBeCloseTo(4 * factor, 6);
      expect(resilience.delayFor(3)).toBeCloseTo(16 * factor, 6);
      expect(resilience.delayFor(9)).toBeCloseTo(120 * factor, 6);
    });

    test('stays within ±25 % of the capped backoff for any random value', () => {
      for (let step = 0; step < 100; step++) {
        const resilience = new Resilience({}, { random: () => step / 100 });
        for (let attempt = 1; attempt <= 8; attempt++) {
          const nominal = Math.min(4 * 2 ** (attempt - 1), 120);
          const delay = resilience.delayFor(attempt);
          expect(delay).toBeGreaterThanOrEqual(nominal * 0.75);
          expect(delay).toBeLessThan(nominal * 1.25);
        }
      }
    });

    test('follows its own base and cap, treating attempts below 1 as the first', () => {
      const resilience = new Resilience({ baseDelay: 1, maxDelay: 5 }, { random: () => 0.5 });
      expect([0, 1, 2, 3, 4, 5].map((attempt) => resilience.delayFor(attempt))).toEqual([1, 1, 2, 4, 5, 5]);
    });
  });

  describe('shouldRetry', () => {
    test('retries transient and unknown errors, never fatal ones', () => {
      const resilience = new Resilience();
      expect(resilience.shouldRetry('transient')).toBe(true);
      expect(resilience.shouldRetry('unknown')).toBe(true);
      expect(resilience.shouldRetry('fatal')).toBe(false);
    });

    test('leaves unknown errors alone when retryUnknown is off', () => {
      const resilience = new Resilience({ retryUnknown: false });
      expect(resilience.shouldRetry('unknown')).toBe(false);
      expect(resilience.shouldRetry('transient')).toBe(true);
    });

    test('retries a stall (decisions.md D30)', () => {
      expect(
        new Resilience({ retryUnknown: false }).shouldRetry(classify('stall: no SDK message for 120 s')),
      ).toBe(true);
    });
  });

  test('has a resume prompt that says to continue and carries no error detail', () => {
    const prompt = new Resilience().resumePrompt;
    expect(prompt).toMatch(/cut off/i);
    expect(prompt).toMatch(/continue/i);
    expect(prompt).toMatch(/do not start over/i);
    expect(prompt).not.toMatch(/error|ECONN|stall|timeout|network|retry|attempt|\d/i);
  });

  describe('waitOnline', () => {
    test('returns true at once, silently, when the endpoint answers', async () => {
      const notices: WaitNotice[] = [];
      const { clock, sleeps } = fakeClock();
      const probes: [string, number, number][] = [];
      const resilience = new Resilience(
        { probeTimeout: 2 },
        {
          env: { ANTHROPIC_BASE_URL: 'http://gateway.test:8787/v1' },
          clock,
          probe: (host, port, timeoutS) => {
            probes.push([host, port, timeoutS]);
            return Promise.resolve(true);
          },
        },
      );
      expect(await resilience.waitOnline((notice) => notices.push(notice))).toBe(true);
      expect(probes).toEqual([['gateway.test', 8787, 2]]);
      expect(notices).toEqual([]);
      expect(sleeps).toEqual([]);
    });

    test('waits for a refusing port to accept, with exactly two notices', async () => {
      const url = await closedPortUrl();
      const port = Number(new URL(url).port);
      const notices: WaitNotice[] = [];
      // The listener appears during the second pause between probes.
      const { clock, sleeps } = fakeClock((count) => (count === 2 ? listenOn(port) : undefined));
      const resilience = new Resilience({ maxOfflineWait: 600 }, { env: { ANTHROPIC_BASE_URL: url }, clock });
      expect(await resilience.waitOnline((notice) => notices.push(notice))).toBe(true);
      expect(sleeps).toEqual([15, 15]);
      expect(notices).toEqual([
        { state: 'unreachable', host: '127.0.0.1', port, maxWaitS: 600, waitedS: 0 },
        { state: 'back', host: '127.0.0.1', port, maxWaitS: 600, waitedS: 30 },
      ]);
    });

    test('gives each outage its own pair of notices', async () => {
      let up = false;
      let probes = 0;
      const notices: WaitNotice['state'][] = [];
      const { clock } = fakeClock(() => {
        up = true;
      });
      const resilience = new Resilience(
        {},
        {
          clock,
          probe: () => {
            probes++;
            return Promise.resolve(up);
          },
        },
      );
      for (let outage = 0; outage < 2; outage++) {
        up = false;
        expect(await resilience.waitOnline((notice) => notices.push(notice.state))).toBe(true);
      }
      expect(probes).toBe(4);
      expect(notices).toEqual(['unreachable', 'back', 'unreachable', 'back']);
    });

    test('gives up at the deadline without sleeping past it', async () => {
      let probes = 0;
      const notices: WaitNotice['state'][] = [];
      const { clock, sleeps } = fakeClock();
      const resilience = new Resilience(
        { maxOfflineWait: 40, probeInterval: 15 },
        {
          clock,
          probe: () => {
            probes++;
            return Promise.resolve(false);
          },
        },
      );
      expect(await resilience.waitOnline((notice) => notices.push(notice.state))).toBe(false);
      expect(sleeps).toEqual([15, 15, 10]);
      expect(probes).toBe(4); // the last one exactly at the deadline
      expect(notices).toEqual(['unreachable']);
    });

    test('probes once and gives up when no offline wait is allowed', async () => {
      const { clock, sleeps } = fakeClock();
      const resilience = new Resilience(
        { maxOfflineWait: 0 },
        { clock, probe: () => Promise.resolve(false) },
      );
      expect(await resilience.waitOnline()).toBe(false);
      expect(sleeps).toEqual([]);
    });

    test('stops at once when aborted between probes, on the real clock', async () => {
      const url = await closedPortUrl();
      const controller = new AbortController();
      const resilience = new Resilience({ probeInterval: 3600 }, { env: { ANTHROPIC_BASE_URL: url } });
      const started = performance.now();
      // Abort a moment after the outage notice, while the hour-long pause between probes runs.
      const waiting = resilience.waitOnline(
        () => setTimeout(() => controller.abort(), 20),
        controller.signal,
      );
      expect(await waiting).toBe(false);
      expect(performance.now() - started).toBeLessThan(2000);
    });

    test('stops at once when aborted during a probe that hangs', async () => {
      const controller = new AbortController();
      const resilience = new Resilience(
        {},
        { clock: stuckClock(), probe: () => new Promise<boolean>(() => undefined) },
      );
      const waiting = resilience.waitOnline(undefined, controller.signal);
      controller.abort();
      expect(await waiting).toBe(false);
    });

    test('does not probe when the signal is already aborted', async () => {
      let probes = 0;
      const resilience = new Resilience(
        {},
        {
          clock: stuckClock(),
          probe: () => {
            probes++;
            return Promise.resolve(true);
          },
        },
      );
      expect(await resilience.waitOnline(undefined, AbortSignal.abort())).toBe(false);
      expect(probes).toBe(0);
    });

    test('keeps waiting when a notice callback throws or a probe rejects', async () => {
      let probes = 0;
      const { clock } = fakeClock();
      const resilience = new Resilience(
        {},
        {
          clock,
          probe: () => (++probes === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(true)),
        },
      );
      const waited = resilience.waitOnline(() => {
        throw new Error('display broke');
      });
      expect(await waited).toBe(true);
      expect(probes).toBe(2);
    });
  });

  describe('sleep', () => {
    test('sleeps on the injected clock', async () => {
      const { clock, sleeps } = fakeClock();
      expect(await new Resilience({}, { clock }).sleep(64)).toBe(true);
      expect(sleeps).toEqual([64]);
    });

    test('sleeps for real on the system clock and resolves false when aborted', async () => {
      expect(await SYSTEM_CLOCK.sleep(0.01)).toBe(true);
      const controller = new AbortController();
      const started = performance.now();
      const sleeping = new Resilience().sleep(3600, controller.signal);
      controller.abort();
      expect(await sleeping).toBe(false);
      expect(await SYSTEM_CLOCK.sleep(1, AbortSignal.abort())).toBe(false);
      expect(performance.now() - started).toBeLessThan(1000);
    });
  });
});

describe('waitNoticeText', () => {
  test('renders both notices from the catalog', () => {
    const base = { host: 'api.anthropic.com', port: 443, maxWaitS: 3600 };
    expect(waitNoticeText({ ...base, state: 'unreachable', waitedS: 0 })).toBe(
      'api.anthropic.com:443 is unreachable; waiting up to 60 min for the network to come back',
    );
    expect(waitNoticeText({ ...base, state: 'back', waitedS: 42.4 })).toBe(
      'api.anthropic.com:443 is reachable again after 42 s; continuing',
    );
    expect(waitNoticeText({ ...base, state: 'back', waitedS: 180 }, 'zh')).toBe(
      'api.anthropic.com:443 恢复了(等了 3 分钟);继续',
    );
  });

  test('renders the give-up text', () => {
    expect(gaveUpText(3600)).toBe('network not back within 60 min');
  });
});
