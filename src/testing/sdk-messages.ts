/**
 * Typed builders of the messages the Agent SDK yields (`system/init`, assistant text and tool calls, user
 * tool results, results), for tests that feed a backend or `normalize()` without the real binary. Each
 * returns a complete value of the SDK's own type with plain defaults, so a test states only what it is
 * about and needs no cast.
 *
 * @module
 */
import type { AgentMessage } from '../agent/agent-backend.js';
import type {
  SDKAssistantMessage,
  SDKResultMessage,
  SDKSystemMessage,
  SDKUserMessage,
} from '../agent/claude-sdk.js';

/** A UUID as the SDK types it. */
export type Uuid = SDKAssistantMessage['uuid'];
type AssistantContent = SDKAssistantMessage['message']['content'];
type UserContent = SDKUserMessage['message']['content'];

let uuids = 0;

/** A fresh, well-formed UUID for a test message (a counter, so runs are repeatable). */
export function testUuid(): Uuid {
  uuids += 1;
  return `00000000-0000-4000-8000-${uuids.toString(16).padStart(12, '0')}`;
}

/** Where a message belongs: its session, and the subagent's tool call when it is not the main thread. */
export interface SdkMessageOptions {
  /** `'session-1'` by default. */
  sessionId?: string;
  /** The `Agent` tool call that started the subagent; `null` (the main thread) by default. */
  parentToolUseId?: string | null;
  /** The message's UUID; a fresh one from {@link testUuid} by default. */
  uuid?: Uuid;
}

/** Options of {@link sdkAssistant}. */
export interface SdkAssistantOptions extends SdkMessageOptions {
  /** The API message id; `'msg_1'` by default. */
  id?: string;
  /** `'claude-test'` by default. */
  model?: string;
  /** Input and output tokens of the call; 0 by default. */
  inputTokens?: number;
  outputTokens?: number;
  /** Set on an assistant message the binary made up for a failed call (its `model` is `<synthetic>`). */
  error?: SDKAssistantMessage['error'];
}

/** `system/init`: the first message of a query, naming its session. */
export function sdkInit(
  options: SdkMessageOptions & { model?: string; cwd?: string } = {},
): SDKSystemMessage {
  return {
    type: 'system',
    subtype: 'init',
    apiKeySource: 'user',
    claude_code_version: '0.0.0-test',
    cwd: options.cwd ?? '/workspace',
    tools: [],
    mcp_servers: [],
    model: options.model ?? 'claude-test',
    permissionMode: 'default',
    slash_commands: [],
    output_style: 'default',
    skills: [],
    plugins: [],
    uuid: options.uuid ?? testUuid(),
    session_id: options.sessionId ?? 'session-1',
  };
}

/** An assistant message with the given content blocks. */
export function sdkAssistant(
  content: AssistantContent,
  options: SdkAssistantOptions = {},
): SDKAssistantMessage {
  return {
    type: 'assistant',
    message: {
      id: options.id ?? 'msg_1',
      type: 'message',
      role: 'assistant',
      model: options.model ?? 'claude-test',
      content,
      stop_reason: content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      stop_details: null,
      container: null,
      context_management: null,
      diagnostics: null,
      usage: {
        ...emptyUsage(),
        input_tokens: options.inputTokens ?? 0,
        output_tokens: options.outputTokens ?? 0,
      },
    },
    parent_tool_use_id: options.parentToolUseId ?? null,
    ...(options.error === undefined ? {} : { error: options.error }),
    uuid: options.uuid ?? testUuid(),
    session_id: options.sessionId ?? 'session-1',
  };
}

/** An assistant message that says `text`. */
export function sdkAssistantText(text: string, options: SdkAssistantOptions = {}): SDKAssistantMessage {
  return sdkAssistant([{ type: 'text', text, citations: null }], options);
}

/** An assistant message that calls tool `name` with `input` (call id `id`). */
export function sdkToolUse(
  name: string,
  input: Record<string, unknown>,
  id: string,
  options: SdkAssistantOptions = {},
): SDKAssistantMessage {
  return sdkAssistant([{ type: 'tool_use', id, name, input }], options);
}

