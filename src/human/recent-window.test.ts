import { describe, expect, test } from 'vitest';

import type { FlowerEvent } from '../events/flower-event.js';
import { RecentWindow, windowLine } from './recent-window.js';

const base = { at: 0, step: null, subagent: false, parentToolUseId: null };

const events = {
  text: { ...base, kind: 'text', text: 'Reading the code.' },
  thinking: { ...base, kind: 'thinking', text: 'hmm' },
  prompt: { ...base, kind: 'prompt', text: 'brief for a worker' },
  subagentCall: {
    ...base,
    subagent: true,
    kind: 'tool_call',
    tool: 'Bash',
    id: 't1',
    input: {},
    text: 'npm test\n  --silent',
  },
  result: { ...base, kind: 'tool_result', toolUseId: 't1', tool: null, isError: false, text: 'ok' },
  step: {
    kind: 'step',
    text: 'work',
    at: 0,
    step: null,
    name: 'work',
    index: 1,
    total: 3,
    resumed: false,
    woke: 0,
  },
  empty: { ...base, kind: 'text', text: '  \n ' },
} satisfies Record<string, FlowerEvent>;

describe('windowLine', () => {
  test.each([
    ['text', events.text, '[text·main] Reading the code.'],
    ['a subagent tool call', events.subagentCall, '[tool_call/Bash·subagent] npm test --silent'],
    ['a tool result without a tool name', events.result, '[tool_result·main] ok'],
    ['an event without a thread', events.step, '[step·main] work'],
    ['thinking', events.thinking, null],
    ['a prompt', events.prompt, null],
    ['an event without text', events.empty, null],
  ])('formats %s', (_name, event, line) => {
    expect(windowLine(event)).toBe(line);
  });

  test('cuts text to 200 characters, counting code points', () => {
    const line = windowLine({ ...events.text, text: '字'.repeat(150) + 'x'.repeat(100) });
    expect(line).toBe(`[text·main] ${'字'.repeat(150)}${'x'.repeat(50)}`);
  });
});

describe('RecentWindow', () => {
  test('keeps the last lines in order', () => {
    const window = new RecentWindow(2);
    for (const text of ['one', 'two', 'three']) window.sink({ ...events.text, text });
    window.sink(events.thinking);
    expect(window.lines()).toEqual(['[text·main] two', '[text·main] three']);
  });

  test('keeps sixty lines by default', () => {
    const window = new RecentWindow();
    for (let index = 0; index < 70; index += 1) window.sink({ ...events.text, text: `n${index}` });
    expect(window.lines()).toHaveLength(60);
    expect(window.lines()[0]).toBe('[text·main] n10');
  });
});
