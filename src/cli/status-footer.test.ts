import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { FlowerEvent } from '../events/flower-event.js';
import { createStatusFooter, FOOTER_INTERVAL_MS, type StatusFooter } from './status-footer.js';

const ERASE = '\r\x1b[2K';
const step: FlowerEvent = {
  at: 0,
  step: 'work',
  kind: 'step',
  text: '',
  name: 'work',
  index: 1,
  total: 1,
  resumed: false,
  woke: 0,
};

let clock = 0;
let chunks: string[] = [];
let footer: StatusFooter;

beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
  chunks = [];
  footer = createStatusFooter({
    terminal: { columns: 60, isTTY: true, write: (text: string) => chunks.push(text) },
    color: false,
    now: () => clock,
  });
});

afterEach(() => {
  footer.close();
  vi.useRealTimers();
});

describe('createStatusFooter', () => {
  test('draws nothing while no step runs', () => {
    footer.output.write('a line\n');
    vi.advanceTimersByTime(3 * FOOTER_INTERVAL_MS);
    expect(chunks.join('')).toBe('a line\n');
  });

  test('keeps the line under the output, ticks every second, and erases it before each write', () => {
    footer.observe(step);
    footer.output.write('== work ==\n');
    expect(chunks.join('')).toBe('== work ==\n  ~ model call 0:00 · $0.00');
    chunks = [];
    clock += 1000;
    vi.advanceTimersByTime(FOOTER_INTERVAL_MS);
    expect(chunks.join('')).toBe(`${ERASE}  ~ model call 0:01 · $0.00`);
    chunks = [];
    footer.output.write('  some text\n');
    expect(chunks.join('')).toBe(`${ERASE}  some text\n  ~ model call 0:01 · $0.00`);
  });

  test('does not draw inside a line that is not finished yet', () => {
    footer.observe(step);
    footer.output.write('Checking credentials…');
    vi.advanceTimersByTime(2 * FOOTER_INTERVAL_MS);
    expect(chunks.join('')).toBe('Checking credentials…');
  });

  test('leaves nothing behind: the result clears it, and so does close', () => {
    footer.observe(step);
    footer.output.write('x\n');
    footer.observe({
      at: 0,
      step: 'work',
      kind: 'result',
      text: '',
      sessionId: 's',
      costUsd: 0,
      numTurns: 1,
      isError: false,
      subtype: 'success',
      errors: [],
    });
    footer.output.write('  + done\n');
    expect(chunks.join('')).toBe(`x\n  ~ model call 0:00 · $0.00${ERASE}  + done\n`);
    footer.observe(step);
    vi.advanceTimersByTime(FOOTER_INTERVAL_MS);
    chunks = [];
    footer.close();
    expect(chunks.join('')).toBe(ERASE);
  });

  test('hands the drawing to the live input line while it is attached', () => {
    const redraws: number[] = [];
    footer.observe(step);
    footer.output.write('x\n');
    chunks = [];
    footer.attach(() => redraws.push(clock));
    expect(chunks.join('')).toBe(ERASE);
    vi.advanceTimersByTime(2 * FOOTER_INTERVAL_MS);
    expect(redraws).toHaveLength(2);
    expect(footer.line()).toBe('  ~ model call 0:00 · $0.00');
  });
});
