/**
 * The one module that imports `@anthropic-ai/claude-agent-sdk`. Everything else in flower reaches the SDK
 * through the names re-exported here, so an SDK upgrade touches one file and the UI can be kept free of it
 * by a lint rule (decision 24).
 *
 * @module
 */
export {
  AbortError,
  createSdkMcpServer,
  foldSessionSummary,
  InMemorySessionStore,
  query,
  tool,
} from '@anthropic-ai/claude-agent-sdk';

export type {
  AgentDefinition,
  CanUseTool,
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
  McpServerConfig,
  Options,
  PermissionMode,
  Query,
  SDKAssistantMessage,
  SDKMessage,
  SDKResultMessage,
  SDKSystemMessage,
  SDKUserMessage,
  SessionKey,
  SessionStore,
  SessionStoreEntry,
  SessionSummaryEntry,
  SpawnedProcess,
  SpawnOptions,
} from '@anthropic-ai/claude-agent-sdk';
