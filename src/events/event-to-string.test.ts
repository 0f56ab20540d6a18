import { describe, expect, test } from 'vitest';
import { eventToString } from './event-to-string.js';
import type { FlowerEvent } from './flower-event.js';

const base = { at: 0, step: null, subagent: false, parentToolUseId: null };

describe('eventToString', () => {
  test('shows a tool call as [tool] argument', () => {
    const event: FlowerEvent = {
      ...base,
      kind: 'tool_call',
      text: 'ls -la',
      tool: 'Bash',
      id: 't',
      input: {},
    };
    expect(eventToString(event)).toBe('[Bash] ls -la');
    expect(eventToString({ ...event, text: '' })).toBe('[Bash]');
  });

  test('shows the text, or <kind> when there is none', () => {
    expect(eventToString({ ...base, kind: 'text', text: 'hello' })).toBe('hello');
    expect(eventToString({ ...base, kind: 'thinking', text: '' })).toBe('<thinking>');
  });
});
