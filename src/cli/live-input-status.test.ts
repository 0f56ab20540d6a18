import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { startLiveInput, type LiveInput } from './live-input.js';

/** A terminal-like input with a raw mode. */
class FakeTerminalInput extends PassThrough {
  readonly isTTY = true;
  setRawMode(): this {
    return this;
  }
}

const started: LiveInput[] = [];
afterEach(() => {
  for (const live of started.splice(0)) live.close();
});

describe('the live input line with a status line', () => {
  test('draws the status on the row above the prompt and erases both before writing above them', () => {
    const chunks: string[] = [];
    const screen = { columns: 80, isTTY: true, write: (text: string) => chunks.push(text) };
    let status = '  ~ model call 0:01 · $0.00';
    const live = startLiveInput({
      input: new FakeTerminalInput(),
      output: screen,
      channel: null,
      interrupt: null,
      onSide: null,
      onQuit: () => undefined,
      characterMode: true,
      status: () => status,
    });
    started.push(live);
    expect(chunks.join('')).toContain('  ~ model call 0:01 · $0.00\n');
    status = '  ~ model call 0:02 · $0.00';
    chunks.length = 0;
    live.refresh();
    // Up one row from the prompt to the status line, clear to the end, then both again.
    expect(chunks.join('').startsWith('\r\x1b[1A\x1b[J')).toBe(true);
    expect(chunks.join('')).toContain('  ~ model call 0:02 · $0.00\n');
    chunks.length = 0;
    live.writeAbove('an event line\n');
    expect(chunks.join('').startsWith('\r\x1b[1A\x1b[Jan event line\n')).toBe(true);
    // No status (nothing runs): the prompt alone, and erasing starts on its own row.
    status = '';
    live.refresh();
    chunks.length = 0;
    live.writeAbove('another\n');
    expect(chunks.join('').startsWith('\r\x1b[Janother\n')).toBe(true);
    expect(chunks.join('')).not.toContain('model call');
  });
});
