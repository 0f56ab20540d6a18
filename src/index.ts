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

export { agentSpec, DEFAULT_ALLOWED_TOOLS } from './agent/agent-spec.js';
export type { AgentSpec } from './agent/agent-spec.js';
export { buildOptions } from './agent/build-options.js';
export { CompactPolicy } from './agent/compact-policy.js';
export type { CompactMode } from './agent/compact-policy.js';
export { projectKey } from './agent/project-key.js';

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
// humanDuration stays public: a renderer of flower's own `wait` events says the wait in the catalog's words.
export { humanDuration, uiText } from './config/ui-text.js';
export type { CatalogKey, Lang } from './config/ui-text.js';

export { isEphemeral } from './guards/ephemeral-command.js';
export type { Guard, GuardDecision, ToolHookInput } from './guards/guard.js';
export { mergeHooks, toHooks } from './guards/hooks.js';
export type { HooksConfig } from './guards/hooks.js';
export { whitelistGuard } from './guards/whitelist-guard.js';
export { isMainThread } from './guards/main-thread.js';
export { BULKY, HANDS_ON, SPILL_TOOLS } from './guards/tool-groups.js';
export { delegateGuard, DELEGATE_ALLOWED } from './guards/delegate-guard.js';
export type { DelegateGuardOptions } from './guards/delegate-guard.js';
export { agentInputGuard } from './guards/agent-input-guard.js';
export { worktreeWriteGuard } from './guards/worktree-write-guard.js';
export type { AgentInputGuardOptions } from './guards/agent-input-guard.js';
export { spillGuard } from './guards/spill-guard.js';
export type { SpillGuardOptions } from './guards/spill-guard.js';
export { indexGuard } from './guards/index-guard.js';
export { workbenchHooks } from './guards/workbench-hooks.js';
export type { WorkbenchHooksOptions } from './guards/workbench-hooks.js';
export { isInspectCommand } from './guards/inspect-command.js';
export { inspectGuard } from './guards/inspect-guard.js';

export { normalize } from './events/normalize.js';
export { eventToString } from './events/event-to-string.js';
export { createTerminalRenderer } from './render/terminal-renderer.js';
export type { TerminalRenderer, TerminalRendererOptions } from './render/terminal-renderer.js';

export { Runtime } from './runtime/runtime.js';
export type { RunOptions, RuntimeOptions } from './runtime/runtime.js';
export { openRunStores, runNameFor } from './runtime/run-stores.js';
export type { OpenRunStoresOptions, RunStores } from './runtime/run-stores.js';
// durationS stays public: it is how a caller gets a StepResult's duration rounded as the manifest writes it.
export { durationS } from './runtime/step-result.js';
export type { StepResult } from './runtime/step-result.js';
export type { StepOutcome } from './runtime/step-outcome.js';
// newRunId, endpoint and reachable stay public because the spec's API lists them: a caller who runs several
// Runtimes under one id, or checks the API before starting, uses the same run ids and probe flower does.
export { newRunId } from './runtime/run-id.js';
export { endpoint, reachable } from './runtime/network-probe.js';
export { readManifest } from './runtime/manifest.js';
export type { ManifestRow } from './runtime/manifest.js';
// A run's records (manifest rows, lineage) in the run directory or a PostgreSQL store (docs/scaling.md).
export { readRunRecords, runRecordsFor } from './runtime/run-records.js';
export type {
  LineageChange,
  RecordsUpdate,
  RowsChange,
  RunRecords,
  RunRecordsSnapshot,
} from './runtime/run-records.js';
export type { PgRecordsTarget } from './runtime/pg-run-records.js';
export { costBreakdown } from './runtime/cost-breakdown.js';
export type {
  CostBreakdown,
  CostBreakdownOptions,
  CostStep,
  CostTranscript,
  SessionCost,
  SubagentCost,
} from './runtime/cost-breakdown.js';
export { runCostBreakdown } from './runtime/run-cost.js';
export { Lineage } from './runtime/lineage.js';
export type { LineageNotice, LineageOpenOptions } from './runtime/lineage-open-options.js';
export { wakeState } from './runtime/wake-state.js';
export type { WakeState, WakeStateOptions } from './runtime/wake-state.js';
export { HandoffPolicy } from './runtime/handoff-policy.js';
export type { HandoffPolicyOptions } from './runtime/handoff-policy.js';
export { defaultWindow, resolveWindow } from './runtime/default-window.js';
export type { DefaultWindowOptions, ResolvedWindow, WindowSource } from './runtime/default-window.js';
export { rememberOverflow } from './runtime/window-calibration.js';
// isOverflow stays public: it tells a caller whether a StepResult's error is a context overflow, the case
// rememberOverflow records.
export { isOverflow } from './runtime/overflow.js';
export { Resilience } from './runtime/resilience.js';
export type { ResilienceClock, ResilienceDependencies, WaitNotice } from './runtime/resilience.js';
export type { ResilienceSettings } from './runtime/resilience-settings.js';
// classify stays public: it turns a StepResult's error into the ErrorKind that Resilience.shouldRetry takes, for
// a caller that retries a failed step itself.
export { classify } from './runtime/classify-error.js';

