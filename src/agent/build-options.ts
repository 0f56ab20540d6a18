/**
 * `buildOptions()`: an {@link AgentSpec} plus run context in, the SDK's `Options` out (docs/runtime.md).
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FLOWER_OWNED_ENV } from '../config/known-keys.js';
import { PLUGIN_DIR } from '../config/package-info.js';
import type { Env } from '../config/process-environment.js';
import { processEnvironment } from '../config/process-environment.js';
import type { AgentSpec } from './agent-spec.js';
import type { SandboxSettings } from './bash-sandbox.js';
import type { Options, SessionStore } from './claude-sdk.js';
import { offerTools } from './offered-tools.js';

/**
 * The Claude Code child's own retries and request timeout. Small, because flower's resilience layer does the
 * waiting; the runtime's resilience settings carry them (decisions.md D6).
 */
export interface ChildRequestLimits {
  /** The child's own `CLAUDE_CODE_MAX_RETRIES`. */
  cliMaxRetries: number;
  /** The child's `API_TIMEOUT_MS` for a request without response headers. */
  apiTimeoutMs: number;
}

/** The limits when none are given; the resilience defaults take theirs from here, so both agree. */
export const DEFAULT_CHILD_REQUEST_LIMITS: Readonly<ChildRequestLimits> = Object.freeze({
  cliMaxRetries: 2,
  apiTimeoutMs: 300_000,
});

/** Run context for {@link buildOptions}. */
export interface BuildOptionsContext {
  /**
   * Told about arguments that were ignored (`resume_args_ignored`: fork or resumeAt without resume;
   * `owned_env_ignored`: `spec.env` sets a variable flower owns, decisions.md D17). Library code never
   * prints: the runtime turns these into `warning` events.
   */
  onWarning?: (code: 'resume_args_ignored' | 'owned_env_ignored', detail: string) => void;
  /** The agent's working directory (pass the realpath, so the SDK's project key matches flower's). */
  cwd?: string;
  /** The run directory: the child's `CLAUDE_CONFIG_DIR` and temp directory go under it (decisions.md D4). */
  runDir?: string;
  /** Session store mirroring the transcript; omitted when null. */
  sessionStore?: SessionStore | null;
  /** Session id to continue. */
  resume?: string | null;
  /** With `resume`: continue in a new session forked from it. */
  fork?: boolean;
  /** With `resume`: roll the session back to this message first. */
  resumeAt?: string | null;
  /** Load the packaged `plugin/` directory when it exists. Default true. */
  usePlugin?: boolean;
  /** True (default): read no settings files at all (`settingSources: []`); false: the project's only. */
  portable?: boolean;
  /** Extra directories the agent may read and write (an external workbench root). */
  addDirectories?: readonly string[];
  /** Store flush mode; `eager` by default, because a turn can last tens of minutes. */
  flush?: 'eager' | 'batched';
  /** The environment the child starts from; the process environment by default. */
  baseEnv?: Env;
  /** Source of the child's own retry count and request timeout (decisions.md D6). */
  resilience?: ChildRequestLimits;
  /** Send the prompt as-is: no slash-command dispatch, no `@path` expansion (decisions.md D11). */
  verbatim?: boolean;
  /** Claude Code's Bash sandbox (see `bashSandbox()`); none: Bash runs unsandboxed. */
  sandbox?: SandboxSettings | null;
}

/**
 * SDK options for one query of `spec`. The child environment is built explicitly, because the SDK replaces
 * it rather than merging (decisions.md D4): the base environment minus every variable flower owns, then
 * `spec.env` minus owned keys, then flower's own values — so a shell export of an owned variable has no
 * effect (decisions.md D17).
 */
