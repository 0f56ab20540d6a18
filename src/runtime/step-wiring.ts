/**
 * The per-run wiring of `Runtime.run()`: the step's state with its callbacks (session, handoff, manifest,
 * language), the abort signal tied to it, the handoff bookkeeping, the one unsandboxed-shell warning, and
 * what the attempt loop is lent (SDK options with the guards' hooks and the tied spawn, the index relay,
 * the budget caps). The runtime keeps its public surface; everything a single run puts together lives here.
 *
 * @module
 */
import { join } from 'node:path';
import type { AgentBackend } from '../agent/agent-backend.js';
import type { AgentSpec } from '../agent/agent-spec.js';
import type { HookCallback, Options } from '../agent/claude-sdk.js';
import { tiedSpawn } from '../agent/tied-spawn.js';
import type { Env } from '../config/process-environment.js';
import type { Lang } from '../config/ui-text.js';
import type { FlowerSessionStore } from '../session/flower-session-store.js';
import type { Workbench } from '../workbench/workbench.js';
import { ContextWatermark } from './context-watermark.js';
import type { HandoffPolicy } from './handoff-policy.js';
import { IndexRelay } from './index-relay.js';
import { fitPrompt } from './oversized-prompt.js';
import type { Resilience } from './resilience.js';
import type { LoopDeps, LoopStart } from './run-loop.js';
import { OWN_TOKEN, type RunProcesses } from './run-processes.js';
import { leaseLostText, type LeaseAnswers, type RunLease } from './run-lease.js';
import type { RunOptions } from './runtime-options.js';
import { attemptOptions, wantedModel, type AttemptContext } from './runtime-setup.js';
import type { PriceTable } from './price-table.js';
import { StepRun } from './step-run.js';

/** What a runtime lends each of its runs. */
export interface RunWiring {
  runDir: string;
  env: Env;
  /** The language of the step's display lines and diagnosed errors. */
  lang: Lang;
  backend: AgentBackend;
  store: FlowerSessionStore;
  resilience: Resilience;
  handoff: HandoffPolicy;
  workbench: Workbench | null;
  /** The workbench block last sent to each session, shared by every run of the runtime (decisions.md D20). */
  indexSent: Map<string, string>;
  /** This process's record in `processes.json`: sessions it holds, children it started. */
  processes: RunProcesses;
  uiErrors: string[];
  /** The run cap in dollars, or null. */
  budgetUsd: number | null;
  /** The prices the run's cost is figured at. */
  prices: PriceTable;
  /** The process's run id (parking records carry it). */
  runId: string;
  /** The run's lease when the caller took one: renewed after every tool call. */
  lease: RunLease<LeaseAnswers> | null;
  /** The runtime's fixed part of every attempt's options. */
  attemptContext(): AttemptContext;
  /** The runtime's own callbacks, read when called: a caller may set them while the step runs. */
  onSession(): ((sessionId: string) => void) | null;
  onHandoff(): ((step: string, path: string, sha256: string) => void) | null;
  /** Writes the manifest with `step`'s in-flight row. */
  persist(step: StepRun): void;
  /** Claude Code was just started (work that may wait for it starts now: docs/decisions.md D228). */
  spawned(): void;
}

/**
 * The state of one run of `spec`: its callbacks (a run's own `onSession`/`onHandoff` win over the runtime's;
 * a new session is also claimed in `processes.json`), and the handoff bookkeeping when handoff is on.
 */
export function startStep(spec: AgentSpec, options: RunOptions, wiring: RunWiring): StepRun {
  const onSession = (): ((sessionId: string) => void) | null =>
    options.onSession === undefined ? wiring.onSession() : options.onSession;
  const onHandoff = (): ((step: string, path: string, sha256: string) => void) | null =>
    options.onHandoff === undefined ? wiring.onHandoff() : options.onHandoff;
  const step = new StepRun(options.stepName ?? spec.name, options.onEvent ?? null, {
    onSession: (sessionId) => {
      wiring.processes.claimSession(sessionId);
      onSession()?.(sessionId);
    },
    onHandoff: (stepName, path, sha256) => onHandoff()?.(stepName, path, sha256),
    persist: () => wiring.persist(step),
    uiErrors: wiring.uiErrors,
    lang: wiring.lang,
    prices: wiring.prices,
  });
  if (wiring.handoff.enabled) step.handoff = new ContextWatermark(wiring.handoff);
  return step;
}

