import { describe, expect, test } from 'vitest';
import type { FlowerEvent } from '../events/flower-event.js';
import { createTerminalRenderer } from '../render/terminal-renderer.js';
import { quietRetries } from './quiet-retries.js';

/** A stream that keeps what is written to it; a terminal or not. */
function screen(isTTY: boolean): {
  write(text: string): boolean;
  isTTY: boolean;
  columns: number;
  text: string;
} {
  return {
    isTTY,
    columns: 100,
    text: '',
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

function rendererOn(
  output: ReturnType<typeof screen>,
  more: { observe?: (event: FlowerEvent) => void } = {},
) {
  return quietRetries(
    createTerminalRenderer({
      output: output as unknown as NodeJS.WritableStream,
      color: false,
      ...(more.observe ? { observe: more.observe, countdownLines: false } : {}),
    }),
  );
}

const base = { at: 0, step: 'ad-hoc' };
const error: FlowerEvent = {
  ...base,
  kind: 'error',
  text: 'API Error: 529 overloaded',
  synthetic: false,
  errorKind: 'transient',
  subagent: false,
  parentToolUseId: null,
};
const failed: FlowerEvent = {
  ...base,
  kind: 'result',
  text: '',
  sessionId: 's',
  costUsd: 0,
  numTurns: 1,
  isError: true,
  subtype: 'error_during_execution',
  errors: [],
};
const retry: FlowerEvent = {
  ...base,
  kind: 'retry',
  text: 'Attempt 1 failed (transient): API Error · attempt 2 of 6 in 4 s, same session',
  attempt: 1,
  cause: 'error',
  errorKind: 'transient',
  delayS: 4,
};
const stepEnd: FlowerEvent = {
  ...base,
  kind: 'step_end',
  text: '',
  name: 'ad-hoc',
  ok: false,
  error: 'x',
  costUsd: 0,
  attempts: 2,
};
const waiting = (waitedS: number): FlowerEvent => ({
  ...base,
  kind: 'waiting',
  text: `waiting for 127.0.0.1:9 · 0:${String(waitedS).padStart(2, '0')} so far · next check in 15 s · Ctrl-C to stop`,
  host: '127.0.0.1',
  port: 9,
  waitedS,
  nextCheckS: 15,
});

describe('quietRetries', () => {
  test('a retried attempt shows only its retry line', () => {
    const output = screen(false);
    const renderer = rendererOn(output);
    for (const event of [error, failed, retry]) renderer(event);
    renderer.close();
    expect(output.text).toBe(`  ~ ${retry.text}\n`);
  });

  test('an attempt that is not retried shows its error and failed lines as they came', () => {
    const output = screen(false);
    const renderer = rendererOn(output);
    for (const event of [error, failed, stepEnd]) renderer(event);
    expect(output.text).toContain('  ! API Error: 529 overloaded\n');
    expect(output.text).toMatch(/ {2}x failed 1 turn/);
  });

  test('held lines come out before a CLI line', () => {
    const output = screen(false);
    const renderer = rendererOn(output);
    renderer(error);
    renderer.print('closing line');
    expect(output.text.indexOf('API Error')).toBeLessThan(output.text.indexOf('closing line'));
  });

  test('piped: one countdown line per check, no cursor movement', () => {
    const output = screen(false);
    const renderer = rendererOn(output);
    for (const seconds of [0, 15, 30]) renderer(waiting(seconds));
    expect(output.text.split('\n').filter((line) => line.includes('waiting for'))).toHaveLength(3);
    expect(output.text).not.toContain('\u001b[');
  });

  test('beside a status footer the countdown writes no line; the footer sees every check', () => {
    const output = screen(true);
    const seen: FlowerEvent[] = [];
    const renderer = rendererOn(output, { observe: (event) => seen.push(event) });
    for (const seconds of [0, 15, 30]) renderer(waiting(seconds));
    renderer.print('something else');
    expect(output.text).toBe('something else\n');
    expect(seen.filter((event) => event.kind === 'waiting')).toHaveLength(3);
  });
});
