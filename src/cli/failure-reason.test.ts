import { describe, expect, test } from 'vitest';
import { classifyFailure, failureText } from './failure-reason.js';

describe('classifyFailure', () => {
  test('recognises credential failures by the closing-line pattern', () => {
    for (const text of [
      'api_error 401: Invalid API key',
      'invalid_api_key',
      'Authentication failed',
      'Unauthorized',
      '无效的 token',
    ]) {
      expect(classifyFailure(text), text).toBe('credentials');
    }
  });

  test('recognises overload and rate limits', () => {
    expect(classifyFailure('api_error 529: Repeated 529 Overloaded errors')).toBe('overloaded');
    expect(classifyFailure('API Error: Request rejected (429) · Rate limited')).toBe('rate_limited');
  });

  test('leaves everything else as other', () => {
    expect(classifyFailure('error_max_turns: Reached maximum number of turns (3)')).toBe('other');
  });
});

describe('failureText', () => {
  test('joins the error and all recorded errors with spaces', () => {
    expect(
      failureText({ error: 'api_error 529', errors: ['stall: no SDK message', 'Connection lost'] }),
    ).toBe('api_error 529 stall: no SDK message Connection lost');
    expect(failureText({ error: null, errors: [] })).toBe('');
  });

  test('does not repeat an error the error text already quotes', () => {
    expect(
      failureText({ error: 'api_error 401: Invalid API key', errors: ['Invalid API key', 'other'] }),
    ).toBe('api_error 401: Invalid API key other');
  });
});
