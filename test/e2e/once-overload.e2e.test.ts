// `flower once` when the API is overloaded on every call: after its retries it must stop with one line that
// names overload, never a stack trace. The CLI runs in process (runCli) with the real SDK and binary, so the
// test can shorten flower's own backoff; the default would wait about two minutes before giving up.
import { PassThrough } from 'node:stream';
import { afterEach, expect, test } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { Resilience } from '../../src/runtime/resilience.js';
import { FakeAnthropicServer, scratchEnvironment, type ScratchEnvironment } from '../../src/testing/index.js';

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await server?.close();
  await scratch?.cleanup();
});

test('flower once fails with a message naming overload when every call answers 529', async () => {
  server = await FakeAnthropicServer.start(() => ({
    kind: 'status',
    status: 529,
    errorType: 'overloaded_error',
  }));
  scratch = await scratchEnvironment({ baseUrl: server.url });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let errorText = '';
  stderr.on('data', (chunk: Buffer) => (errorText += chunk.toString()));
  stdout.resume();

  const code = await runCli(['once', 'hi'], {
    io: { stdout, stderr, stdinIsTty: false, env: scratch.env, cwd: scratch.workspace },
    resilience: new Resilience({ maxAttempts: 2, baseDelay: 0.1, maxDelay: 0.2 }, { env: scratch.env }),
    signals: {
      pid: process.pid,
      platform: process.platform,
      on: () => undefined,
      off: () => undefined,
      kill: () => undefined,
      exit: () => undefined,
    },
  });

  expect(code, errorText).toBe(1);
  // flower's own advice line, not only the CLI's error text.
  expect(errorText).toContain('The API is overloaded (HTTP 529); try again in a few minutes');
  expect(errorText).toContain('Stopped: the agent did not finish');
  expect(errorText).not.toMatch(/\n\s+at /);
  // Two flower attempts, each with the CLI's own three tries (CLAUDE_CODE_MAX_RETRIES=2).
  expect(server.calls.filter((call) => call.path === '/v1/messages').length).toBeGreaterThanOrEqual(6);
}, 60_000);
