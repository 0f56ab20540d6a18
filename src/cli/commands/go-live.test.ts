import { CLOCK_BRIEF as BRIEF } from '../../../test/support/go-path.js';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startCli, type StartOptions } from '../../../test/support/cli-session.js';
import { gate, GatedBackend, type GatedStep } from '../../../test/support/gated-backend.js';
import { sdk } from '../../../test/support/sdk-like-backend.js';
import { uiText } from '../../config/ui-text.js';
import { readManifest } from '../../runtime/manifest.js';

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-go-live-')));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const start = (argv: string[], options: StartOptions = {}) => startCli(dir, argv, options);

describe('flower go: the live input line', () => {
  test('answers a ? side question on the aside runtime; the end waits for it before the closing line', async () => {
    const work = gate();
    const aside = gate();
    const backend = new GatedBackend([
      [
        sdk.init(),
        sdk.text('Thinking it over.', { id: 'm1' }),
        work,
        sdk.text(BRIEF, { id: 'm2' }),
        sdk.result({ total_cost_usd: 0.1 }),
      ],
      [
        sdk.init('aside-1'),
        aside,
        sdk.text('It is clarifying the clock request.', { sessionId: 'aside-1', id: 'a1' }),
        sdk.result({ session_id: 'aside-1', total_cost_usd: 0.02 }),
      ],
    ]);
    const session = start(['go', '--clarify-only', '--timeout', '0', 'build me a clock'], { backend });
    await session.screen.waitFor('Thinking it over.');
    session.stdin.write('? what is it doing\n');
    await backend.queried(2);
    expect(backend.requests[1]?.prompt).toContain('what is it doing');
    expect(backend.requests[1]?.prompt).toContain('Thinking it over.');
    // Said at once, while the oracle has not answered yet.
    await session.screen.waitFor('(asking…)');
    expect(session.screen.text).not.toContain('# Aside');
    work.open();
    await session.screen.waitFor('waiting for 1 side question to finish');
    aside.open();
    const outcome = await session.done;
    expect(outcome.code, outcome.stderr).toBe(0);
    const answer = outcome.stderr.indexOf('It is clarifying the clock request.');
    expect(answer).toBeGreaterThan(outcome.stderr.indexOf('# Aside'));
    expect(outcome.stderr.indexOf('Total cost $0.1000')).toBeGreaterThan(answer);
    // The aside's cost and row stay out of the run's manifest.
    expect(readManifest(join(dir, 'runs')).map((row) => row.step)).toEqual(['clarify']);
    expect(readManifest(join(dir, 'runs', 'aside')).map((row) => row.step)).toEqual(['aside']);
  });
});

describe('flower go: words typed during the run', () => {
  test('on a terminal a typed requirement is acknowledged once, not again by its queued event', async () => {
    const work = gate();
    const backend = new GatedBackend([
      [
        sdk.init(),
        sdk.text('Thinking it over.', { id: 'm1' }),
        work,
        sdk.text(BRIEF, { id: 'm2' }),
        sdk.result({ total_cost_usd: 0.1 }),
      ],
    ]);
    const session = start(['go', '--clarify-only', '--timeout', '0', 'build me a clock'], {
      backend,
      tty: true,
    });
    await session.screen.waitFor('Thinking it over.');
    session.stdin.write('also a --utc flag\r');
    await session.screen.waitFor('+ Received');
    work.open();
    const outcome = await session.done;
    expect(outcome.code, outcome.stderr).toBe(0);
    const acknowledgements = outcome.stderr
      .split('\n')
      .filter((line) => /received/i.test(line) && !line.includes('> also a --utc flag'));
    expect(acknowledgements).toEqual([
      expect.stringContaining('+ Received (it will see this at its next inbox check; appended to the brief)'),
    ]);
  });
});

