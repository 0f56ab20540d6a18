/**
 * `Runtime`: runs one agent step at a time and records it (runtime.md §3). This is the minimal version:
 * one attempt per step through an {@link AgentBackend}, every SDK message normalised into events for the
 * caller, the step's result written to the run manifest, and a synchronous `rescue()` for signal handlers.
 * Retries, handoff, the stall watchdog, the session store and the workbench come with later issues.
 *
 * @module
 */
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentBackend } from '../agent/agent-backend.js';
import type { AgentSpec } from '../agent/agent-spec.js';
import { buildOptions } from '../agent/build-options.js';
import { ClaudeSdkBackend } from '../agent/claude-sdk-backend.js';
import { CompactPolicy } from '../agent/compact-policy.js';
import { projectKey } from '../agent/project-key.js';
import { checkCredentials } from '../config/credentials.js';
import { loadConfig, type FlowerConfig } from '../config/load-config.js';
import { FlowerError } from '../errors.js';
import type { EventSink, FlowerEvent, ResultEvent } from '../events/flower-event.js';
import { normalize } from '../events/normalize.js';
import { mergeHooks, toHooks } from '../guards/hooks.js';
import { whitelistGuard } from '../guards/whitelist-guard.js';
import { MANIFEST_FILE, writeManifest } from './manifest.js';
import { DEFAULT_RESILIENCE_SETTINGS, type ResilienceSettings } from './resilience-settings.js';
import { newRunId } from './run-id.js';
import { newStepResult, type StepResult } from './step-result.js';

/** How a {@link Runtime} is set up. */
export interface RuntimeOptions {
  /** The agents' working directory; created when missing. */
  workspace: string;
  /** Run directory; default `<workspace>/runs` (decision 3); a relative path resolves against the cwd. */
  runDir?: string;
  /** True (default): no settings files are read by the agent (`settingSources: []`). */
  portable?: boolean;
  /** Resilience settings; only the child's retry count and request timeout are used by this version. */
  resilience?: Partial<ResilienceSettings> | boolean;
  /**
   * Handoff on: the child's auto-compact is switched off (`no_summary`) unless the spec sets a compact
   * policy. Default false until handoff itself is implemented, so the SDK's auto-compact stays as a fallback.
   */
  handoff?: boolean;
  /** Runs the agent; the real SDK by default. */
  backend?: AgentBackend;
  /** Loaded configuration (environment after the `.env` chain); `loadConfig()` by default. */
  config?: Pick<FlowerConfig, 'env'>;
}

/** Per-call options of {@link Runtime.run}. */
export interface RunOptions {
  /** The manifest row's step name; the spec's name by default. */
  stepName?: string | null;
  /** Session id to continue. */
  resume?: string | null;
  /** With `resume`: fork into a new session. */
  fork?: boolean;
  /** With `resume`: roll back to this message first. */
  resumeAt?: string | null;
  /** Receives every event of the step; exceptions it throws are kept in `uiErrors`, never fatal. */
  onEvent?: EventSink | null;
  /** Aborting ends the step at once with `killed-by-signal` (the session stays resumable). */
  signal?: AbortSignal;
  /** Send the prompt verbatim (decision 11). */
  verbatim?: boolean;
}

interface InFlight {
  result: StepResult;
  controller: AbortController;
  interrupt: boolean;
}

/** Runs agent steps in one workspace and records each in `<runDir>/manifest.json`. */
export class Runtime {
  /** `error` of a step stopped by a human interrupt. */
  static readonly INTERRUPTED = 'interrupted-by-human';
  /** `error` of a step stopped by a signal, a double Ctrl-C or an aborted `signal`. */
  static readonly KILLED = 'killed-by-signal';

  readonly workspace: string;
  readonly runDir: string;
  readonly runId: string = newRunId();
  readonly resilience: Readonly<ResilienceSettings>;
  /** Finished steps of this process, in order. */
  readonly results: StepResult[] = [];
  /** Failures of event sinks, session callbacks and manifest writes: recorded, never fatal. */
  readonly uiErrors: string[] = [];
  /** Called with each new session id as soon as it is known. */
  onSession: ((sessionId: string) => void) | null = null;

  readonly #env: FlowerConfig['env'];
  readonly #backend: AgentBackend;
  readonly #portable: boolean;
  readonly #handoff: boolean;
  #current: InFlight | null = null;

