import { describe, expect, test } from 'vitest';

import { findToolPairViolation } from './tool-pairs.js';

const toolUse = (id: string): Record<string, unknown> => ({ type: 'tool_use', id, name: 'Bash', input: {} });
const toolResult = (id: string): Record<string, unknown> => ({
  type: 'tool_result',
  tool_use_id: id,
  content: 'ok',
});

describe('findToolPairViolation', () => {
  test('accepts a well-paired conversation with system entries in between', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'system', content: 'environment' },
      { role: 'assistant', content: [{ type: 'text', text: 'running' }, toolUse('a'), toolUse('b')] },
      { role: 'system', content: 'a harness note between the call and its results' },
      { role: 'user', content: [toolResult('a'), toolResult('b')] },
      { role: 'system', content: 'PostToolUse additional context' },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'thanks' },
    ];
    expect(findToolPairViolation({ messages })).toBeNull();
  });

  test('names the tool_use ids that have no tool_result in the next message', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [toolUse('a'), toolUse('b')] },
      { role: 'user', content: [toolResult('a')] },
    ];
    expect(findToolPairViolation({ messages })).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: b. ' +
        'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
  });

  test('flags a tool_use at the end of the conversation', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [toolUse('a')] },
    ];
    expect(findToolPairViolation({ messages })).toContain('immediately after: a.');
  });

  test('names a tool_result whose tool_use is not in the previous message', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'no tools' },
      { role: 'user', content: [toolResult('gone')] },
    ];
    expect(findToolPairViolation({ messages })).toBe(
      'messages.2.content: unexpected `tool_use_id` found in `tool_result` blocks: gone. ' +
        'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
  });

  test('accepts a body without messages', () => {
    expect(findToolPairViolation({})).toBeNull();
    expect(findToolPairViolation('text')).toBeNull();
  });
});