describe('flower go: Ctrl-C', () => {
  const thinking: GatedStep = [sdk.init(), sdk.text('Thinking it over.', { id: 'm1' }), 'hang'];

  test('on a terminal: the first Ctrl-C opens the interrupt prompt, a second one quits with exit 130 and a row', async () => {
    const session = start(['go', '--clarify-only', '--timeout', '0', 'build me a clock'], {
      tty: true,
      backend: new GatedBackend([thinking]),
    });
    await session.screen.waitFor('Thinking it over.');
    session.stdin.write('\x03');
    await session.screen.waitFor('Interrupted — anything to say?');
    session.stdin.write('\x03');
    const outcome = await session.done;
    expect(outcome.code).toBe(130);
    expect(session.signals.exits).toEqual([130]);
    expect(readManifest(join(dir, 'runs'))).toEqual([
      expect.objectContaining({ step: 'clarify', ok: false, error: 'killed-by-signal' }),
    ]);
    // After the quit: the closing line once, and how to continue (flower called as a function: in words).
    expect(outcome.stderr.match(/Total cost \$\d+\.\d{4} · manifest /g)).toHaveLength(1);
    expect(outcome.stderr).toContain(uiText('quit.interrupting'));
    expect(outcome.stderr).toContain('Stopped by Ctrl-C; run the same command again to continue');
  });

  test('on a terminal: the message typed after a first Ctrl-C resumes the same session with it', async () => {
    const paused = gate();
    const backend = new GatedBackend([
      [
        sdk.init(),
        sdk.text('Thinking it over.', { id: 'm1' }),
        paused,
        sdk.text('Still thinking.', { id: 'm2' }),
      ],
      [sdk.init(), sdk.text(BRIEF, { id: 'm3' }), sdk.result({ total_cost_usd: 0.1 })],
    ]);
    const session = start(['go', '--clarify-only', '--timeout', '0', 'build me a clock'], {
      tty: true,
      backend,
    });
    await session.screen.waitFor('Thinking it over.');
    // A SIGINT (cooked mode, or kill -INT) is the same first press as the 0x03 byte.
    session.signals.emit('SIGINT');
    await session.screen.waitFor('Interrupted — anything to say?');
    paused.open();
    session.stdin.write('use UTC only\r');
    const outcome = await session.done;
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(session.signals.exits).toEqual([]);
    expect(backend.requests[1]?.options.resume).toBe('sess-1');
    expect(backend.requests[1]?.prompt).toContain('use UTC only');
    expect(outcome.stderr).toContain('Interrupted; resuming with your message');
    expect(outcome.stderr).toContain('Interrupted this round.');
  });

  test('on a terminal: a SIGINT within 2 s of the first quits, even after the message was entered', async () => {
    const session = start(['go', '--clarify-only', '--timeout', '0', 'build me a clock'], {
      tty: true,
      backend: new GatedBackend([thinking]),
    });
    await session.screen.waitFor('Thinking it over.');
    session.signals.emit('SIGINT');
    await session.screen.waitFor('Interrupted — anything to say?');
    // An empty line: interrupt with nothing to say; the prompt closes, the run goes on.
    session.stdin.write('\r');
    await session.screen.waitFor('Interrupted this round.');
    expect(session.signals.exits).toEqual([]);
    session.signals.emit('SIGINT');
    expect((await session.done).code).toBe(130);
    expect(session.signals.exits).toEqual([130]);
  });

  test('without a terminal the first Ctrl-C exits 130 after the rescue', async () => {
    const session = start(['go', '--clarify-only', '--timeout', '0', 'build me a clock'], {
      backend: new GatedBackend([thinking]),
    });
    await session.screen.waitFor('Thinking it over.');
    session.signals.emit('SIGINT');
    const outcome = await session.done;
    expect(outcome.code).toBe(130);
    expect(session.signals.exits).toEqual([130]);
    expect(readManifest(join(dir, 'runs'))).toEqual([
      expect.objectContaining({ step: 'clarify', ok: false, error: 'killed-by-signal' }),
    ]);
  });
});
