import { describe, expect, test } from 'vitest';

import { anthropicErrorBody, errorTypeForStatus, statusForErrorType } from './anthropic-error.js';

describe('anthropic errors', () => {
  test('pair statuses and error types as the real API does', () => {
    expect(errorTypeForStatus(529)).toBe('overloaded_error');
    expect(errorTypeForStatus(413)).toBe('request_too_large');
    expect(errorTypeForStatus(503)).toBe('api_error');
    expect(errorTypeForStatus(418)).toBe('invalid_request_error');
    expect(statusForErrorType('rate_limit_error')).toBe(429);
    expect(statusForErrorType('authentication_error')).toBe(401);
    expect(statusForErrorType('something_new')).toBe(500);
  });

  test('build an error body with a typical message', () => {
    expect(anthropicErrorBody('overloaded_error', 'req_1')).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: 'req_1',
    });
    expect(anthropicErrorBody('api_error', 'req_2', 'custom').error.message).toBe('custom');
  });
});