/** The user message that carries the result of tool call `toolUseId`. */
export function sdkToolResult(
  toolUseId: string,
  result: string,
  options: SdkMessageOptions & { isError?: boolean } = {},
): SDKUserMessage {
  const content: UserContent = [
    { type: 'tool_result', tool_use_id: toolUseId, content: result, is_error: options.isError ?? false },
  ];
  return {
    type: 'user',
    message: { role: 'user', content },
    parent_tool_use_id: options.parentToolUseId ?? null,
    uuid: options.uuid ?? testUuid(),
    session_id: options.sessionId ?? 'session-1',
  };
}

/** Options of {@link sdkResult}. */
export interface SdkResultOptions extends SdkMessageOptions {
  /** The final text; `'ok'` by default. */
  result?: string;
  /** `0` by default. */
  costUsd?: number;
  /** `1` by default. */
  numTurns?: number;
  /**
   * A failed call that still ends in `subtype: 'success'`, as the SDK reports an API error; false by default.
   */
  isError?: boolean;
  /** Why the turn ended, as the CLI names it (`api_error` for a failed API call); absent by default. */
  terminalReason?: SdkSuccessResult['terminal_reason'];
  /** The HTTP status of the failed API call that ended the turn; absent by default. */
  apiErrorStatus?: number | null;
}

/** A `result` whose subtype is `success` (which an API error also has, with `is_error` set). */
export type SdkSuccessResult = Extract<SDKResultMessage, { subtype: 'success' }>;

/** A `success` result: the last message of a query. */
export function sdkResult(options: SdkResultOptions = {}): SdkSuccessResult {
  return {
    type: 'result',
    subtype: 'success',
    duration_ms: 0,
    duration_api_ms: 0,
    is_error: options.isError ?? false,
    num_turns: options.numTurns ?? 1,
    result: options.result ?? 'ok',
    stop_reason: 'end_turn',
    total_cost_usd: options.costUsd ?? 0,
    usage: emptyUsage(),
    modelUsage: {},
    permission_denials: [],
    ...(options.terminalReason === undefined ? {} : { terminal_reason: options.terminalReason }),
    ...(options.apiErrorStatus === undefined ? {} : { api_error_status: options.apiErrorStatus }),
    uuid: options.uuid ?? testUuid(),
    session_id: options.sessionId ?? 'session-1',
  };
}

/** A failed `result` (`error_during_execution` unless `subtype` says otherwise) with its error lines. */
export function sdkErrorResult(
  errors: string[],
  options: SdkResultOptions & {
    subtype?: Extract<SDKResultMessage, { is_error: boolean; errors: string[] }>['subtype'];
  } = {},
): SDKResultMessage {
  return {
    type: 'result',
    subtype: options.subtype ?? 'error_during_execution',
    duration_ms: 0,
    duration_api_ms: 0,
    is_error: true,
    num_turns: options.numTurns ?? 1,
    stop_reason: null,
    total_cost_usd: options.costUsd ?? 0,
    usage: emptyUsage(),
    modelUsage: {},
    permission_denials: [],
    errors,
    uuid: options.uuid ?? testUuid(),
    session_id: options.sessionId ?? 'session-1',
  };
}

/** The messages of one plain query: init, the assistant's `text`, a success result. */
export function sdkQuery(text: string, options: SdkResultOptions = {}): AgentMessage[] {
  return [sdkInit(options), sdkAssistantText(text, options), sdkResult({ result: text, ...options })];
}

/** Token usage of a call that used nothing: every count 0, standard service. */
function emptyUsage(): SDKResultMessage['usage'] {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
    fallback_credit: null,
    inference_geo: '',
    iterations: [],
    output_tokens_details: { thinking_tokens: 0 },
    server_tool_use: { web_fetch_requests: 0, web_search_requests: 0 },
    service_tier: 'standard',
    speed: 'standard',
  };
}
