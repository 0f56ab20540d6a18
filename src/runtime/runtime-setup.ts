/**
 * What a {@link Runtime} derives from its options and a step's spec: the resilience it runs with, the SDK
 * options of one attempt (permission gate, compact policy, budget left, store, resume arguments), and the
 * model the configuration asks for.
 *
 * @module
 */
import type { AgentSpec } from '../agent/agent-spec.js';
import { buildOptions } from '../agent/build-options.js';
import type { Options, SessionStore } from '../agent/claude-sdk.js';
import { CompactPolicy } from '../agent/compact-policy.js';
import type { Env } from '../config/process-environment.js';
import { mergeHooks, toHooks } from '../guards/hooks.js';
import { whitelistGuard } from '../guards/whitelist-guard.js';
import type { AttemptPlan } from './attempt.js';
import { Resilience } from './resilience.js';
import type { ResilienceSettings } from './resilience-settings.js';

/** The runtime's fixed part of every attempt's options. */
export interface AttemptContext {
  workspace: string;
  runDir: string;
  portable: boolean;
  handoff: boolean;
  env: Env;
  resilience: Resilience;
}

/**
 * A {@link Resilience} from a runtime option: an instance as is, settings or a boolean (false = one
 * attempt, no waiting). `FLOWER_STALL_TIMEOUT` sets the watchdog when the settings do not (api.md §6 #42).
 */
export function resilienceFrom(
  value: Resilience | Partial<ResilienceSettings> | boolean | undefined,
  config: { env: Env; stallTimeoutS?: number | null },
): Resilience {
  if (value instanceof Resilience) return value;
  const settings: Partial<ResilienceSettings> = typeof value === 'object' ? { ...value } : {};
  if (value === false) settings.enabled = false;
  if (settings.stallTimeoutS === undefined && config.stallTimeoutS != null) {
    settings.stallTimeoutS = config.stallTimeoutS;
  }
  return new Resilience(settings, { env: config.env });
}

/**
 * SDK options for one attempt of `spec`: the main-thread whitelist as the permission gate (decision 7;
 * a coordinator's delegate wall comes with its own guards), auto-compact off with handoff (decision 6),
 * what is left of the budget as `maxBudgetUsd`, the observed store with eager flush.
 */
export function attemptOptions(
  context: AttemptContext,
  spec: AgentSpec,
  plan: AttemptPlan,
  sessionStore: SessionStore,
): Options {
  const allowed = [...spec.allowedTools, ...Object.keys(spec.mcpServers).map((server) => `mcp__${server}`)];
  const whitelist = spec.delegateOnly
    ? null
    : whitelistGuard(allowed, { role: spec.name, approve: spec.permissionMode !== 'plan' });
  const hooks = mergeHooks(spec.hooks, toHooks(whitelist));
  const compact = spec.compact ?? (context.handoff ? new CompactPolicy({ mode: 'no_summary' }) : null);
  const maxBudgetUsd = plan.budget.kind === 'capped' ? plan.budget.capUsd : null;
  const effective: AgentSpec = { ...spec, hooks, compact, maxBudgetUsd };
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
  });
}

/**
 * The model the configuration asks for, to notice a gateway serving another (rt §3.3 5d); only an
 * explicit id counts (an alias like `opus` is resolved by the child).
 */
export function wantedModel(spec: AgentSpec, env: Env): string | null {
  const want = (spec.model ?? env['ANTHROPIC_MODEL'] ?? env['ANTHROPIC_DEFAULT_OPUS_MODEL'] ?? '').trim();
  return want.includes('-') ? want : null;
}
