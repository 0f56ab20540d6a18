/**
 * The one module that imports `@anthropic-ai/claude-agent-sdk`. Everything else in flower reaches the SDK
 * through the names re-exported here, and a lint rule lets only the folders written against the SDK's own
 * shapes (session store, hooks, MCP tools, agent definitions) import them, so the UI stays free of them
 * (decisions.md D24; docs/architecture.md, Layers).
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