export { Workflow } from './workflow/workflow.js';
export type { WorkflowOptions, WorkflowRunOptions } from './workflow/workflow.js';
export { step } from './workflow/step.js';
export type { Ctx, OnFail, Step, StepFunction, StepParameters, WorkflowKeys } from './workflow/step.js';
export { renderStep } from './workflow/render-step.js';
export { StepAbort } from './workflow/step-abort.js';
export { STEP_NAMES, verdictLabel } from './workflow/step-names.js';
export type { RuntimeLike } from './workflow/runtime-like.js';
export type { StepBuild } from './workflow/step-build.js';
export { clarifyStep } from './workflow/clarify-step.js';
export type { ClarifyStepOptions } from './workflow/clarify-step.js';
export { goalStep } from './workflow/goal-step.js';
export type { GoalStepOptions } from './workflow/goal-step.js';
export { withGoal } from './workflow/with-goal.js';
export type { WithGoalOptions } from './workflow/with-goal.js';
export { bequestStep } from './workflow/bequest-step.js';
export type { BequestStepOptions } from './workflow/bequest-step.js';
export { buildStarter, starterFlow } from './workflow/starter-flow.js';
export type { StarterBuild, StarterOptions } from './workflow/starter-flow.js';
export { environmentFacts } from './workflow/environment-facts.js';
// NOTES_ZH stays public with NOTES (the spec's API lists both): a caller seeding a workbench in Chinese names
// its notes file the way flower looks for it.
export { NOTES, NOTES_ZH, workbenchPath } from './workbench/workbench-path.js';
export type { WorkbenchPathOptions } from './workbench/workbench-path.js';
export { Workbench } from './workbench/workbench.js';
export type { NotesFile, WorkbenchOptions } from './workbench/workbench.js';
export { benchFor } from './workbench/bench-for.js';
export { isGitWorkTree } from './workbench/git-work-tree.js';

