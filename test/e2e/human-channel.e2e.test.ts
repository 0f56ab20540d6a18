// The human channel against the real SDK and its real Claude Code binary: a scripted model calls
// mcp__human__ask on the in-process `human` server, and the next request the fake Messages API receives
// must carry what the channel returned — the fall-through text when nobody can answer, the over-quota text
// once the quota is used, and a human's typed answer when one arrives through the live input line.
import { PassThrough } from 'node:stream';

import { afterEach, describe, expect, test } from 'vitest';

import type { FlowerEvent } from '../../src/events/flower-event.js';
import { startLiveInput } from '../../src/cli/live-input.js';
import { HumanChannel, OVER_BUDGET_TEXT, TIMEOUT_TEXT } from '../../src/human/human-channel.js';
import { ASK_TOOL } from '../../src/guards/human-tool-names.js';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  scriptTurns,
  text,
  toolUse,
} from '../../src/testing/index.js';
import type { FakeRequest, FakeResponse, ScratchEnvironment } from '../../src/testing/index.js';
import { e2eOptions, runQuery } from './support/run-query.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(
  main: FakeResponse[],
): Promise<{ server: FakeAnthropicServer; scratch: ScratchEnvironment }> {
  const server = await FakeAnthropicServer.start(scriptTurns({ main }));
  cleanups.push(() => server.close());
  const scratch = await scratchEnvironment({ baseUrl: server.url });
  cleanups.push(() => scratch.cleanup());
  return { server, scratch };
}

function modelCalls(server: FakeAnthropicServer): FakeRequest[] {
  return server.calls.filter((call) => call.path === '/v1/messages' && call.thread === 'main');
}

/** The text the model was shown for tool call `id` in `request`. */
function resultIn(request: FakeRequest | undefined, id: string): string {
  for (const entry of (request?.body.messages ?? []) as Array<{ content: unknown }>) {
    if (!Array.isArray(entry.content)) continue;
    for (const block of entry.content as Array<Record<string, unknown>>) {
      if (block['type'] !== 'tool_result' || block['tool_use_id'] !== id) continue;
      const content = block['content'];
      return typeof content === 'string'
        ? content
        : (content as Array<{ text?: string }>).map((part) => part.text ?? '').join('\n');
    }
  }
  throw new Error(`the request does not carry the result of ${id}`);
}

const toolNames = (request: FakeRequest | undefined): string[] =>
  ((request?.body.tools ?? []) as Array<{ name: string }>).map((offered) => offered.name);

describe('HumanChannel with the real SDK', () => {
  test('falls through at once when timeoutS is 0: the model reads the fall-through text and no question is shown', async () => {
    const { server, scratch } = await setUp([
      message([toolUse(ASK_TOOL, { question: 'Which colour?', options: ['red', 'blue'] }, 'toolu_ask_1')]),
      message([text('Decided on my own.')]),
    ]);
    const events: FlowerEvent[] = [];
    const channel = new HumanChannel({ timeoutS: 0, onEvent: (event) => events.push(event) });
    const outcome = await runQuery(
      'Ask me a question.',
      // The default tool set, whose tool search would defer MCP tools that are not always loaded.
      e2eOptions(scratch, { mcpServers: channel.mcpServers() }),
    );

    expect(outcome.result).toMatchObject({ is_error: false, result: 'Decided on my own.' });
    const calls = modelCalls(server);
    // Always loaded: the ask tool is offered in the first request itself, not deferred behind tool search.
    expect(toolNames(calls[0])).toContain(ASK_TOOL);
    expect(resultIn(calls[1], 'toolu_ask_1')).toBe(TIMEOUT_TEXT);
    expect(events.map((event) => event.kind)).toEqual(['answer']);
    expect(channel.asks).toMatchObject([
      { question: 'Which colour?', options: ['red', 'blue'], state: 'timeout' },
    ]);
    expect(server.unexpectedCalls).toEqual([]);
  });

  test('refuses a question over the quota at once while the first one was answered', async () => {
    const { server, scratch } = await setUp([
      message([toolUse(ASK_TOOL, { question: 'First?' }, 'toolu_ask_1')]),
      message([toolUse(ASK_TOOL, { question: 'Second?' }, 'toolu_ask_2')]),
      message([text('Done asking.')]),
    ]);
    const events: FlowerEvent[] = [];
    const channel = new HumanChannel({ maxAsks: 1, timeoutS: 600, onEvent: (event) => events.push(event) });
    // A stand-in human answers whatever is shown; a blocking second question would never be answered.
    channel.onEvent = (event) => {
      events.push(event);
      if (event.kind === 'ask') queueMicrotask(() => channel.answer(event.id, 'yes, first'));
    };
    const outcome = await runQuery(
      'Ask me twice.',
      e2eOptions(scratch, { tools: [], mcpServers: channel.mcpServers() }),
    );

    expect(outcome.result).toMatchObject({ is_error: false, result: 'Done asking.' });
    const calls = modelCalls(server);
    expect(resultIn(calls[1], 'toolu_ask_1')).toBe('yes, first');
    expect(resultIn(calls[2], 'toolu_ask_2')).toBe(OVER_BUDGET_TEXT);
    expect(events.map((event) => `${event.kind}:${'state' in event ? event.state : ''}`)).toEqual([
      'ask:',
      'answer:answered',
      'answer:over_budget',
    ]);
    expect(channel.remaining).toBe(0);
  });

  test('delivers a line typed at the live input to the waiting ask', async () => {
    const { server, scratch } = await setUp([
      message([toolUse(ASK_TOOL, { question: 'Which colour?' }, 'toolu_ask_1')]),
      message([text('Blue it is.')]),
    ]);
    const channel = new HumanChannel({ timeoutS: 600 });
    const input = new PassThrough();
    const written: string[] = [];
    const live = startLiveInput({
      input,
      output: { write: (line: string) => written.push(line) },
      channel,
      interrupt: null,
      onSide: null,
    });
    cleanups.push(() => Promise.resolve(live.close()));
    const running = runQuery('Ask me.', e2eOptions(scratch, { tools: [], mcpServers: channel.mcpServers() }));
    await expect.poll(() => channel.pending().length, { timeout: 60_000 }).toBe(1);
    input.write('blue\n');
    const outcome = await running;

    expect(outcome.result).toMatchObject({ is_error: false, result: 'Blue it is.' });
    expect(resultIn(modelCalls(server)[1], 'toolu_ask_1')).toBe('blue');
    expect(channel.asks).toMatchObject([{ state: 'answered', answer: 'blue' }]);
    expect(written).toEqual([]);
  });
});
