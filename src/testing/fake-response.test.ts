import { describe, expect, test } from 'vitest';

import { text } from './content-blocks.js';
import { message } from './fake-response.js';

describe('message', () => {
  test('builds a message answer with optional usage and stop reason', () => {
    expect(message([text('hi')])).toEqual({ kind: 'message', content: [text('hi')] });
    expect(message([text('hi')], { usage: { input_tokens: 5 }, stopReason: 'max_tokens' })).toEqual({
      kind: 'message',
      content: [text('hi')],
      usage: { input_tokens: 5 },
      stopReason: 'max_tokens',
    });
  });
});
