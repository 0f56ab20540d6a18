import { describe, expect, test } from 'vitest';
import { isOverflow } from './overflow.js';

describe('isOverflow', () => {
  test.each([
    'prompt is too long: 201234 tokens > 200000 maximum',
    'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"Prompt is too long"}}',
    'Context length exceeded',
    'error code: context_length_exceeded',
    "This model's maximum context length is 128000 tokens",
    'The request exceeds the context window of this model',
    'input exceed the context limit',
    'too many total text bytes: 9000001 > 9000000',
    'input length and `max_tokens` exceed context limit: 199000 + 21333 > 200000, decrease input length',
    'Input length and max_tokens exceed the limit',
    'PROMPT IS TOO LONG',
  ])('recognises %j', (text) => {
    expect(isOverflow(text)).toBe(true);
  });

  test.each([
    'overloaded_error: Overloaded',
    'stall: no SDK message for 120 s',
    'rate_limit_error: too many requests',
    'the prompt is long but fine',
    'context window 200000',
    'max_tokens must be at least 1',
    '',
  ])('does not mistake %j for an overflow', (text) => {
    expect(isOverflow(text)).toBe(false);
  });

  test('looks at every text and skips missing ones', () => {
    expect(isOverflow(null, undefined, 'network error', 'prompt is too long')).toBe(true);
    expect(isOverflow(null, undefined)).toBe(false);
    expect(isOverflow()).toBe(false);
  });
});