  /** Throws `FlowerError` `CREDENTIALS_MISSING` (with the four-line message) before touching the disk. */
  constructor(options: RuntimeOptions) {
    this.#env = (options.config ?? loadConfig()).env;
    const missing = checkCredentials(this.#env);
    if (missing !== null) throw new FlowerError('CREDENTIALS_MISSING', missing);
    mkdirSync(options.workspace, { recursive: true });
    this.workspace = realpathSync(resolve(options.workspace));
    this.runDir = options.runDir === undefined ? join(this.workspace, 'runs') : resolve(options.runDir);
    for (const directory of [this.runDir, join(this.runDir, 'claude'), join(this.runDir, 'tmp')]) {
      mkdirSync(directory, { recursive: true });
    }
    this.resilience = Object.freeze({
      ...DEFAULT_RESILIENCE_SETTINGS,
      ...(typeof options.resilience === 'object' ? options.resilience : {}),
      ...(options.resilience === false ? { enabled: false } : {}),
    });
    this.#backend = options.backend ?? new ClaudeSdkBackend();
    this.#portable = options.portable ?? true;
    this.#handoff = options.handoff ?? false;
  }

  /** `<runDir>/manifest.json` (it exists once a step has finished). */
  get manifestPath(): string {
    return join(this.runDir, MANIFEST_FILE);
  }

  /** The SDK project key of the workspace. */
  get projectKey(): string {
    return projectKey(this.workspace);
  }

  /** Dollars spent by this process's finished steps, rounded to 4 decimals. */
  totalCost(): number {
    return Math.round(this.results.reduce((sum, result) => sum + result.costUsd, 0) * 10_000) / 10_000;
  }

  /**
   * Runs `spec` on `prompt` as one step and returns its result; a failure is a result with `ok: false`,
   * not a rejection. Rejects only with `RUNTIME_BUSY` when another step of this runtime is running.
   */
  async run(spec: AgentSpec, prompt: string, options: RunOptions = {}): Promise<StepResult> {
    if (this.#current !== null) {
      throw new FlowerError(
        'RUNTIME_BUSY',
        'This runtime is already running a step; run steps one after another.',
      );
    }
    const result = newStepResult(options.stepName ?? spec.name, Date.now() / 1000);
    const controller = new AbortController();
    const inFlight: InFlight = { result, controller, interrupt: false };
    const onAbort = (): void => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted === true) controller.abort(options.signal.reason);
    this.#current = inFlight;
    try {
      result.attempts = 1;
      await this.#attempt(spec, prompt, options, inFlight);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      if (this.#current === inFlight) {
        result.endedAt = Date.now() / 1000;
        this.#current = null;
        this.results.push(result);
      }
      this.#persist();
    }
    return result;
  }

  /**
   * Asks the running step to stop at the next message boundary; it ends with `interrupted-by-human`.
   * False when no step is running.
   */
  interrupt(): boolean {
    if (this.#current === null) return false;
    this.#current.interrupt = true;
    return true;
  }

  /**
   * For signal handlers: records the in-flight step as `killed-by-signal` and writes the manifest,
   * synchronously. Never throws.
   */
  rescue(): void {
    try {
      const inFlight = this.#current;
      if (inFlight !== null) {
        this.#current = null;
        inFlight.result.endedAt = Date.now() / 1000;
        inFlight.result.ok = false;
        inFlight.result.error ??= Runtime.KILLED;
        this.results.push(inFlight.result);
        inFlight.controller.abort();
      }
      this.#persist();
    } catch {
      // A rescue runs while the process is dying; there is nobody left to tell.
    }
  }

  /** Releases resources (nothing is held open by this version). */
  close(): void {}

  async #attempt(spec: AgentSpec, prompt: string, options: RunOptions, inFlight: InFlight): Promise<void> {
    const { result, controller } = inFlight;
    const stepName = result.step;
    const texts: string[] = [];
    const toolNames = new Map<string, string>();
    const runCostBefore = this.totalCost();
    let lastContextMessage: unknown = null;
    let sawResult = false;
    // A resumed or forked session's first result already carries the total its transcript saved.
    let queryCost = options.resume ? this.#savedCost(options.resume) : 0;

    const emit = (event: FlowerEvent): void => {
      event.step = stepName;
      if (!options.onEvent) return;
      try {
        options.onEvent(event);
      } catch (error) {
        this.uiErrors.push(`event sink: ${errorText(error)}`);
      }
    };
    const noteSession = (sessionId: unknown): void => {
      if (typeof sessionId !== 'string' || sessionId === '' || sessionId === result.sessionId) return;
      result.sessionId = sessionId;
      try {
        this.onSession?.(sessionId);
      } catch (error) {
        this.uiErrors.push(`onSession: ${errorText(error)}`);
      }
    };
    const onResult = (event: ResultEvent): void => {
      sawResult = true;
      noteSession(event.sessionId);
      // total_cost_usd is cumulative within one query() call, so the step's cost is the latest value.
      const delta = Math.max(0, event.costUsd - queryCost);
      queryCost = Math.max(queryCost, event.costUsd);
      result.costUsd += delta;
      result.numTurns += event.numTurns;
      result.ok = !event.isError;
      result.error = event.isError ? resultError(event, result.errors) : null;
      emit({
        kind: 'cost',
        text: `$${result.costUsd.toFixed(4)}`,
        at: Date.now() / 1000,
        step: stepName,
        usd: delta,
        stepUsd: result.costUsd,
        runUsd: runCostBefore + result.costUsd,
      });
    };

    let query: ReturnType<AgentBackend['query']> | null = null;
    try {
      const request = { prompt, options: this.#optionsFor(spec, options) };
      query = this.#backend.query(request, controller.signal);
      for await (const message of query) {
        noteSession((message as { session_id?: unknown }).session_id);
        if (inFlight.interrupt) {
          result.ok = false;
          result.error = Runtime.INTERRUPTED;
          break;
        }
        for (const event of normalize(message, { toolNames })) {
          if (event.kind === 'context') {
            if (event.raw !== undefined && messageId(event.raw) === lastContextMessage) continue;
            lastContextMessage = messageId(event.raw);
            result.context = Math.max(result.context, event.tokens);
          }
          if (event.kind === 'tool_call') toolNames.set(event.id, event.tool);
          emit(event);
          if (event.kind === 'text' && !event.subagent) texts.push(event.text);
          else if (event.kind === 'error') result.errors.push(event.text);
          else if (event.kind === 'result') onResult(event);
        }
      }
    } catch (error) {
      // After an error result the SDK also throws; the result message is the truth then.
      if (controller.signal.aborted) {
        result.ok = false;
        result.error = Runtime.KILLED;
      } else if (!sawResult) {
        result.ok = false;
        result.error = errorText(error);
      }
    } finally {
      try {
        query?.close();
      } catch (error) {
        this.uiErrors.push(`close: ${errorText(error)}`);
      }
    }
    if (!result.ok && result.error === null)
      result.error = result.errors.at(-1) ?? 'no result from the agent';
    const joined = texts.join('\n').trim();
    if (joined !== '') result.text = joined;
  }

  #optionsFor(spec: AgentSpec, options: RunOptions): ReturnType<typeof buildOptions> {
    const allowed = [...spec.allowedTools, ...Object.keys(spec.mcpServers).map((server) => `mcp__${server}`)];
    const whitelist = spec.delegateOnly
      ? null
      : whitelistGuard(allowed, { role: spec.name, approve: spec.permissionMode !== 'plan' });
    const hooks = mergeHooks(spec.hooks, toHooks(whitelist));
    const compact = spec.compact ?? (this.#handoff ? new CompactPolicy({ mode: 'no_summary' }) : null);
    const effective: AgentSpec = { ...spec, hooks, compact };
    return buildOptions(effective, {
      cwd: this.workspace,
      runDir: this.runDir,
      resume: options.resume ?? null,
      fork: options.fork ?? false,
      resumeAt: options.resumeAt ?? null,
      portable: this.#portable,
      baseEnv: this.#env,
      resilience: this.resilience,
      verbatim: options.verbatim ?? false,
    });
  }

  /**
   * The cost total the CLI saved in a session's local transcript (its last `cost-state` entry), or 0. The
   * CLI starts a resumed query's running total from it, so it is subtracted to get this process's spend.
   */
  #savedCost(sessionId: string): number {
    const transcript = join(this.runDir, 'claude', 'projects', this.projectKey, `${sessionId}.jsonl`);
    let text: string;
    try {
      text = readFileSync(transcript, 'utf8');
    } catch {
      return 0;
    }
    const start = text.lastIndexOf('{"type":"cost-state"');
    if (start < 0) return 0;
    try {
      const end = text.indexOf('\n', start);
      const entry = JSON.parse(end < 0 ? text.slice(start) : text.slice(start, end)) as {
        totalCostUSD?: unknown;
      };
      return typeof entry.totalCostUSD === 'number' ? entry.totalCostUSD : 0;
    } catch {
      return 0;
    }
  }

  #persist(): void {
    if (this.results.length === 0) return;
    try {
      writeManifest(this.runDir, this.runId, this.results);
    } catch (error) {
      this.uiErrors.push(`manifest: ${errorText(error)}`);
    }
  }
}

function resultError(event: ResultEvent, errors: readonly string[]): string {
  const raw = (typeof event.raw === 'object' && event.raw !== null ? event.raw : {}) as Record<
    string,
    unknown
  >;
  const detail =
    event.errors.length > 0 ? event.errors.join('; ') : (errors.at(-1) ?? stringField(raw['result']));
  // An API failure ends with subtype "success" plus is_error; its terminal reason names it better.
  const label =
    event.subtype === 'success' ? stringField(raw['terminal_reason']) || 'api_error' : event.subtype;
  const status = typeof raw['api_error_status'] === 'number' ? ` ${raw['api_error_status']}` : '';
  return detail === '' ? `${label}${status}` : `${label}${status}: ${detail}`;
}

function messageId(raw: unknown): unknown {
  const body = (raw as { message?: { id?: unknown } } | null)?.message;
  return body?.id ?? raw;
}

function stringField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
