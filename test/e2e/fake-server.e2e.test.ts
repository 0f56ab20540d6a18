// The fake Messages API against the real SDK and its real Claude Code binary: answers, tools, subagents
// and faults end to end, through flower's own ClaudeSdkBackend.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, test } from 'vitest';

import {
  closedPortUrl,
  FakeAnthropicServer,
  scratchEnvironment,
  scriptTurns,
  text,
  thinking,
  toolUse,
} from '../../src/testing/index.js';
import type { FakeScript, ScratchEnvironment } from '../../src/testing/index.js';
import { e2eOptions, runQuery } from './support/run-query.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(
  script: FakeScript,
  options: { closedPort?: boolean } = {},
): Promise<{ server: FakeAnthropicServer; scratch: ScratchEnvironment }> {
  const server = await FakeAnthropicServer.start(script);
  cleanups.push(() => server.close());
  const baseUrl = options.closedPort === true ? await closedPortUrl() : server.url;
  const scratch = await scratchEnvironment({ baseUrl });
  cleanups.push(() => scratch.cleanup());
  return { server, scratch };
}

function messageCalls(server: FakeAnthropicServer): FakeAnthropicServer['calls'] {
  return server.calls.filter((call) => call.path === '/v1/messages');
}

describe('FakeAnthropicServer with the real SDK', () => {
  test('answers a thinking and text turn end to end with cost computed from its usage', async () => {
    const { server, scratch } = await setUp(
      scriptTurns({
        main: [
          {
            kind: 'message',
            content: [thinking('The user wants a greeting.'), text('Hello from the fake.')],
            // 100k input and 10k output tokens at opus-5-5 list rates ($4 / $20 per 1M) = $0.60.
            usage: { input_tokens: 100_000, output_tokens: 10_000 },
          },
        ],
      }),
    );
    const outcome = await runQuery('Say hello.', e2eOptions(scratch, { tools: [] }));
    expect(outcome.error).toBeNull();
    expect(outcome.result).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'Hello from the fake.',
    });
    expect(outcome.result?.total_cost_usd).toBeCloseTo(0.6, 6);
    expect(server.unexpectedCalls).toEqual([]);
    expect(messageCalls(server).map((call) => [call.thread, call.turn])).toEqual([['main', 0]]);
    expect(server.calls[0]?.headers['x-api-key']).toBeUndefined();
  });

  test('runs a Bash tool call that creates a file', async () => {
    const { server, scratch } = await setUp(
      scriptTurns({
        main: [
          { kind: 'message', content: [toolUse('Bash', { command: 'echo made-by-bash > made.txt' })] },
          { kind: 'message', content: [text('Created made.txt.')] },
        ],
      }),
    );
    const outcome = await runQuery('Create made.txt.', e2eOptions(scratch, { tools: ['Bash'] }));
    expect(outcome.result).toMatchObject({ is_error: false, result: 'Created made.txt.' });
    expect(readFileSync(join(scratch.workspace, 'made.txt'), 'utf8')).toBe('made-by-bash\n');
    expect(server.unexpectedCalls).toEqual([]);
    const lastCall = messageCalls(server).at(-1);
    expect(lastCall?.turn).toBe(1);
    expect(JSON.stringify(lastCall?.body.messages?.at(-1))).toContain('tool_result');
  });

  test('tells a foreground subagent apart from the main thread by its agent id', async () => {
    const { server, scratch } = await setUp(
      scriptTurns({
        main: [
          {
            kind: 'message',
            content: [
              toolUse('Agent', {
                description: 'write a file',
                prompt: 'Write sub.txt.',
                subagent_type: 'writer',
                run_in_background: false,
              }),
            ],
          },
          { kind: 'message', content: [text('The writer is done.')] },
        ],
        subagent: [
          { kind: 'message', content: [toolUse('Bash', { command: 'echo from-subagent > sub.txt' })] },
          { kind: 'message', content: [text('SUB REPORT: wrote sub.txt')] },
        ],
      }),
    );
    const outcome = await runQuery(
      'Delegate the file.',
      e2eOptions(scratch, {
        tools: ['Agent', 'Bash'],
        agents: { writer: { description: 'Writes files', prompt: 'You write files.', tools: ['Bash'] } },
      }),
    );
    expect(outcome.result).toMatchObject({ is_error: false, result: 'The writer is done.' });
    expect(existsSync(join(scratch.workspace, 'sub.txt'))).toBe(true);
    expect(server.unexpectedCalls).toEqual([]);
    const calls = messageCalls(server);
    const subagentThreads = [
      ...new Set(calls.map((call) => call.thread).filter((thread) => thread !== 'main')),
    ];
    expect(subagentThreads).toHaveLength(1);
    expect(calls.map((call) => [call.thread === 'main' ? 'main' : 'subagent', call.turn])).toEqual([
      ['main', 0],
      ['subagent', 0],
      ['subagent', 1],
      ['main', 1],
    ]);
    // The hand-back the main thread receives carries the subagent's report.
    expect(JSON.stringify(calls.at(-1)?.body.messages?.at(-1))).toContain('SUB REPORT: wrote sub.txt');
  });

  test('recovers from a stream cut once: the retry gets the same turn and the run succeeds', async () => {
    const { server, scratch } = await setUp(
      scriptTurns({
        main: [
          [
            { kind: 'cut', afterEvents: 3 },
            { kind: 'message', content: [text('Recovered.')] },
          ],
        ],
      }),
    );
    const outcome = await runQuery('Hello.', e2eOptions(scratch, { tools: [] }));
    expect(outcome.error).toBeNull();
    expect(outcome.result).toMatchObject({ is_error: false, result: 'Recovered.' });
    expect(messageCalls(server).map((call) => call.turn)).toEqual([0, 0]);
    expect(server.unexpectedCalls).toEqual([]);
  });

  test('answers the non-streaming fallback after an SSE error event with a JSON message', async () => {
    const { server, scratch } = await setUp(
      scriptTurns({
        main: [
          [
            { kind: 'sse_error', afterEvents: 2 },
            { kind: 'message', content: [text('Via JSON.')] },
          ],
        ],
      }),
    );
    const outcome = await runQuery('Hello.', e2eOptions(scratch, { tools: [] }));
    expect(outcome.result).toMatchObject({ is_error: false, result: 'Via JSON.' });
    expect(messageCalls(server).map((call) => [call.turn, call.body.stream === true])).toEqual([
      [0, true],
      [0, false],
    ]);
  });

  test('ends with an error result when every call is overloaded (529)', async () => {
    const { server, scratch } = await setUp(() => ({ kind: 'status', status: 529 }));
    const outcome = await runQuery('Hello.', e2eOptions(scratch, { tools: [] }));
    expect(outcome.result).toMatchObject({ is_error: true, api_error_status: 529 });
    expect(outcome.error?.message).toContain('Claude Code returned an error result');
    // CLAUDE_CODE_MAX_RETRIES=2 in the scratch environment: one call and two retries.
    expect(messageCalls(server)).toHaveLength(3);
  });

  test('ends with an authentication error result on 401', async () => {
    const { scratch } = await setUp(() => ({ kind: 'status', status: 401 }));
    const outcome = await runQuery('Hello.', e2eOptions(scratch, { tools: [] }));
    expect(outcome.result).toMatchObject({ is_error: true, api_error_status: 401 });
    expect(outcome.error).not.toBeNull();
  });

  test('ends with an error result quickly when nothing listens on the port', async () => {
    const { server, scratch } = await setUp(() => ({ kind: 'message', content: [text('never reached')] }), {
      closedPort: true,
    });
    const outcome = await runQuery('Hello.', e2eOptions(scratch, { tools: [] }));
    expect(outcome.result).toMatchObject({ is_error: true });
    expect(JSON.stringify(outcome.messages)).toContain('ECONNREFUSED');
    expect(outcome.durationMs).toBeLessThan(20_000);
    expect(server.calls).toEqual([]);
  });
});