export function buildOptions(spec: AgentSpec, context: BuildOptionsContext = {}): Options {
  const options: Options = {
    systemPrompt:
      spec.instructions === ''
        ? { type: 'preset', preset: 'claude_code' }
        : { type: 'preset', preset: 'claude_code', append: spec.instructions },
    allowedTools: [...spec.allowedTools],
    permissionMode: spec.permissionMode,
    settingSources: (context.portable ?? true) ? [] : ['project'],
    env: childEnvironment(spec, context),
    // Stream events are the stall watchdog's heartbeat: an assistant message only arrives when a block is
    // complete, so a long reply (a big Write, long thinking) would otherwise look exactly like a stall.
    includePartialMessages: true,
  };
  if (spec.permissionMode === 'bypassPermissions') options.allowDangerouslySkipPermissions = true;
  if (spec.disallowedTools.length > 0) options.disallowedTools = [...spec.disallowedTools];
  if ((context.usePlugin ?? true) && existsSync(PLUGIN_DIR))
    options.plugins = [{ type: 'local', path: PLUGIN_DIR }];
  if (context.cwd !== undefined) options.cwd = context.cwd;
  if (context.addDirectories !== undefined && context.addDirectories.length > 0) {
    options.additionalDirectories = [...context.addDirectories];
  }
  if (context.sessionStore) {
    options.sessionStore = context.sessionStore;
    options.sessionStoreFlush = context.flush ?? 'eager';
  }
  if (spec.model !== null && spec.model !== '') options.model = spec.model;
  if (spec.effort !== null && spec.effort !== '')
    options.effort = spec.effort as NonNullable<Options['effort']>;
  if (spec.agents !== null && Object.keys(spec.agents).length > 0) options.agents = { ...spec.agents };
  offerTools(options, spec);
  if (Object.keys(spec.mcpServers).length > 0) options.mcpServers = { ...spec.mcpServers };
  if (spec.hooks !== null && Object.keys(spec.hooks).length > 0) options.hooks = spec.hooks;
  if (spec.maxTurns !== null) options.maxTurns = spec.maxTurns;
  if (spec.maxBudgetUsd !== null) options.maxBudgetUsd = spec.maxBudgetUsd;
  if (context.verbatim === true) options.verbatimPrompts = true;
  if (context.sandbox) options.sandbox = context.sandbox;
  if (context.resume) {
    options.resume = context.resume;
    if (context.fork === true) options.forkSession = true;
    if (context.resumeAt) options.resumeSessionAt = context.resumeAt;
  } else if (context.fork === true || context.resumeAt) {
    context.onWarning?.('resume_args_ignored', 'fork and resumeAt need resume; they were ignored');
  }
  return options;
}

function childEnvironment(spec: AgentSpec, context: BuildOptionsContext): Record<string, string> {
  const owned = new Set(FLOWER_OWNED_ENV);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(context.baseEnv ?? processEnvironment())) {
    if (value !== undefined && !owned.has(key)) env[key] = value;
  }
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(spec.env)) {
    if (owned.has(key)) ignored.push(key);
    else env[key] = value;
  }
  if (ignored.length > 0) {
    context.onWarning?.('owned_env_ignored', ignored.join(', '));
  }
  Object.assign(env, spec.compact?.env() ?? {});
  // The session store's location may carry a database password, and Claude Code never needs it: the
  // agent's tools must not be able to print it (docs/decisions.md D432).
  delete env['FLOWER_STORE'];
  if (context.runDir !== undefined) {
    const temporary = join(context.runDir, 'tmp');
    env['CLAUDE_CONFIG_DIR'] = join(context.runDir, 'claude');
    env['TMPDIR'] = temporary;
    env['CLAUDE_CODE_TMPDIR'] = temporary;
  }
  // Without this every session sends a hello request before its first turn and calls home. A user who wants
  // that traffic sets the variable to an empty value (Claude Code reads any non-empty value, even 0, as on).
  env['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'] ??= '1';
  const resilience = context.resilience ?? DEFAULT_CHILD_REQUEST_LIMITS;
  env['CLAUDE_CODE_MAX_RETRIES'] = String(resilience.cliMaxRetries);
  env['API_TIMEOUT_MS'] = String(resilience.apiTimeoutMs);
  return env;
}
