import { PassThrough } from 'node:stream';
import { describe, expect, test, vi } from 'vitest';
import type { CostEvent, FlowerEvent } from '../events/flower-event.js';
import { createTerminalRenderer } from './terminal-renderer.js';

function capture(isTTY = false): {
  stream: PassThrough & { isTTY?: boolean; columns?: number };
  text: () => string;
  writes: () => number;
} {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  if (isTTY) {
    stream.isTTY = true;
    stream.columns = 200;
  }
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return { stream, text: () => chunks.join(''), writes: () => chunks.length };
}

const main = { at: 0, step: 'ad-hoc', subagent: false, parentToolUseId: null };
const result = (costUsd: number): FlowerEvent => ({
  at: 0,
  step: 'ad-hoc',
  kind: 'result',
  text: 'success',
  sessionId: 's',
  costUsd,
  numTurns: 1,
  isError: false,
  subtype: 'success',
  errors: [],
});
const cost = (runUsd: number): CostEvent => ({
  at: 0,
  step: 'ad-hoc',
  kind: 'cost',
  text: '',
  usd: 0,
  stepUsd: runUsd,
  runUsd,
});

describe('createTerminalRenderer', () => {
  test('accumulates context, cost and elapsed across events into the status line', async () => {
    const out = capture();
    let clock = 1_000;
    const render = createTerminalRenderer({ output: out.stream, now: () => clock });
    render({
      at: 0,
      step: 'ad-hoc',
      kind: 'context',
      text: '',
      tokens: 2500,
      sessionId: 's',
      window: null,
      threshold: null,
    });
    render({ ...main, kind: 'text', text: 'first' });
    clock += 65_000;
    render(result(0.5));
    render(result(0.25));
    render.close();
    render({ ...main, kind: 'text', text: 'after close' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).toBe(
      [
        '  first',
        '  - context 2.5K · total $0.00 · 0:00',
        '  + done 1 turn · $0.5000 · elapsed 1:05',
        '  - context 2.5K · total $0.50 · 1:05',
        '  + done 1 turn · $0.2500 · elapsed 1:05',
        '  - context 2.5K · total $0.75 · 1:05',
        '',
      ].join('\n'),
    );
  });

  test('a resumed session: the done line shows the step figure of the cost event before it, not the lifetime total', async () => {
    const out = capture();
    const render = createTerminalRenderer({ output: out.stream, now: () => 0 });
    const costOf = (step: string, stepUsd: number, runUsd: number): CostEvent => ({
      ...cost(runUsd),
      step,
      stepUsd,
    });
    const resultOf = (step: string, lifetime: number): FlowerEvent => ({ ...result(lifetime), step });
    // Step one: a fresh session. Step two resumes a session that had spent $0.3156 in earlier processes;
    // its result reports the session's lifetime $0.3863 while the step itself spent $0.0707.
    render(costOf('plan', 0.02, 0.02));
    render(resultOf('plan', 0.02));
    render(costOf('work', 0.03, 0.05));
    render(costOf('work', 0.0707, 0.0907));
    render(resultOf('work', 0.3863));
    await new Promise((resolve) => setImmediate(resolve));
    const lines = out.text().split('\n');
    expect(lines.filter((line) => line.startsWith('  + done'))).toEqual([
      '  + done 1 turn · $0.0200 · elapsed 0:00',
      '  + done 1 turn · $0.0707 · elapsed 0:00',
    ]);
    expect(lines.filter((line) => line.startsWith('  -'))).toEqual([
      '  - total $0.02 · 0:00',
      '  - total $0.09 · 0:00',
    ]);
    expect(out.text()).not.toContain('0.3863');
  });

  test('the run total follows every cost event and never goes down', () => {
    const out = capture();
    const render = createTerminalRenderer({ output: out.stream, now: () => 0 });
    const seen: number[] = [];
    for (const runUsd of [0.01, 0.02, 0.015, 0.04]) {
      render(cost(runUsd));
      seen.push(render.state.totalUsd);
    }
    expect(seen).toEqual([0.01, 0.02, 0.02, 0.04]);
  });

  test('shows the context against its window when the context event carries one', async () => {
    const out = capture();
    const render = createTerminalRenderer({ output: out.stream, now: () => 0 });
    render({
      ...main,
      kind: 'context',
      text: '',
      tokens: 153_100,
      sessionId: 's',
      window: 200_000,
      threshold: 180_000,
    });
    render({ ...main, kind: 'text', text: 'hi' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).toContain('  - context 153.1K/200K · total $0.00 · 0:00');
  });

  test('writes no colour or cursor movement to a pipe, and colour to a terminal', async () => {
    const piped = capture();
    createTerminalRenderer({ output: piped.stream })({
      ...main,
      kind: 'error',
      text: 'bad',
      synthetic: true,
      errorKind: null,
    });
    const terminal = capture(true);
    createTerminalRenderer({ output: terminal.stream })({
      ...main,
      kind: 'error',
      text: 'bad',
      synthetic: true,
      errorKind: null,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(piped.text()).toBe('  ! bad\n');
    expect(piped.text()).not.toContain('\x1b');
    expect(terminal.text()).toContain('\x1b[31m');
  });

  test('keeps a terminal plain when NO_COLOR is set and no colour is given, but follows an explicit one', async () => {
    vi.stubEnv('NO_COLOR', '1');
    try {
      const terminal = capture(true);
      createTerminalRenderer({ output: terminal.stream })({ ...main, kind: 'text', text: 'hi' });
      const asked = capture(true);
      createTerminalRenderer({ output: asked.stream, color: true })({
        ...main,
        kind: 'error',
        text: 'bad',
        synthetic: true,
        errorKind: null,
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(terminal.text()).toContain('hi');
      expect(terminal.text()).not.toContain('\x1b');
      expect(asked.text()).toContain('\x1b[31m');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  test('follows an explicit colour choice over the stream kind', async () => {
    const terminal = capture(true);
    createTerminalRenderer({ output: terminal.stream, color: false })({
      ...main,
      kind: 'error',
      text: 'bad',
      synthetic: true,
      errorKind: null,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(terminal.text()).toBe('  ! bad\n');
  });

  test('writes each event as one write and never wider than the width', async () => {
    const out = capture();
    const render = createTerminalRenderer({ output: out.stream, width: 40 });
    render({ ...main, kind: 'text', text: 'word '.repeat(40) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes()).toBe(1);
    expect(
      out
        .text()
        .split('\n')
        .every((line) => line.length <= 40),
    ).toBe(true);
  });

  test('wraps CLI lines at word boundaries but keeps a long path whole, and keeps blank lines', async () => {
    const out = capture();
    const render = createTerminalRenderer({ output: out.stream, width: 40 });
    const path = `/tmp/my-${'x'.repeat(50)}/manifest.json`;
    render.print(`\nTotal cost $0.0123 · manifest ${path}\x1b]0;t\x07`, 'dim');
    render.line('\x1b[32m+ saved\x1b[39m\x1b[2J');
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).toBe(`\nTotal cost $0.0123 · manifest\n${path}\n\x1b[32m+ saved\x1b[39m\n`);
  });
});
