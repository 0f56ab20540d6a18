import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

import { uiText } from '../config/ui-text.js';
import { DECLINED_TEXT, HumanChannel } from '../human/human-channel.js';
import { startLiveInput, type LiveInput, type LiveInputOptions } from './live-input.js';

const IDLE = uiText('live.idle');
const ANSWER = uiText('live.answer');
const INTERRUPT = uiText('live.interrupt');
const MARK = uiText('live.mark');
const ERASE = '\r\x1b[J';

/** A terminal-like input: records raw-mode switches and whether reading had started by then. */
class FakeTerminalInput extends PassThrough {
  readonly isTTY = true;
  readonly modes: string[] = [];
  setRawMode(mode: boolean): this {
    this.modes.push(`${mode ? 'raw' : 'cooked'}${this.listenerCount('data') > 0 ? ' while reading' : ''}`);
    return this;
  }
}

class Screen {
  chunks: string[] = [];
  columns = 300;
  isTTY = true;
  write(text: string): boolean {
    this.chunks.push(text);
    return true;
  }
  get all(): string {
    return this.chunks.join('');
  }
  get last(): string {
    return this.chunks.at(-1) ?? '';
  }
}

let dir: string;
let screen: Screen;
const started: LiveInput[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-live-'));
  screen = new Screen();
});

afterEach(() => {
  for (const live of started.splice(0)) live.close();
  rmSync(dir, { recursive: true, force: true });
});

function start(options: Partial<LiveInputOptions> & Pick<LiveInputOptions, 'input'>): LiveInput {
  const live = startLiveInput({
    output: screen,
    channel: null,
    interrupt: null,
    onSide: null,
    onQuit: () => {
      throw new Error('unexpected quit');
    },
    ...options,
  });
  started.push(live);
  return live;
}

describe('startLiveInput, reading lines (no terminal)', () => {
  test('answers the waiting question with a typed line', async () => {
    const input = new PassThrough();
    const channel = new HumanChannel();
    const asked = channel.ask('Colour?');
    const live = start({ input, channel });
    input.write('blue\n');
    await expect(asked).resolves.toMatchObject({ state: 'answered', answer: 'blue' });
    expect(live.promptLine()).toBe('');
    expect(screen.all).toBe('');
  });

  test('answers with the option picked by number', async () => {
    const input = new PassThrough();
    const channel = new HumanChannel();
    const asked = channel.ask('Colour?', { options: ['red', 'blue'] });
    start({ input, channel });
    input.write('2\n');
    await expect(asked).resolves.toMatchObject({ answer: 'blue' });
  });

  test('declines the question on an empty line and ignores one with nothing pending', async () => {
    const input = new PassThrough();
    const channel = new HumanChannel();
    start({ input, channel });
    input.write('\n');
    const asked = channel.ask('Colour?');
    input.write('\n');
    await expect(asked).resolves.toMatchObject({ state: 'declined', answer: DECLINED_TEXT });
    expect(channel.mail).toEqual([]);
  });

  test('sends other text to the inbox with a receipt saying whether the brief keeps it', async () => {
    const input = new PassThrough();
    const amended = new HumanChannel({ amendPath: join(dir, 'brief.md') });
    start({ input, channel: amended });
    input.write('use tabs\n');
    await vi.waitFor(() => expect(amended.pendingMail().map((mail) => mail.text)).toEqual(['use tabs']));
    expect(screen.all).toBe(`${uiText('live.received', { note: uiText('live.amended') })}\n`);

    screen.chunks = [];
    const other = new PassThrough();
    const unsaved = new HumanChannel();
    start({ input: other, channel: unsaved });
    other.write('use spaces\n');
    await vi.waitFor(() => expect(unsaved.pendingMail()).toHaveLength(1));
    expect(screen.all).toBe(`${uiText('live.received', { note: uiText('live.noBrief') })}\n`);
  });

  test('says text is not delivered when the run has no channel', async () => {
    const input = new PassThrough();
    start({ input });
    input.write('hello\n');
    await vi.waitFor(() => expect(screen.all).toBe(`${uiText('live.noInbox')}\n`));
  });

  test('starts side questions with either mark, or says they are not available', async () => {
    const input = new PassThrough();
    const asked: string[] = [];
    start({ input, onSide: (question) => asked.push(question) });
    input.write('? what now\n？进度\n?\n');
    await vi.waitFor(() => expect(asked).toEqual(['what now', '进度']));

    const other = new PassThrough();
    start({ input: other });
    other.write('?what now\n');
    await vi.waitFor(() => expect(screen.all).toBe(`${uiText('aside.unwired')}\n`));
  });

  test('declines waiting questions as input closed at end of input and stops', async () => {
    const input = new PassThrough();
    const channel = new HumanChannel();
    const first = channel.ask('One?');
    const second = channel.ask('Two?');
    const live = start({ input, channel });
    input.end();
    await live.closed;
    for (const asked of [first, second]) {
      await expect(asked).resolves.toMatchObject({
        state: 'declined',
        answer: `${DECLINED_TEXT} (they said: input closed)`,
      });
    }
  });
});

