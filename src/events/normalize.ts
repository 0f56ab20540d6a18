/**
 * `normalize()`: one SDK message in, zero or more {@link FlowerEvent}s out (docs/events.md).
 * Stateless: the caller keeps the tool-use-id → tool-name map used to name tool results.
 *
 * @module
 */
import type { AgentMessage } from '../agent/agent-backend.js';
import { valueText } from '../internal/value-text.js';
import type { FlowerEvent, Thread } from './flower-event.js';

/** Tool-call display text is cut here; the full input stays on the event. */
const TOOL_CALL_TEXT_LIMIT = 200;
/** Tool-result display text is cut here. */
const TOOL_RESULT_TEXT_LIMIT = 500;
/** Input fields that best describe a tool call, in order of preference. */
const TOOL_ARGUMENT_KEYS = [
  'file_path',
  'notebook_path',
  'command',
  'pattern',
  'path',
  'url',
  'query',
  'skill',
  'description',
  'prompt',
];

type Fields = Record<string, unknown>;
type MessageOf<Type extends AgentMessage['type']> = Extract<AgentMessage, { type: Type }>;
type AssistantMessage = MessageOf<'assistant'>;
type UserMessage = MessageOf<'user'>;
type ResultMessage = MessageOf<'result'>;
type SystemMessage = MessageOf<'system'>;

/** The handoff figures a `context` event carries, so a UI can show how close the context is to a handoff. */
export interface ContextLimits {
  /** The context window the handoff policy assumes, in tokens. */
  window: number;
  /** The context size at which the step hands off, in tokens. */
  threshold: number;
}

/** Options of {@link normalize}. */
export interface NormalizeOptions {
  /** Tool names by tool-use id, so a `tool_result` can say which tool it answers. */
  toolNames?: ReadonlyMap<string, string>;
  /** The step the message belongs to; null (the default) outside a step. */
  step?: string | null;
  /** The handoff figures for `context` events; null (the default) when handoff is off. */
  contextLimits?: ContextLimits | null;
}

/**
 * Translates one SDK message into flower events, each complete as made: nothing later fills in or changes
 * a field. Main-thread assistant usage yields a `context` event (input + cache creation + cache read
 * tokens: the size of what the model just read); a synthetic API error becomes one `error` event and never
 * `text`; a compact boundary becomes `reset`; `task_started` and `task_notification` become
 * `subagent_start`/`subagent_stop`; every other message is kept as `system` or `unknown` so UIs can show
 * what they do not understand.
 */
export function normalize(message: AgentMessage, options: NormalizeOptions = {}): FlowerEvent[] {
  const base: Base = { at: Date.now() / 1000, step: options.step ?? null, raw: message };
  switch (message.type) {
    case 'stream_event':
      // Partial-message deltas only keep the stall watchdog informed; the complete message follows.
      return [];
    case 'assistant':
      return assistantEvents(message, base, options.contextLimits ?? null);
    case 'user':
      return userEvents(message, base, options.toolNames);
    case 'result':
      return [resultEvent(message, base)];
    case 'system':
      return [systemEvent(message, base)];
    case 'conversation_reset':
      return [
        {
          ...base,
          kind: 'reset',
          text: 'conversation reset',
          trigger: 'conversation_reset',
          preTokens: null,
          postTokens: null,
          micro: false,
        },
      ];
    default:
      return [{ ...base, kind: 'unknown', text: valueText(message.type), type: valueText(message.type) }];
  }
}

interface Base {
  at: number;
  step: string | null;
  raw: unknown;
}

function threadOf(message: AssistantMessage | UserMessage): Thread {
  // Typed as always present, but a message replayed from an older transcript may lack it.
  const parent: unknown = message.parent_tool_use_id;
  const parentToolUseId = typeof parent === 'string' && parent !== '' ? parent : null;
  return { subagent: parentToolUseId !== null, parentToolUseId };
}

function assistantEvents(message: AssistantMessage, base: Base, limits: ContextLimits | null): FlowerEvent[] {
  const thread = threadOf(message);
  const body = record(message.message);
  const blocks = Array.isArray(body['content']) ? (body['content'] as unknown[]).map(record) : [];
  if (isSyntheticError(message, body)) {
    const text = blocks
      .filter((block) => block['type'] === 'text')
      .map((block) => string(block['text']))
      .join('\n')
      .trim();
    const errorKind = typeof message.error === 'string' ? message.error : null;
    return [{ ...base, ...thread, kind: 'error', text, synthetic: true, errorKind }];
  }
  const events: FlowerEvent[] = [];
  const usage = record(body['usage']);
  const tokens =
    number(usage['input_tokens']) +
    number(usage['cache_creation_input_tokens']) +
    number(usage['cache_read_input_tokens']);
  if (!thread.subagent && tokens > 0) {
    const sessionId: unknown = message.session_id;
    events.push({
      ...base,
      kind: 'context',
      text: `${tokens}`,
      tokens,
      sessionId: typeof sessionId === 'string' ? sessionId : null,
      window: limits?.window ?? null,
      threshold: limits?.threshold ?? null,
      messageId: optionalString(body['id']),
      model: optionalString(body['model']),
    });
  }
  for (const block of blocks) {
    switch (block['type']) {
      case 'text':
        events.push({ ...base, ...thread, kind: 'text', text: string(block['text']) });
        break;
      case 'thinking':
        events.push({ ...base, ...thread, kind: 'thinking', text: string(block['thinking']) });
        break;
      case 'tool_use':
      case 'server_tool_use':
      case 'mcp_tool_use': {
        const input = record(block['input']);
        events.push({
          ...base,
          ...thread,
          kind: 'tool_call',
          text: toolArgument(input),
          tool: string(block['name']),
          id: string(block['id']),
          input,
        });
        break;
      }
      default:
        break;
    }
  }
  return events;
}

