/**
 * Anthropic error bodies and the status ↔ error-type pairs the real API uses, so a scripted failure looks
 * like the real one to the Claude Code binary (which picks its retry policy and message by both).
 *
 * @module
 */

/** The JSON body of an Anthropic API error. */
export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

const typeByStatus: ReadonlyMap<number, string> = new Map([
  [400, 'invalid_request_error'],
  [401, 'authentication_error'],
  [403, 'permission_error'],
  [404, 'not_found_error'],
  [413, 'request_too_large'],
  [429, 'rate_limit_error'],
  [500, 'api_error'],
  [529, 'overloaded_error'],
]);

const statusByType: ReadonlyMap<string, number> = new Map(
  [...typeByStatus].map(([status, type]) => [type, status]),
);

const messageByType: ReadonlyMap<string, string> = new Map([
  ['invalid_request_error', 'Invalid request'],
  ['authentication_error', 'invalid x-api-key'],
  ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  ['not_found_error', 'Not found'],
  ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  ['rate_limit_error', 'Rate limited'],
  ['api_error', 'Internal server error'],
  ['overloaded_error', 'Overloaded'],
]);

/** The error type the real API sends with `status` (`api_error` for other 5xx, `invalid_request_error` else). */
export function errorTypeForStatus(status: number): string {
  return typeByStatus.get(status) ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** The HTTP status the real API sends with `errorType` (500 for a type it does not know). */
export function statusForErrorType(errorType: string): number {
  return statusByType.get(errorType) ?? 500;
}

/** An Anthropic error body; the message defaults to a short text typical of `errorType`. */
export function anthropicErrorBody(
  errorType: string,
  requestId: string,
  message?: string,
): AnthropicErrorBody {
  return {
    type: 'error',
    error: { type: errorType, message: message ?? messageByType.get(errorType) ?? 'Error' },
    request_id: requestId,
  };
}