export { parseSections } from './roles/parse-sections.js';
export { coordinator } from './roles/coordinator.js';
export type { CoordinatorOptions, CoordinatorParameters } from './roles/coordinator.js';
export { worker, WORKER_RULES, WORKER_TOOLS } from './roles/worker.js';
export type { WorkerOptions, WorkerParameters } from './roles/worker.js';
export { clarify } from './roles/clarifier.js';
export type { ClarifierOptions } from './roles/clarifier.js';
// The two opening lines stay public: a judge step written by hand needs the one that picks the judge's job.
export { judge, setGoalInstructions, verdictInstructions } from './roles/judge.js';
export type { JudgeOptions } from './roles/judge.js';
export { oracle } from './roles/oracle.js';
export type { OracleOptions } from './roles/oracle.js';
export { isolated, wantsIsolation } from './agent/isolation-mark.js';
export { Brief } from './roles/brief.js';
export { Goal, UNVERIFIABLE_MARKER } from './roles/goal.js';
export { AMBIGUOUS_REASON, Verdict } from './roles/verdict.js';
export type { VerdictState } from './roles/verdict.js';
export { DEGRADED_MARKER, HandoffDocument } from './roles/handoff-document.js';
export { handoffPrompt, successorPrompt } from './roles/handoff-prompt.js';
export type { SuccessorPromptOptions } from './roles/handoff-prompt.js';
export { Bequest, bequestPrompt } from './roles/bequest.js';
export { writeBequest } from './roles/write-bequest.js';

export { HumanChannel } from './human/human-channel.js';
export type { Ask, AskState } from './human/ask.js';
export type { HumanChannelOptions } from './human/human-channel-options.js';
export type { Mail } from './human/mail.js';
export { ASK_TOOL, INBOX_TOOL } from './human/human-tools.js';
export { AMEND_LABELS } from './human/channel-files.js';
export { RecentWindow } from './human/recent-window.js';
export { askOracle } from './workflow/ask-oracle.js';
export type { AskOracleOptions, OracleAnswer } from './workflow/ask-oracle.js';
export {
  EVENT_LOG_FILE,
  EventLog,
  eventLogPath,
  eventLogStatus,
  readRecentEvents,
} from './runtime/event-log.js';
export type { EventLogStatus, LoggedEvent, ReadRecentOptions } from './runtime/event-log.js';

export type { ErrorKind, EventKind, EventSink, FlowerEvent, WarningCode } from './events/flower-event.js';

export { DEFAULT_BUSY_TIMEOUT_MS, SqliteSessionStore } from './session/sqlite-session-store.js';
export type { SqliteSessionStoreOptions } from './session/sqlite-session-store.js';
export type { FlowerSessionStore } from './session/flower-session-store.js';
export { PgSessionStore } from './session/pg-session-store.js';
export type { PgSessionStoreOptions } from './session/pg-session-store.js';
export { PgFlowerStore } from './session/pg-flower-store.js';
export type { PgFlowerStoreOptions } from './session/pg-flower-store.js';
export { emptyLoadReport } from './session/load-report.js';
export type { LoadReport } from './session/load-report.js';
export { TrimmingSessionStore } from './session/trimming-session-store.js';
export type { LayerOptions } from './session/trimming-session-store.js';
export { PruningSessionStore } from './session/pruning-session-store.js';
export { layeredStore } from './session/layered-store.js';
export type { LayeredLoad, LayeredStore } from './session/layered-store.js';
export type { LayerBase, LayerContext, StoreLayer } from './session/store-layer.js';
export { expireLayer } from './session/expire-layer.js';
export { trimLayer } from './session/trim-layer.js';
export type { TrimLayerOptions } from './session/trim-layer.js';
export { pruneLayer } from './session/prune-layer.js';
export { journalLayer } from './session/journal-layer.js';
export type { JournalledCall, ToolJournalReader } from './session/tool-journal.js';
export { TrimPolicy } from './session/trim-policy.js';
export { EphemeralPolicy } from './session/ephemeral-policy.js';
export { PrunePolicy } from './session/prune-policy.js';
export type { Entry } from './session/entry-content.js';
export type { Transform } from './session/transform.js';
export { expire } from './session/expire.js';
export { trim } from './session/trim.js';
export type { TrimOptions } from './session/trim.js';
export { prune } from './session/prune.js';
export { relink } from './session/relink.js';
export { healOrphans } from './session/heal-orphans.js';
export { validateTranscript } from './session/validate-transcript.js';
export type { TranscriptProblem, TranscriptRule } from './session/validate-transcript.js';
export { trimReport } from './session/trim-report.js';
