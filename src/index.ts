/**
 * flower-agent's public API: a hand-kept list of named exports (no `export *`), grouped by folder.
 *
 * @module
 */
export { ClaudeSdkBackend } from './agent/claude-sdk-backend.js';
export type { AgentBackend, AgentMessage, AgentQuery, AgentRequest } from './agent/agent-backend.js';
export type {
  AgentDefinition,
  HookCallbackMatcher,
  HookEvent,
  McpServerConfig,
  Options,
  PermissionMode,
  SDKMessage,
  SessionKey,
  SessionStore,
  SessionStoreEntry,
} from './agent/claude-sdk.js';

export { FlowerError, isFlowerError } from './errors.js';
export type { FlowerErrorCode } from './errors.js';

export type { Env } from './config/process-environment.js';

export type { ErrorKind, EventKind, EventSink, FlowerEvent, WarningCode } from './events/flower-event.js';

export { emptyLoadReport } from './session/load-report.js';
export type { LoadReport } from './session/load-report.js';
