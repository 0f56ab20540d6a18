/**
 * What a {@link Runtime} derives from its options and a step's spec: the resilience, workbench and handoff
 * policy it runs with, the SDK options of one attempt (permission gate, compact policy, budget left, store,
 * resume arguments), and the model the configuration asks for.
 *
 * @module
 */
import type { AgentSpec } from '../agent/agent-spec.js';
import { budgetGuards, type BudgetGate } from '../guards/budget-guard.js';
import { buildOptions } from '../agent/build-options.js';
import type { Options, SessionStore } from '../agent/claude-sdk.js';
import { CompactPolicy } from '../agent/compact-policy.js';
import type { Env } from '../config/process-environment.js';
import { agentInputGuard, isolatedRoles } from '../guards/agent-input-guard.js';
import { delegateGuard } from '../guards/delegate-guard.js';
import { mergeHooks, toHooks, type HooksConfig } from '../guards/hooks.js';
import { journalHooks, type CallRecorder } from '../guards/journal-hook.js';
import { spillsWrittenHooks } from '../guards/spills-written-hook.js';
import { whitelistGuard } from '../guards/whitelist-guard.js';
import { workbenchHooks } from '../guards/workbench-hooks.js';
import { worktreeWriteGuard } from '../guards/worktree-write-guard.js';
import { benchFor } from '../workbench/bench-for.js';
import { Workbench } from '../workbench/workbench.js';
import type { AttemptPlan } from './attempt.js';
import type { Emitted } from './describe-event.js';
import { HandoffPolicy } from './handoff-policy.js';
import { Resilience } from './resilience.js';
import { sessionSandbox } from './session-sandbox.js';
import { workerFaultHooks } from './worker-fault-hook.js';
import type { ResilienceSettings } from './resilience-settings.js';

/** The runtime's fixed part of every attempt's options. */
export interface AttemptContext {
  workspace: string;
  runDir: string;
  portable: boolean;
  handoff: boolean;
  env: Env;
  resilience: Resilience;
  /** The shared workbench, or null: its hooks (index, spill) are installed for every spec. */
  workbench: Workbench | null;
  /** Results of this many characters or more are spilled to the workbench; null = never. */
  spillThreshold: number | null;
  /** False: the agent's Bash runs outside Claude Code's sandbox (`FLOWER_SANDBOX=off`). */
  sandbox?: boolean;
  /** Where the gate journals each call before it may run (so a resume can show calls a kill lost), or null. */
  journal?: CallRecorder | null;
  /** Resolves once the store's spill files are on disk: the gate holds every tool call until then. */
  spillsWritten?: (() => Promise<void>) | null;
  /**
   * Hears a write to the run directory that failed — the journal's row of a call, a transcript append —
   * before the call is denied or the append dropped: a full run directory stops the run there
   * (docs/decisions.md D350).
   */
  onWriteFailed?: ((error: unknown) => void) | null;
}

/**
 * A {@link Resilience} from a runtime option: an instance as is, settings or a boolean (false = one
 * attempt, no waiting). `FLOWER_STALL_TIMEOUT` sets the watchdog and `FLOWER_UNREACHABLE_WAIT` the wait for
 * an endpoint never reached when the settings do not (docs/resilience.md).
 */
export function resilienceFrom(
  value: Resilience | Partial<ResilienceSettings> | boolean | undefined,
  config: { env: Env; stallTimeoutS?: number | null; unreachableWaitS?: number | null },
): Resilience {
  if (value instanceof Resilience) return value;
  const settings: Partial<ResilienceSettings> = typeof value === 'object' ? { ...value } : {};
  if (value === false) settings.enabled = false;
  if (settings.stallTimeoutS === undefined && config.stallTimeoutS != null) {
    settings.stallTimeoutS = config.stallTimeoutS;
  }
  if (settings.unreachableWait === undefined && config.unreachableWaitS != null) {
    settings.unreachableWait = config.unreachableWaitS;
  }
  return new Resilience(settings, { env: config.env });
}

/** `true` → the workbench `-W` means (`<runDir>/workbench`); an instance as is; false or absent → none. */
export function workbenchFrom(
  value: Workbench | boolean | undefined,
  workspace: string,
  runDir: string,
): Workbench | null {
  if (value instanceof Workbench) return value;
  return value === true ? benchFor(workspace, { runDir }) : null;
}

/** An instance as is; `false` → off; `true` or absent → the default policy for this configuration's window. */
export function handoffFrom(value: HandoffPolicy | boolean | undefined, env: Env): HandoffPolicy {
  if (value instanceof HandoffPolicy) return value;
  return new HandoffPolicy({ enabled: value !== false, env });
}

/**
 * SDK options for one attempt of `spec`: the permission gate as hooks (decisions.md D7) — the main-thread
 * whitelist for an ordinary agent, the delegate wall for a coordinator (installed whether or not there is a
 * workbench, decisions.md D105) — the Agent input rewrite (foreground by default, decisions.md D8; worktrees
 * for isolated roles), the workbench's index and spill hooks, auto-compact off with handoff
 * (decisions.md D6), what is left of the budget as `maxBudgetUsd`, the observed store with eager flush.
 * `onEvent` receives spill and warning events, made for `step` (the warnings as notices to describe).
 */
