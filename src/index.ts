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
export { FLOWER_OWNED_ENV, KNOWN_KEYS } from './config/known-keys.js';
export { PLUGIN_DIR, VERSION } from './config/package-info.js';
export { configDir } from './config/config-dir.js';
export { loadConfig } from './config/load-config.js';
export type { FlowerConfig, LoadConfigOptions } from './config/load-config.js';
export { parseDotenv } from './config/dotenv-parser.js';
export type { DotenvProblem } from './config/dotenv-parser.js';
export { loadDotenv } from './config/load-dotenv.js';
export { checkCredentials, classifyToken } from './config/credentials.js';
export { probeCredentials } from './config/probe-credentials.js';
export type { ProbeResult, ProbeVerdict } from './config/probe-credentials.js';
export { describeConfig } from './config/describe-config.js';
export { humanDuration, uiText } from './config/ui-text.js';
export type { CatalogKey, Lang } from './config/ui-text.js';

export { isEphemeral } from './guards/ephemeral-command.js';

export type { ErrorKind, EventKind, EventSink, FlowerEvent, WarningCode } from './events/flower-event.js';

export { DEFAULT_BUSY_TIMEOUT_MS, SqliteSessionStore } from './session/sqlite-session-store.js';
export type { SqliteSessionStoreOptions } from './session/sqlite-session-store.js';
export type { FlowerSessionStore } from './session/flower-session-store.js';
export { emptyLoadReport } from './session/load-report.js';
export type { LoadReport } from './session/load-report.js';
