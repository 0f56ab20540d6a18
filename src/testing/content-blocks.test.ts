import { describe, expect, test } from 'vitest';

import { text, thinking, toolUse } from './content-blocks.js';

describe('content blocks', () => {
  test('build text, thinking and tool_use blocks', () => {
    expect(text('hi')).toEqual({ type: 'text', text: 'hi' });
    expect(thinking('hmm')).toEqual({ type: 'thinking', thinking: 'hmm', signature: 'fake-signature' });
    expect(toolUse('Bash', { command: 'ls' }, 'tu_1')).toEqual({
      type: 'tool_use',
      id: 'tu_1',
      name: 'Bash',
      input: { command: 'ls' },
    });
  });

  test('give each tool call without an id a fresh toolu_ id', () => {
    const first = toolUse('Read', {});
    const second = toolUse('Read', {});
    expect(first.id).toMatch(/^toolu_fake_[0-9a-f]{20}$/);
    expect(second.id).not.toBe(first.id);
  });
});