export function attemptOptions(
  context: AttemptContext,
  spec: AgentSpec,
  plan: AttemptPlan,
  sessionStore: SessionStore,
  onEvent: ((event: Emitted) => void) | null = null,
  step: string | null = null,
  budget: BudgetGate | null = null,
  onWorkerFault: ((toolUseId: string, error: string) => Promise<void>) | null = null,
): Options {
  // Claude Code runs no tool before every PreToolUse hook has answered, so the journal's place in the list
  // does not matter for its promise; last, it leaves the gate first for code that looks the gate up.
  const journal =
    context.journal == null ? null : journalHooks(context.journal, Date.now, context.onWriteFailed ?? null);
  const spills = context.spillsWritten == null ? null : spillsWrittenHooks(context.spillsWritten);
  // The budget gate goes first: once the cap closes, nothing else need be asked.
  const gate = budget === null ? null : toHooks(...budgetGuards(budget));
  // A worker cut off by the network is waited out like any network fault, which needs the resilience layer
  // (docs/decisions.md D344); without it the coordinator sees the error, as Claude Code reports it.
  const workerFaults =
    onWorkerFault === null || !context.resilience.enabled ? null : workerFaultHooks(onWorkerFault);
  const hooks = mergeHooks(
    gate,
    spec.hooks,
    gateHooks(context, spec, onEvent, step),
    journal,
    spills,
    workerFaults,
  );
  const compact = spec.compact ?? (context.handoff ? new CompactPolicy({ mode: 'no_summary' }) : null);
  const maxBudgetUsd = plan.budget.kind === 'capped' ? plan.budget.capUsd : null;
  const effective: AgentSpec = { ...spec, hooks, compact, maxBudgetUsd };
  const workbench = context.workbench;
  return buildOptions(effective, {
    cwd: context.workspace,
    runDir: context.runDir,
    sessionStore,
    flush: 'eager',
    resume: plan.resume,
    fork: plan.fork,
    resumeAt: plan.resumeAt,
    portable: context.portable,
    baseEnv: context.env,
    resilience: context.resilience,
    verbatim: plan.verbatim,
    // An outside workbench must be authorised, or writes to it are refused (measured in the reference).
    addDirectories: workbench !== null && workbench.external ? [workbench.root] : [],
    sandbox: sessionSandbox(context, spec),
    onWarning: (code, detail) => onEvent?.({ kind: 'warning', code, detail, at: Date.now() / 1000, step }),
  });
}

/** The hooks flower adds to a spec: permission gate, Agent rewrite, workbench index and spill. */
function gateHooks(
  context: AttemptContext,
  spec: AgentSpec,
  onEvent: ((event: Emitted) => void) | null,
  step: string | null,
): HooksConfig {
  const allowed = [...spec.allowedTools, ...wholeServers(spec)];
  const whitelist = spec.delegateOnly
    ? null
    : whitelistGuard(allowed, { role: spec.name, approve: spec.permissionMode !== 'plan' });
  const agents = spec.agents ?? {};
  const isolate = isolatedRoles(agents);
  const agentInput = agentInputGuard({
    isolate,
    allowBackground: spec.backgroundAgents,
    // A coordinator dispatches its own workers only: a built-in type would run unwalled in the main checkout.
    dispatchable: spec.delegateOnly ? new Set(Object.keys(agents)) : null,
  });
  const workbench = context.workbench;
  const worktreeWrite = worktreeWriteGuard({
    isolate,
    workspace: context.workspace,
    alsoWritable: workbench === null ? [] : [workbench.root],
  });
  if (workbench === null) {
    const delegate = spec.delegateOnly ? delegateGuard({ allowGlance: spec.glance }) : null;
    return toHooks(delegate, agentInput, worktreeWrite, whitelist);
  }
  return mergeHooks(
    toHooks(agentInput, worktreeWrite),
    workbenchHooks(workbench, {
      delegateOnly: spec.delegateOnly,
      spillThreshold: context.spillThreshold,
      agents: null,
      allowGlance: spec.glance,
      ...(onEvent === null ? {} : { onEvent, step }),
    }),
    toHooks(whitelist),
  );
}

/**
 * The model the configuration asks for, to notice a gateway serving another (docs/runtime.md); only an
 * explicit id counts (an alias like `opus` is resolved by the child).
 */
export function wantedModel(spec: AgentSpec, env: Env): string | null {
  const want = (spec.model ?? env['ANTHROPIC_MODEL'] ?? env['ANTHROPIC_DEFAULT_OPUS_MODEL'] ?? '').trim();
  return want.includes('-') ? want : null;
}

/**
 * Mounted MCP servers whose every tool the whitelist allows: those the spec names no single tool of. A spec
 * that lists `mcp__human__ask` gets only that tool — the clarifier and the judge must not read the inbox,
 * which would take mail meant for the coordinator.
 */
function wholeServers(spec: AgentSpec): string[] {
  return Object.keys(spec.mcpServers)
    .filter((server) => !spec.allowedTools.some((tool) => tool.startsWith(`mcp__${server}__`)))
    .map((server) => `mcp__${server}`);
}
