import { describe, expect, test } from 'vitest';
import { FATAL_PATTERNS, STALL_PREFIX, TRANSIENT_PATTERNS, classify } from './classify-error.js';

// Texts as the Claude Code child, the SDK and Node produce them (as recorded from the real binary), one or
// more per pattern.
const FATAL_TEXTS = [
  'API Error: 400 due to tool use concurrency issues.',
  'API Error: 401 {"type":"error","error":{"type":"authentication_error"}}',
  'API Error: 403 Forbidden',
  'API Error: 404 model not found',
  'Invalid API key · Fix external API key',
  'invalid_api_key',
  'authentication_failed',
  'Unauthorized',
  'EACCES: permission denied, open /etc/shadow',
  'invalid_request_error: messages: text content blocks must be non-empty',
  'Your credit balance is too low to access the Anthropic API.',
  'Quota exceeded for this organisation',
  'error_max_budget_usd: step budget exhausted',
  'error_max_turns',
  'CLINotFoundError: Claude Code not found',
  'Claude Code executable not found at /x/cli.js. Is options.pathToClaudeCodeExecutable set?',
  'Claude Code native binary not found at /x/claude. Please ensure Claude Code is installed via native installer.',
  "Claude Code native binary at /x/claude exists but failed to launch. This usually means the binary does not match this system's libc",
  'Error: spawn E2BIG',
  'Error: spawn /x/claude EACCES',
  "TypeError: The argument 'options.env['FOO']' must be a string without null bytes. Received 'a\\x00b'",
];

const TRANSIENT_TEXTS = [
  'Connection refused — a firewall or proxy may be blocking it (ECONNREFUSED)',
  'Connection dropped (ECONNRESET)',
  'getaddrinfo ENOTFOUND api.anthropic.com',
  'getaddrinfo EAI_AGAIN api.anthropic.com',
  'connect ETIMEDOUT 10.0.0.1:443',
  'write EPIPE',
  'connect EHOSTUNREACH 10.0.0.1:443',
  'connect ENETDOWN',
  'socket hang up',
  'TypeError: fetch failed',
  'Network error while streaming',
  'Connection error.',
  "Can't reach the API server",
  'API Error: Request rejected (429) · Rate limited',
  'API Error: 500 Internal server error',
  'API Error: 502 Bad Gateway',
  'API Error: 503',
  'API Error: 504 Gateway Timeout',
  'Repeated 529 Overloaded errors',
  'overloaded_error',
  'rate_limit_error',
  'ratelimit hit',
  'Too Many Requests',
  'Request timeout',
  'The operation timed out.',
  'Resource temporarily unavailable',
  'Service Unavailable',
  'internal server error',
];

describe('classify', () => {
  test.each(FATAL_TEXTS)('calls %j fatal', (text) => {
    expect(classify(text)).toBe('fatal');
  });

  test.each(TRANSIENT_TEXTS)('calls %j transient', (text) => {
    expect(classify(text)).toBe('transient');
  });

  test('has a sample text for every fatal and every transient pattern', () => {
    for (const pattern of FATAL_PATTERNS) {
      expect(
        FATAL_TEXTS.some((text) => pattern.test(text)),
        String(pattern),
      ).toBe(true);
    }
    for (const pattern of TRANSIENT_PATTERNS) {
      expect(
        TRANSIENT_TEXTS.some((text) => pattern.test(text)),
        String(pattern),
      ).toBe(true);
    }
  });

  test.each([
    'API Error: 401 Connection error while authenticating',
    'authentication_failed: ECONNRESET',
    'Invalid API key (request timed out after retry)',
    '403 Forbidden from proxy: service unavailable',
    'error_max_budget_usd after 529 overloaded',
  ])('checks fatal before transient: %j', (text) => {
    expect(classify(text)).toBe('fatal');
  });

  test.each([undefined, null, '', '   \n'])('calls an empty error (%j) unknown', (text) => {
    expect(classify(text)).toBe('unknown');
  });

  test.each([
    'Prompt is too long: 210000 tokens > 200000 maximum',
    'Claude Code process aborted by user',
    'something odd happened',
    'port 4010 is in use',
    'read 5000 tokens',
  ])('calls an unrecognised error (%j) unknown', (text) => {
    expect(classify(text)).toBe('unknown');
  });

  test('ignores case', () => {
    expect(classify('OVERLOADED')).toBe('transient');
    expect(classify('UNAUTHORIZED')).toBe('fatal');
    expect(classify('socket HANG UP')).toBe('transient');
  });

  test.each([
    'stall: no SDK message for 120 s',
    'stall: no SDK message for 400 s',
    'STALL: no SDK message for 401 s (authentication)',
    '  stall: no SDK message for 90 s',
  ])('calls a stall (%j) transient, whatever its number', (text) => {
    expect(text.trim().toLowerCase().startsWith(STALL_PREFIX)).toBe(true);
    expect(classify(text)).toBe('transient');
  });

  test('does not read "stall" elsewhere in a text as the prefix', () => {
    expect(classify('install failed')).toBe('unknown');
    expect(classify('API Error: 401 stall: no')).toBe('fatal');
  });
});