describe('startLiveInput, character mode', () => {
  test('switches to character mode before reading and restores it on close', () => {
    const input = new FakeTerminalInput();
    const live = start({ input });
    expect(input.modes).toEqual(['raw']);
    expect(input.listenerCount('data')).toBe(1);
    live.close();
    expect(input.modes).toEqual(['raw', 'cooked']);
    expect(input.listenerCount('data')).toBe(0);
    live.close();
    expect(input.modes).toHaveLength(2);
  });

  test('draws the idle prompt with the half-typed text and echoes a submitted line', async () => {
    const input = new FakeTerminalInput();
    const channel = new HumanChannel();
    const live = start({ input, channel });
    // The hint once, above; the prompt itself is the short mark.
    expect(screen.last).toBe(`${IDLE}\n${MARK}`);
    input.write('ab');
    await vi.waitFor(() => expect(live.promptLine()).toBe(`${MARK}ab`));
    expect(screen.last).toBe(`${ERASE}${MARK}ab`);
    input.write('\x1b[D');
    await vi.waitFor(() => expect(screen.last).toBe(`${ERASE}${MARK}ab\x1b[${MARK.length + 2}G`));
    input.write('\r');
    await vi.waitFor(() => expect(channel.pendingMail()).toHaveLength(1));
    expect(screen.all).toContain(`${ERASE}${MARK}ab\n`);
    expect(screen.last).toBe(`${uiText('live.received', { note: uiText('live.noBrief') })}\n${MARK}`);
    expect(screen.all.split(IDLE)).toHaveLength(2);
  });

  test('recalls the line sent before with up, onto the prompt, and sends it again', async () => {
    const input = new FakeTerminalInput();
    const channel = new HumanChannel();
    const live = start({ input, channel });
    input.write('keep going\r');
    await vi.waitFor(() => expect(channel.pendingMail()).toHaveLength(1));
    input.write('\x1b[A');
    await vi.waitFor(() => expect(live.promptLine()).toBe(`${MARK}keep going`));
    expect(screen.last).toBe(`${ERASE}${MARK}keep going`);
    input.write('\r');
    await vi.waitFor(() => expect(channel.pendingMail()).toHaveLength(2));
  });

  test('wraps a hint at word boundaries at 60 columns and keeps typing on the prompt row', async () => {
    screen.columns = 60;
    const input = new FakeTerminalInput();
    const live = start({ input, channel: new HumanChannel() });
    const [hint = '', prompt = ''] = [
      screen.last.slice(0, screen.last.lastIndexOf('\n')),
      screen.last.slice(screen.last.lastIndexOf('\n') + 1),
    ];
    const rows = hint.split('\n');
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.join(' ')).toBe(IDLE);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(60);
    expect(prompt).toBe(MARK);
    input.write('add a test');
    await vi.waitFor(() => expect(screen.last).toBe(`${ERASE}${MARK}add a test`));
    expect(live.promptLine()).toBe(`${MARK}add a test`);
  });

  test('writes output above the prompt and switches to the answer prompt while a question waits', async () => {
    const input = new FakeTerminalInput();
    const channel = new HumanChannel();
    const live = start({ input, channel });
    // The renderer writes every event through live.output; here a stand-in renderer writes the ask line.
    channel.onEvent = (event) => live.output.write(`  ${event.kind === 'ask' ? '?' : '+'} ${event.text}\n`);
    input.write('bl');
    await vi.waitFor(() => expect(live.promptLine()).toBe(`${MARK}bl`));
    const asked = channel.ask('Colour?');
    await vi.waitFor(() => expect(screen.last).toBe(`${ERASE}  ? Colour?\n${ANSWER}\n${MARK}bl`));
    input.write('ue\r');
    await expect(asked).resolves.toMatchObject({ answer: 'blue' });
    // Enter left the line on screen without a prompt, so the answer line is written with nothing to erase.
    // Back to idle, the idle hint is not shown again: it is already in the scrollback.
    expect(screen.chunks.slice(-2)).toEqual([`${ERASE}${MARK}blue\n`, `  + blue\n${MARK}`]);
    expect(live.output.isTTY).toBe(true);
    expect(live.output.columns).toBe(300);
  });

  test('interrupts on Ctrl-C and resolves the interrupt with the next line', async () => {
    const input = new FakeTerminalInput();
    const channel = new HumanChannel();
    void channel.ask('Still waiting?');
    const messages: Array<string | PromiseLike<string>> = [];
    const live = start({
      input,
      channel,
      interrupt: (message) => {
        messages.push(message);
        return true;
      },
    });
    input.write('\x03');
    await vi.waitFor(() => expect(messages).toHaveLength(1));
    expect(screen.last).toBe(`${ERASE}${INTERRUPT}\n${MARK}`);
    input.write('? use tabs\r');
    await expect(messages[0]).resolves.toBe('? use tabs');
    expect(screen.all).toContain(`${uiText('int.done')}\n`);
    expect(screen.all).toContain(`${uiText('int.pending', { n: 1 })}\n`);
    expect(live.promptLine()).toBe(MARK);
    // The question's hint was shown when it first waited, and once is enough.
    expect(screen.all.split(ANSWER)).toHaveLength(2);
    expect(channel.pending()).toHaveLength(1);
  });

  test('quits on a second Ctrl-C before the message is typed', async () => {
    const input = new FakeTerminalInput();
    const onQuit = vi.fn();
    let now = 0;
    start({ input, interrupt: () => true, onQuit, now: () => now });
    input.write('\x03');
    now = 60_000;
    input.write('\x03');
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(1));
  });

  test('quits on a second Ctrl-C within 2 s even after the message, and re-arms after that', async () => {
    const input = new FakeTerminalInput();
    const onQuit = vi.fn();
    const interrupt = vi.fn(() => true);
    let now = 0;
    start({ input, interrupt, onQuit, now: () => now });
    input.write('\x03\r');
    now = 1_500;
    input.write('\x03');
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(1));
    now = 10_000;
    input.write('\x03');
    await vi.waitFor(() => expect(interrupt).toHaveBeenCalledTimes(2));
    expect(onQuit).toHaveBeenCalledTimes(1);
  });

  test('quits on Ctrl-C when there is nothing to interrupt', async () => {
    for (const interrupt of [null, () => false]) {
      const onQuit = vi.fn();
      const input = new FakeTerminalInput();
      start({ input, interrupt, onQuit });
      input.write('\x03');
      await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(1));
    }
  });

  test('on ^D sends an empty interrupt, declines the question, removes the prompt and restores the terminal', async () => {
    const input = new FakeTerminalInput();
    const channel = new HumanChannel();
    const asked = channel.ask('One?');
    let message: string | PromiseLike<string> = 'not interrupted';
    const live = start({
      input,
      channel,
      interrupt: (words) => {
        message = words;
        return true;
      },
    });
    input.write('\x03\x04');
    await live.closed;
    await expect(message).resolves.toBe('');
    await expect(asked).resolves.toMatchObject({ answer: `${DECLINED_TEXT} (they said: input closed)` });
    expect(screen.last).toBe(ERASE);
    expect(live.promptLine()).toBe('');
    expect(input.modes).toEqual(['raw', 'cooked']);
  });

  test('treats a bare Enter as an empty line, never as end of input', async () => {
    const input = new FakeTerminalInput();
    const channel = new HumanChannel();
    const live = start({ input, channel });
    input.write('\r\r');
    const asked = channel.ask('One?');
    input.write('\r');
    await expect(asked).resolves.toMatchObject({ state: 'declined', answer: DECLINED_TEXT });
    expect(live.promptLine()).toBe(MARK);
  });

  test('settles a pending interrupt with nothing said when closed', async () => {
    const input = new FakeTerminalInput();
    let message: string | PromiseLike<string> = 'not interrupted';
    const live = start({
      input,
      interrupt: (words) => {
        message = words;
        return true;
      },
    });
    live.requestInterrupt();
    live.close();
    await expect(message).resolves.toBe('');
  });
});
