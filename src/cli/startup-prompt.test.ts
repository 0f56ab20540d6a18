import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { readStartupLine, type StartupPromptOptions } from './startup-prompt.js';

function screen(): { output: { write(text: string): boolean; columns: number }; text: () => string } {
  const written: string[] = [];
  return {
    output: {
      columns: 80,
      write: (text: string) => {
        written.push(text);
        return true;
      },
    },
    text: () => written.join(''),
  };
}

function options(input: PassThrough, overrides: Partial<StartupPromptOptions> = {}): StartupPromptOptions {
  return { input, output: screen().output, isTty: false, waking: false, lang: 'en', ...overrides };
}

describe('readStartupLine', () => {
  test('takes the first line of a pipe and leaves the rest unread for the next reader', async () => {
    const input = new PassThrough();
    input.end('build me a clock, "quoted" & 时钟\r\nsecond line\nthird');
    expect(await readStartupLine(options(input))).toBe('build me a clock, "quoted" & 时钟');
    const rest: string[] = [];
    input.on('data', (chunk: Buffer) => rest.push(chunk.toString()));
    input.resume();
    await new Promise((resolve) => input.on('end', resolve));
    expect(rest.join('')).toBe('second line\nthird');
  });

  test('reads a last line without a newline, and end of input as cancel', async () => {
    const last = new PassThrough();
    last.end('no newline');
    expect(await readStartupLine(options(last))).toBe('no newline');
    const empty = new PassThrough();
    empty.end('');
    expect(await readStartupLine(options(empty))).toBeNull();
    expect(await readStartupLine({ ...options(empty), input: undefined })).toBeNull();
  });

  test('on a terminal: header, raw mode while typing, editing keys, pasted lines handed back whole', async () => {
    const input = new PassThrough() as PassThrough & { setRawMode: (mode: boolean) => void };
    const modes: boolean[] = [];
    input.setRawMode = (mode) => modes.push(mode);
    const shown = screen();
    const first = readStartupLine({ ...options(input), output: shown.output, isTty: true, waking: true });
    input.write('/nex\x7fw\r\nbuild it\r\n');
    expect(await first).toBe('/new');
    expect(shown.text()).toContain('Continue from last time?');
    expect(shown.text()).toContain('> /new\n');
    expect(modes).toEqual([true, false]);
    // CR LF is one Enter: the next prompt gets "build it", not an empty line.
    const second = readStartupLine({ ...options(input), output: shown.output, isTty: true });
    expect(await second).toBe('build it');
    expect(shown.text()).toContain('What should I do?');
  });

  test('on a terminal: Ctrl-C and Ctrl-D on an empty line cancel', async () => {
    for (const key of ['\x03', 'abc\x03', '\x04']) {
      const input = new PassThrough();
      const line = readStartupLine({ ...options(input), isTty: true });
      input.write(key);
      expect(await line, JSON.stringify(key)).toBeNull();
    }
  });
});
