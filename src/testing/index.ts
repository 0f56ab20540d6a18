/**
 * `flower-agent/testing`: a scripted fake Anthropic Messages API and helpers, so workflows can be tested
 * offline against the real SDK and its real Claude Code binary (decisions.md D15), plus an in-process
 * scripted backend for tests that need no SDK at all. A hand-kept list of named exports. Guide:
 * docs/testing.md.
 *
 * @module
 */
export { anthropicErrorBody, errorTypeForStatus, statusForErrorType } from './anthropic-error.js';
export type { AnthropicErrorBody } from './anthropic-error.js';
export { AssertImmutableStore } from './assert-immutable-store.js';
export { closedPortUrl } from './closed-port.js';
export { text, thinking, toolUse } from './content-blocks.js';
export type { ContentBlock, TextBlock, ThinkingBlock, ToolUseBlock } from './content-blocks.js';
export { FakeAnthropicServer } from './fake-anthropic-server.js';
export type { FakeServerOptions, ServedMessage } from './fake-anthropic-server.js';
export { message } from './fake-response.js';
export type { FakeResponse, FakeResponseKind, Usage } from './fake-response.js';
export { UnscriptedCallError } from './fake-script.js';
export type { FakeScript } from './fake-script.js';
export { lastUserText, MAIN_THREAD } from './request-matching.js';
export type { FakeRequest, FakeRequestBody } from './request-matching.js';
export { scratchEnvironment, TEST_API_KEY } from './scratch-environment.js';
export type { ScratchEnvironment, ScratchEnvironmentOptions } from './scratch-environment.js';
export { scratchRuntimeOptions } from './scratch-runtime-options.js';
export type { ScratchRuntimeOptions } from './scratch-runtime-options.js';
export { scriptSteps } from './script-steps.js';
export type { ScriptedSteps, StepScript } from './script-steps.js';
export { scriptTurns } from './script-turns.js';
export type { ScriptedTurn, ScriptedTurns } from './script-turns.js';
export { ScriptedBackend, UnconsumedStepsError, UnexpectedBackendCallError } from './scripted-backend.js';
export { scriptedTurn } from './scripted-turn.js';
export type { ScriptedTurnOptions } from './scripted-turn.js';
export type { ScriptedStep } from './scripted-backend.js';
export {
  sdkAssistant,
  sdkAssistantText,
  sdkErrorResult,
  sdkInit,
  sdkQuery,
  sdkResult,
  sdkToolResult,
  sdkToolUse,
  testUuid,
} from './sdk-messages.js';
export type {
  SdkAssistantOptions,
  SdkMessageOptions,
  SdkResultOptions,
  SdkSuccessResult,
  Uuid,
} from './sdk-messages.js';
export { runSessionStoreSuite } from './session-store-suite.js';
export type { SessionStoreSuiteOptions } from './session-store-suite.js';
export { parseServerSentEvents } from './sse-encoder.js';
export type { ServerSentEvent } from './sse-encoder.js';