// The CLI reports a failed API call as an assistant message with `error` set and model `<synthetic>`.
function isSyntheticError(message: AssistantMessage, body: Fields): boolean {
  // Typed as a known kind, but an empty string has been seen to mean "no error".
  const error: unknown = message.error;
  return (
    (typeof error === 'string' && error !== '') ||
    body['model'] === '<synthetic>' ||
    ('isApiErrorMessage' in message && message.isApiErrorMessage === true)
  );
}

function userEvents(
  message: UserMessage,
  base: Base,
  toolNames: ReadonlyMap<string, string> | undefined,
): FlowerEvent[] {
  const thread = threadOf(message);
  const content = record(message.message)['content'];
  if (typeof content === 'string') return [{ ...base, ...thread, kind: 'prompt', text: content }];
  if (!Array.isArray(content)) return [];
  const events: FlowerEvent[] = [];
  for (const block of content.map(record)) {
    if (block['type'] === 'text') {
      events.push({ ...base, ...thread, kind: 'prompt', text: string(block['text']) });
    } else if (block['type'] === 'tool_result') {
      const toolUseId = string(block['tool_use_id']);
      events.push({
        ...base,
        ...thread,
        kind: 'tool_result',
        text: cut(resultText(block['content']), TOOL_RESULT_TEXT_LIMIT),
        toolUseId,
        tool: toolNames?.get(toolUseId) ?? null,
        isError: block['is_error'] === true,
      });
    }
  }
  return events;
}

function resultEvent(message: ResultMessage, base: Base): FlowerEvent {
  const errors = 'errors' in message && Array.isArray(message.errors) ? message.errors.map(String) : [];
  // Typed as always present, but a result from a gateway or an older binary may lack any of them.
  const sessionId: unknown = message.session_id;
  const isError = message.is_error === true;
  const failure: unknown = 'result' in message ? message.result : undefined;
  return {
    ...base,
    kind: 'result',
    text: string(message.subtype),
    sessionId: optionalString(sessionId),
    costUsd: number(message.total_cost_usd),
    numTurns: number(message.num_turns),
    isError,
    subtype: string(message.subtype),
    errors,
    terminalReason: optionalString(message.terminal_reason),
    apiErrorStatus: optionalNumber('api_error_status' in message ? message.api_error_status : undefined),
    errorText: isError ? optionalString(failure) : null,
  };
}

function systemEvent(message: SystemMessage, base: Base): FlowerEvent {
  // Subtypes come and go with the binary's version: read every field as possibly missing.
  const fields = record(message);
  const subtype = string(fields['subtype']);
  if (subtype === 'compact_boundary' || subtype === 'microcompact_boundary') {
    const metadata = record(fields['compact_metadata'] ?? fields['microcompact_metadata']);
    const trigger = string(metadata['trigger']) || 'auto';
    const preTokens = optionalNumber(metadata['pre_tokens']);
    const postTokens = optionalNumber(metadata['post_tokens']);
    const micro = subtype === 'microcompact_boundary';
    const tokens = `${preTokens ?? '?'} -> ${postTokens ?? '?'} tokens`;
    return {
      ...base,
      kind: 'reset',
      text: `${micro ? 'microcompact' : 'compact'}(${trigger}) ${tokens}`,
      trigger,
      preTokens,
      postTokens,
      micro,
    };
  }
  const taskId = optionalString(fields['task_id']);
  const toolUseId = optionalString(fields['tool_use_id']);
  const agentType = optionalString(fields['subagent_type']);
  if (subtype === 'task_started') {
    const description = string(fields['description']);
    return {
      ...base,
      kind: 'subagent_start',
      text: description,
      taskId: taskId ?? '',
      toolUseId,
      agentType,
      description,
      background: fields['is_backgrounded'] === true,
    };
  }
  if (subtype === 'task_notification') {
    const usage = record(fields['usage']);
    const status = string(fields['status']);
    return {
      ...base,
      kind: 'subagent_stop',
      text: status,
      taskId: taskId ?? '',
      toolUseId,
      agentType,
      status,
      tokens: optionalNumber(usage['total_tokens']),
      durationMs: optionalNumber(usage['duration_ms'] ?? fields['duration_ms']),
    };
  }
  if (subtype.startsWith('task_')) {
    const patch = record(fields['patch']);
    const text =
      string(fields['description']) ||
      string(fields['summary']) ||
      string(patch['status']) ||
      string(fields['status']);
    return { ...base, kind: 'task', text, subtype, taskId };
  }
  const { type: _type, ...data } = fields;
  return { ...base, kind: 'system', text: subtype, subtype, data };
}

function toolArgument(input: Fields): string {
  for (const key of TOOL_ARGUMENT_KEYS) {
    const value = input[key];
    if (typeof value === 'string' && value !== '') return cut(value, TOOL_CALL_TEXT_LIMIT);
  }
  return '';
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map(record)
    .filter((block) => block['type'] === 'text')
    .map((block) => string(block['text']))
    .join('\n');
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : text.slice(0, limit);
}

function record(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

function string(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function number(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function optionalNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
