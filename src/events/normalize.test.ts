import { describe, expect, test } from 'vitest';
import type { AgentMessage } from '../agent/agent-backend.js';
import { normalize } from './normalize.js';

// SDK-shaped messages, with the fields the CLI sends (as recorded from the real binary).
function sdk(message: Record<string, unknown>): AgentMessage {
  return { uuid: 'u-1', session_id: 'sess-1', ...message } as unknown as AgentMessage;
}

function assistant(
  content: unknown[],
  extra: Record<string, unknown> = {},
  usage: Record<string, number> = {},
): AgentMessage {
  return sdk({
    type: 'assistant',
    parent_tool_use_id: null,
    message: { id: 'msg_1', role: 'assistant', model: 'claude-opus-5-5', content, stop_reason: null, usage },
    ...extra,
  });
}

describe('normalize', () => {
  test('drops partial-message stream events: the complete message follows', () => {
    const delta = {
      type: 'stream_event',
      event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
      parent_tool_use_id: null,
      session_id: 's',
      uuid: 'u',
    } as unknown as AgentMessage;
    expect(normalize(delta)).toEqual([]);
  });

  test('turns main-thread assistant usage into a context event before the text', () => {
    const events = normalize(
      assistant(
        [{ type: 'text', text: 'Hello' }],
        {},
        {
          input_tokens: 3000,
          cache_creation_input_tokens: 20_000,
          cache_read_input_tokens: 1500,
          output_tokens: 1,
        },
      ),
    );
    expect(events.map((event) => event.kind)).toEqual(['context', 'text']);
    expect(events[0]).toMatchObject({
      kind: 'context',
      tokens: 24_500,
      sessionId: 'sess-1',
      window: null,
      threshold: null,
    });
    expect(events[1]).toMatchObject({
      kind: 'text',
      text: 'Hello',
      subagent: false,
      parentToolUseId: null,
      step: null,
    });
  });

  test('marks subagent messages with their parent tool use and gives them no context event', () => {
    const events = normalize(
      assistant(
        [{ type: 'text', text: 'sub report' }],
        { parent_tool_use_id: 'toolu_agent' },
        { input_tokens: 900 },
      ),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'text', subagent: true, parentToolUseId: 'toolu_agent' });
  });

  test('emits thinking and tool calls with the most telling argument as text', () => {
    const events = normalize(
      assistant([
        { type: 'thinking', thinking: 'let me look', signature: 'x' },
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'Bash',
          input: { command: 'echo hi > f.txt', description: 'write f' },
        },
        { type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: '/ws/f.txt' } },
      ]),
    );
    expect(events.map((event) => [event.kind, event.text])).toEqual([
      ['thinking', 'let me look'],
      ['tool_call', 'echo hi > f.txt'],
      ['tool_call', '/ws/f.txt'],
    ]);
    expect(events[1]).toMatchObject({ tool: 'Bash', id: 'toolu_1', input: { command: 'echo hi > f.txt' } });
  });

  test('cuts tool-call text at 200 characters', () => {
    const [event] = normalize(
      assistant([{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'x'.repeat(300) } }]),
    );
    expect(event?.text).toHaveLength(200);
  });

  test('turns a synthetic API error into one error event and no text', () => {
    const events = normalize(
      sdk({
        type: 'assistant',
        parent_tool_use_id: null,
        error: 'authentication_failed',
        message: {
          id: 'm',
          model: '<synthetic>',
          role: 'assistant',
          content: [{ type: 'text', text: 'Invalid API key · Fix external API key' }],
          usage: { input_tokens: 0 },
        },
      }),
    );
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'error',
        text: 'Invalid API key · Fix external API key',
        synthetic: true,
        errorKind: 'authentication_failed',
        subagent: false,
      }),
    ]);
  });

  test('names the tool of a tool result from the map and cuts the text at 500 characters', () => {
    const message = sdk({
      type: 'user',
      parent_tool_use_id: null,
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'hi\n/ws', is_error: false },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_9',
            content: [{ type: 'text', text: 'y'.repeat(600) }],
            is_error: true,
          },
        ],
      },
    });
    const events = normalize(message, { toolNames: new Map([['toolu_1', 'Bash']]) });
    expect(events[0]).toMatchObject({
      kind: 'tool_result',
      text: 'hi\n/ws',
      toolUseId: 'toolu_1',
      tool: 'Bash',
      isError: false,
    });
    expect(events[1]).toMatchObject({ kind: 'tool_result', tool: null, isError: true });
    expect(events[1]?.text).toHaveLength(500);
  });

  test('turns user text into prompt events', () => {
    const events = normalize(
      sdk({
        type: 'user',
        parent_tool_use_id: 'toolu_a',
        message: { role: 'user', content: 'do the thing' },
      }),
    );
    expect(events).toEqual([
      expect.objectContaining({ kind: 'prompt', text: 'do the thing', subagent: true }),
    ]);
  });

  test('reads a result message', () => {
    const [event] = normalize(
      sdk({
        type: 'result',
        subtype: 'error_max_budget_usd',
        is_error: true,
        num_turns: 3,
        total_cost_usd: 0.03,
        errors: ['Reached maximum budget ($0.03)'],
      }),
    );
    expect(event).toMatchObject({
      kind: 'result',
      text: 'error_max_budget_usd',
      sessionId: 'sess-1',
      costUsd: 0.03,
      numTurns: 3,
      isError: true,
      subtype: 'error_max_budget_usd',
      errors: ['Reached maximum budget ($0.03)'],
    });
  });

  test('gives a success result no errors', () => {
    const [event] = normalize(
      sdk({
        type: 'result',
        subtype: 'success',
        is_error: false,
        num_turns: 1,
        total_cost_usd: 0.5,
        result: 'ok',
      }),
    );
    expect(event).toMatchObject({ kind: 'result', isError: false, errors: [], costUsd: 0.5 });
  });

  test('builds each event whole: step, handoff figures, the response id and model, the error details', () => {
    const options = { step: 'build', contextLimits: { window: 100_000, threshold: 50_000 } };
    const events = normalize(
      assistant([{ type: 'text', text: 'Hi' }], {}, { input_tokens: 40_000 }),
      options,
    );
    expect(events.map((event) => event.step)).toEqual(['build', 'build']);
    expect(events[0]).toMatchObject({
      kind: 'context',
      window: 100_000,
      threshold: 50_000,
      messageId: 'msg_1',
      model: 'claude-opus-5-5',
    });
    const [failed] = normalize(
      sdk({
        type: 'result',
        subtype: 'success',
        is_error: true,
        num_turns: 1,
        total_cost_usd: 0,
        result: 'Invalid API key',
        terminal_reason: 'api_error',
        api_error_status: 401,
      }),
      options,
    );
    expect(failed).toMatchObject({
      step: 'build',
      terminalReason: 'api_error',
      apiErrorStatus: 401,
      errorText: 'Invalid API key',
    });
    const [passed] = normalize(
      sdk({
        type: 'result',
        subtype: 'success',
        is_error: false,
        num_turns: 1,
        total_cost_usd: 0,
        result: 'ok',
      }),
    );
    expect(passed).toMatchObject({ step: null, terminalReason: null, apiErrorStatus: null, errorText: null });
  });

  test('turns a compact boundary into a reset', () => {
    const [event] = normalize(
      sdk({
        type: 'system',
        subtype: 'compact_boundary',
        compact_metadata: { trigger: 'auto', pre_tokens: 367_000, post_tokens: 12_000 },
      }),
    );
    expect(event).toMatchObject({
      kind: 'reset',
      trigger: 'auto',
      preTokens: 367_000,
      postTokens: 12_000,
      micro: false,
    });
    expect(event?.text).toBe('compact(auto) 367000 -> 12000 tokens');
  });

  test('turns a conversation reset into a reset', () => {
    const [event] = normalize(sdk({ type: 'conversation_reset', new_conversation_id: 'c' }));
    expect(event).toMatchObject({ kind: 'reset', text: 'conversation reset' });
  });

  test('turns task_started and task_notification into subagent start and stop', () => {
    const [start] = normalize(
      sdk({
        type: 'system',
        subtype: 'task_started',
        task_id: 'a51b',
        tool_use_id: 'toolu_agent',
        description: 'write sub.txt',
        subagent_type: 'worker',
        is_backgrounded: false,
        task_type: 'local_agent',
      }),
    );
    expect(start).toMatchObject({
      kind: 'subagent_start',
      text: 'write sub.txt',
      taskId: 'a51b',
      toolUseId: 'toolu_agent',
      agentType: 'worker',
      background: false,
    });
    const [stop] = normalize(
      sdk({
        type: 'system',
        subtype: 'task_notification',
        task_id: 'a51b',
        tool_use_id: 'toolu_agent',
        status: 'completed',
        output_file: '',
        summary: 'done',
        usage: { total_tokens: 120, tool_uses: 1, duration_ms: 643 },
      }),
    );
    expect(stop).toMatchObject({ kind: 'subagent_stop', status: 'completed', tokens: 120, durationMs: 643 });
  });

  test('turns other task messages into task events with description or status as text', () => {
    const [progress] = normalize(
      sdk({
        type: 'system',
        subtype: 'task_progress',
        task_id: 't',
        description: 'running tests',
        usage: { total_tokens: 1, tool_uses: 0, duration_ms: 1 },
      }),
    );
    expect(progress).toMatchObject({
      kind: 'task',
      subtype: 'task_progress',
      text: 'running tests',
      taskId: 't',
    });
    const [updated] = normalize(
      sdk({ type: 'system', subtype: 'task_updated', task_id: 't', patch: { status: 'completed' } }),
    );
    expect(updated).toMatchObject({ kind: 'task', text: 'completed' });
  });

  test('keeps other system messages as system events without the type', () => {
    const [event] = normalize(
      sdk({
        type: 'system',
        subtype: 'api_retry',
        attempt: 1,
        max_retries: 2,
        retry_delay_ms: 600,
        error_status: 529,
        error: 'overloaded',
      }),
    );
    expect(event).toMatchObject({ kind: 'system', subtype: 'api_retry', text: 'api_retry' });
    expect(event?.kind === 'system' ? event.data : {}).toMatchObject({
      error_status: 529,
      session_id: 'sess-1',
    });
    expect(event?.kind === 'system' ? event.data : {}).not.toHaveProperty('type');
  });

  test('keeps anything else as an unknown event and the message as raw', () => {
    const message = sdk({ type: 'rate_limit_event', rate_limit_info: {} });
    const [event] = normalize(message);
    expect(event).toMatchObject({ kind: 'unknown', type: 'rate_limit_event', text: 'rate_limit_event' });
    expect(event?.raw).toBe(message);
  });
});