/** Aborts `step` when `signal` aborts (at once if it already has); returns the function that unties them. */
export function tieAbort(step: StepRun, signal: AbortSignal | undefined): () => void {
  const onAbort = (): void => step.controller.abort(signal?.reason);
  if (signal?.aborted === true) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return () => signal?.removeEventListener('abort', onAbort);
}

/** Where the step starts: a prompt too long for one message is saved to a file and replaced by a pointer. */
export function loopStart(prompt: string, step: StepRun, options: RunOptions, wiring: RunWiring): LoopStart {
  return {
    prompt: fitPrompt(prompt, {
      folder: wiring.workbench?.notes ?? join(wiring.runDir, 'prompts'),
      name: step.result.step,
    }),
    resume: options.resume ?? null,
    fork: options.fork ?? false,
    resumeAt: options.resumeAt ?? null,
    verbatim: options.verbatim ?? false,
  };
}

/** What the attempt loop of `step` is lent; `runSpentBefore` is the runtime's spend on earlier steps. */
export function loopDeps(
  spec: AgentSpec,
  step: StepRun,
  wiring: RunWiring,
  runSpentBefore: number,
): LoopDeps {
  return {
    backend: wiring.backend,
    store: wiring.store,
    stallTimeoutS: wiring.resilience.stallTimeoutS,
    wantedModel: wantedModel(spec, wiring.env),
    runSpentBefore,
    journal: wiring.attemptContext().journal ?? null,
    onWriteFailed: wiring.attemptContext().onWriteFailed ?? null,
    options: (plan, sessionStore) =>
      tie(
        attemptOptions(
          wiring.attemptContext(),
          spec,
          plan,
          sessionStore,
          (event) => step.emit(event),
          step.result.step,
          step.budgetGate,
          (toolUseId, error) => step.workerCutOff(toolUseId, error),
        ),
        wiring.processes,
        wiring.lease,
        (pid) => {
          step.childPid = pid;
          wiring.spawned();
        },
      ),
    relay:
      wiring.workbench !== null && spec.workbench ? new IndexRelay(wiring.workbench, wiring.indexSent) : null,
    workbench: wiring.workbench,
    env: wiring.env,
    resilience: wiring.resilience,
    caps: { stepCapUsd: spec.maxBudgetUsd, runCapUsd: wiring.budgetUsd },
    parking: { runDir: wiring.runDir, runId: wiring.runId },
  };
}

/** Every child a run starts is tied to this process and recorded (see `tiedSpawn`); the lease is checked. */
function tie(
  options: Options,
  processes: RunProcesses,
  lease: RunLease<LeaseAnswers> | null,
  spawned: (pid: number) => void,
): Options {
  options.spawnClaudeCodeProcess = tiedSpawn({
    token: OWN_TOKEN,
    onSpawn: (pid) => {
      processes.addChild(pid);
      spawned(pid);
    },
    onExit: (pid) => processes.removeChild(pid),
  });
  if (lease !== null) checkLeaseAfterTools(options, lease);
  return options;
}

/**
 * After every tool call, before its result goes back to the model, the lease is renewed. A process that
 * lost it aborts the step and never answers the hook, so Claude Code, which waits for the answer before it
 * sends the result, never asks for the next turn (the heartbeat alone could be up to one interval late,
 * and a `continue: false` answer still lets that request go out).
 */
function checkLeaseAfterTools(options: Options, lease: RunLease<LeaseAnswers>): void {
  const check: HookCallback = async (_input, _toolUseId, { signal }) => {
    // renew() tells the onLost listener, which ends Claude Code and aborts the step. A server-backed lease
    // answers through a promise: the tool's result waits for it.
    if (await lease.renew()) return {};
    const stop = { continue: false, stopReason: leaseLostText(lease.lostTo) };
    return await new Promise((resolve) => {
      if (signal.aborted) resolve(stop);
      else signal.addEventListener('abort', () => resolve(stop), { once: true });
    });
  };
  options.hooks = {
    ...options.hooks,
    PostToolUse: [...(options.hooks?.PostToolUse ?? []), { hooks: [check] }],
  };
}
