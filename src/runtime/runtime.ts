/**
 * `Runtime`: runs agent steps in one workspace and records each in `<runDir>/manifest.json`
 * (docs/runtime.md). A step is a loop of attempts (`runLoop`): a failure that a retry can fix waits for the
 * network, backs off and resumes the same session; a human interrupt resumes it with the words typed; a
 * budget caps the step and the whole run. Sessions are mirrored into a {@link PruningSessionStore} with eager
 * flush, so a step killed at any point resumes where it stopped, and its manifest row is written while it
 * runs.
 *
 * @module
 */
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentBackend } from '../agent/agent-backend.js';
import type { AgentSpec } from '../agent/agent-spec.js';
import { ClaudeSdkBackend } from '../agent/claude-sdk-backend.js';
import { projectKey } from '../agent/project-key.js';
import { checkCredentials } from '../config/credentials.js';
import { loadConfig, type FlowerConfig } from '../config/load-config.js';
import { languageOf, uiText, type Lang } from '../config/ui-text.js';
import { FlowerError } from '../errors.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { errorText } from '../internal/error-text.js';
import type { FlowerSessionStore } from '../session/flower-session-store.js';
import { storeSetting } from '../config/store-settings.js';
import type { RunOptions, RuntimeOptions } from './runtime-options.js';
import { prepareDirectory } from './prepare-directory.js';
import { createRunDirectory } from './run-directory.js';
import { journalOf, openRunStores, spillsOf } from './run-stores.js';
import { STALL_PREFIX } from './classify-error.js';
import { eventStream } from './event-stream.js';
import { INTERRUPT_NOTE } from './interrupt-note.js';
import { MANIFEST_FILE } from './manifest.js';
import { runRecordsFor, writeRunRows, type RunRecords } from './run-records.js';
import type { Resilience } from './resilience.js';
import { runLoop } from './run-loop.js';
import { handoffFrom, resilienceFrom, workbenchFrom, type AttemptContext } from './runtime-setup.js';
import { newRunId } from './run-id.js';
import { RowCompletion } from './row-completion.js';
import { errorOutcome, HANDOFF_DUE, INTERRUPTED, KILLED } from './step-outcome.js';
import { StepRun } from './step-run.js';
import type { StepResult } from './step-result.js';
import { isolatedRoles } from '../guards/agent-input-guard.js';
import { excludeWorktrees } from '../workbench/exclude-worktrees.js';
import { isGitWorkTree } from '../workbench/git-work-tree.js';
import type { Workbench } from '../workbench/workbench.js';
import type { HandoffPolicy } from './handoff-policy.js';
import { endProcessesOf, OWN_TOKEN, RunProcesses } from './run-processes.js';
import { leaseLostText, type LeaseAnswers, type RunLease } from './run-lease.js';
import { RunDirFull } from './run-dir-full.js';
import { unsandboxedWarning } from './session-sandbox.js';
import { loopDeps, loopStart, startStep, tieAbort, type RunWiring } from './step-wiring.js';
import { priceGuessWarning } from './price-warning.js';
import { PriceTable } from './price-table.js';

export type { RunOptions, RuntimeOptions } from './runtime-options.js';

/** Runs agent steps in one workspace and records each in `<runDir>/manifest.json`. */
export class Runtime {
  /** `error` of a step stopped by a human interrupt that could not resume (no session yet). */
  static readonly INTERRUPTED = INTERRUPTED;
  /** Internal `error` of an attempt stopped for a handoff. */
  static readonly HANDOFF_DUE = HANDOFF_DUE;
  /** `error` of a step stopped by a signal, a double Ctrl-C or an aborted `signal`. */
  static readonly KILLED = KILLED;
  /** Every stall error begins with this (decisions.md D30). */
  static readonly STALL_PREFIX = STALL_PREFIX;
  /** What an interrupt-resume prompt ends with. */
  static readonly INTERRUPT_NOTE = INTERRUPT_NOTE;

  readonly workspace: string;
  readonly runDir: string;
  readonly runId: string = newRunId();
  readonly store: FlowerSessionStore;
  readonly resilience: Resilience;
  /** The run cap in dollars (decisions.md D25), or null. */
  readonly budgetUsd: number | null;
  /** Finished steps of this process, in order. */
  readonly results: StepResult[] = [];
  /** Failures of event sinks, session callbacks and manifest writes: recorded, never fatal. */
  readonly uiErrors: string[] = [];
  /** When and how a step hands off to a new session instead of compacting (docs/handoff.md). */
  readonly handoff: HandoffPolicy;
  /** The workbench every step shares (index, spill, notes), or null. */
  readonly workbench: Workbench | null;
  /** Results of this many characters or more are spilled to the workbench; null = never. */
  readonly spillThreshold: number | null;
  /**
   * Called after a step wrote a handoff document, with the step, the file and its sha256 (decisions.md D23).
   */
  onHandoff: ((step: string, path: string, sha256: string) => void) | null = null;
  /** Called with each new session id as soon as it is known (before the first turn). */
  onSession: ((sessionId: string) => void) | null = null;
  /**
   * The prices cost is figured at: the list ({@link PRICES_TAKEN}) plus the configuration's `FLOWER_PRICES`.
   * A model it has to guess a price for is reported once, as a `price_guessed` warning of the step then
   * running.
   */
  readonly prices: PriceTable;
  /** Where this run's manifest rows go: the run directory's files, or the PostgreSQL store's tables. */
  readonly records: RunRecords;

  readonly #env: FlowerConfig['env'];
  readonly #lang: Lang;
  readonly #backend: AgentBackend;
  readonly #portable: boolean;
  #current: StepRun | null = null;
  #closed = false;
  /** This process's record in `processes.json`: children to end after a crash, sessions it holds. */
  readonly #processes: RunProcesses;
  /** The run's lease when the caller took one: no step starts without it. */
  readonly #lease: RunLease<LeaseAnswers> | null;
  /** Set once a write found the run directory full: the run stops (docs/decisions.md D341, D350). */
  readonly #full: RunDirFull;
  /** The workbench block last sent to each session (decisions.md D20). */
  readonly #indexSent = new Map<string, string>();
  /** The tail of the record writes to an asynchronous store (PostgreSQL): each starts after the last. */
  #recordWrites: Promise<void> = Promise.resolve();
  /** The unsandboxed-shell warning is given once per runtime, at its first step. */
  #sandboxChecked = false;
  /** False when the configuration turned the Bash sandbox off. */
  readonly #sandbox: boolean;
  /** A yes from git (or the caller) that the workspace is a work tree: git is not asked again every step. */
  #gitWorkTree: boolean;
  /** Completes the rows killed processes left unfinished, before each step (docs/decisions.md D336, D337). */
  readonly #rows: RowCompletion;
  /** Opens the SQLite store this runtime made, once Claude Code starts (docs/decisions.md D228); then null. */
  #openStore: (() => Promise<void>) | null;
  /** Why that store could not be opened: the step stops and `run()` rejects with it. */
  #storeFailure: Error | null = null;

  /** Throws `FlowerError` `CREDENTIALS_MISSING` (with the four-line message) before touching the disk. */
  constructor(options: RuntimeOptions) {
    const config = options.config ?? loadConfig();
    this.#env = config.env;
    this.#lang = config.lang ?? languageOf(config.env);
    this.#sandbox = config.sandbox ?? true;
    this.#gitWorkTree = options.gitWorkTree === true;
    // Only the SDK reads credentials: a backend of the caller's own (a scripted one in a test) never uses
    // them, so demanding a key for it would only make tests invent one.
    const usesCredentials = options.backend === undefined || options.backend instanceof ClaudeSdkBackend;
    const missing = usesCredentials ? checkCredentials(this.#env) : null;
    if (missing !== null) throw new FlowerError('CREDENTIALS_MISSING', missing);
    this.resilience = resilienceFrom(options.resilience, config);
    prepareDirectory(options.workspace, 'workspace', this.#lang);
    this.workspace = realpathSync(resolve(options.workspace));
    this.runDir = options.runDir === undefined ? join(this.workspace, 'runs') : resolve(options.runDir);
    // Transcripts do not belong in the user's commits: a new run directory in a git work tree ignores itself.
    createRunDirectory(this.runDir);
    for (const directory of [this.runDir, join(this.runDir, 'claude'), join(this.runDir, 'tmp')]) {
      prepareDirectory(directory, 'runDir', this.#lang);
    }
    // Holding the run's lease, this process drives the run; another host's record cannot
    // (docs/decisions.md D464).
    this.#processes = new RunProcesses(this.runDir, this.runId, { leased: options.lease != null });
    // Aborting alone only interrupts Claude Code, which may still send a request nothing can record: its
    // processes (and their tools) are ended first.
    this.#full = new RunDirFull(this.runDir, (error) => {
      if (this.#current === null) return;
      endProcessesOf(OWN_TOKEN);
      this.#current.controller.abort(error);
    });
    this.#lease = options.lease ?? null;
    // Lost (another process took over): the turn in flight is cut, so this process writes nothing more.
    // Aborting alone only interrupts Claude Code, which may still send the turn's tool results; its
    // processes (and their tools) are ended first.
    this.#lease?.onLost(() => {
      endProcessesOf(OWN_TOKEN);
      this.#current?.controller.abort(this.#leaseLost());
    });
    this.budgetUsd = options.budgetUsd ?? null;
    this.prices = new PriceTable(config.prices ?? null);
    this.prices.onGuess = (model, lookup) => {
      const step = this.#current;
      step?.emit(priceGuessWarning(model, lookup, this.#lang, step.result.step));
    };
    this.workbench = workbenchFrom(options.workbench, this.workspace, this.runDir);
    this.workbench?.ensure();
    this.spillThreshold = options.spillThreshold === undefined ? 4000 : options.spillThreshold || null;
    this.#backend = options.backend ?? new ClaudeSdkBackend();
    this.#portable = options.portable ?? true;
    this.handoff = handoffFrom(options.handoff, config.env);
    // The store the configuration names (`FLOWER_STORE`), else `<runDir>/sessions.db`: one opener for every
    // run (run-stores.ts). The CLI opens and checks a server itself, before anything is written, and passes it
    // in. The SQLite file opens on first use, at the latest right after Claude Code is spawned: loading the
    // driver and preparing the file then overlaps Claude Code's own start-up (docs/decisions.md D228).
    const opened =
      options.store === undefined
        ? openRunStores({
            runDir: this.runDir,
            workspace: this.workspace,
            location: storeSetting(config.env),
            env: config.env,
            layers: {
              trim: options.trim ?? false,
              ephemeral: options.ephemeral ?? true,
              keepDenials: options.keepDenials ?? 1,
            },
            openOnFirstUse: true,
          })
        : null;
    this.#openStore = opened === null ? null : () => opened.ready();
    this.store = opened === null ? (options.store as FlowerSessionStore) : opened.sessions;
    // A run on a server keeps its records there too (no manifest.json/lineage.json in the run directory).
    this.records = options.records ?? runRecordsFor(this.runDir, opened?.server ?? null);
    this.#rows = new RowCompletion({
      runDir: this.runDir,
      runId: this.runId,
      records: this.records,
      store: this.store,
      projectKey: this.projectKey,
      prices: this.prices,
      processes: this.#processes,
      uiErrors: this.uiErrors,
    });
  }

  /**
   * Resolves when every manifest write so far has reached the records (at once for the files; the server's
   * answer for PostgreSQL). Never rejects: a failed write is in {@link Runtime.uiErrors}.
   */
  async recordsWritten(): Promise<void> {
    await this.#recordWrites;
  }

  /** `<runDir>/manifest.json` (it exists once a step has started; not with PostgreSQL records). */
  get manifestPath(): string {
    return join(this.runDir, MANIFEST_FILE);
  }

  /** The language of its messages, from its configuration: a workflow on it speaks the same one. */
  get lang(): Lang {
    return this.#lang;
  }

  /** The SDK project key of the workspace: the key its sessions are stored under. */
  get projectKey(): string {
    return projectKey(this.workspace);
  }

  /**
   * True when the store holds `sessionId` under this workspace's key (one index lookup). A promise when the
   * store is on a server (docs/decisions.md D430): await it.
   */
  hasSession(sessionId: string): boolean | Promise<boolean> {
    return this.store.hasSession(this.projectKey, sessionId);
  }

  /** The session's last main-thread context in tokens, or 0 (a promise when the store is on a server). */
  contextOf(sessionId: string): number | Promise<number> {
    return this.store.lastContext(this.projectKey, sessionId);
  }

  #refuseIfBusy(): void {
    if (this.#current !== null) {
      throw new FlowerError(
        'RUNTIME_BUSY',
        'This runtime is already running a step; run steps one after another.',
      );
    }
  }

  /** Dollars spent by this process's finished steps, rounded to 4 decimals. */
  totalCost(): number {
    return Math.round(this.#spent() * 10_000) / 10_000;
  }

  /**
   * Runs `spec` on `prompt` as one step and returns its result; a failure is a result with `ok: false`,
   * not a rejection. Rejects only with `RUNTIME_BUSY` when another step of this runtime is running, and
   * with `NOT_A_GIT_REPO` when the spec's workers want isolation outside a git work tree (nothing spent);
   * and with the store's error (`STORE_UNREADABLE`, `STORE_DRIVER`) when the `sessions.db` it made, opened
   * while Claude Code starts (docs/decisions.md D228), cannot be opened: the step is stopped, no row written.
   */
  async run(spec: AgentSpec, prompt: string, options: RunOptions = {}): Promise<StepResult> {
    this.#refuseIfBusy();
    if (this.#storeFailure !== null) throw this.#storeFailure;
    this.#prepareIsolation(spec);
    // Renewed (and so checked) right before the step: a lease lost meanwhile stops here, before any turn.
    // A server-backed lease answers through a promise; SQLite's at once, so nothing waits there.
    const renewed = this.#lease?.renew() ?? true;
    if (typeof renewed !== 'boolean') {
      const held = await renewed;
      // Another step may have started while the server answered.
      this.#refuseIfBusy();
      if (!held) throw this.#leaseLost();
    } else if (!renewed) throw this.#leaseLost();
    if (this.#full.error !== null) throw this.#full.error;
    this.#claimResume(options.resume ?? null);
    const wiring = this.#wiring();
    const step = startStep(spec, options, wiring);
    const untieAbort = tieAbort(step, options.signal);
    this.#current = step;
    if (!this.#sandboxChecked) {
      this.#sandboxChecked = true;
      const warning = unsandboxedWarning(this.#env, this.#sandbox, step.result.step);
      if (warning !== null) step.emit(warning);
    }
    try {
      await this.#rows.beforeStep(options.resume);
      await runLoop(
        step,
        loopStart(prompt, step, options, wiring),
        loopDeps(spec, step, wiring, this.#spent()),
      );
    } catch (error) {
      // runLoop never throws by design; if it does, the step still ends with a row, not a crash.
      step.record(errorOutcome(errorText(error)));
    } finally {
      untieAbort();
      step.interrupt = null;
      if (this.#current === step) {
        // A step the full run directory cut keeps its row unfinished, as a kill leaves it: the next process
        // completes it from every record, Claude Code's own transcript included, which may hold an answer
        // the store had no room for (docs/decisions.md D337, D351).
        if (this.#fullError() === null) step.result.endedAt = Date.now() / 1000;
        else step.record({ kind: 'killed' });
        this.#current = null;
        if (this.#storeFailure === null) this.results.push(step.result);
      }
      this.#persist(null);
    }
    // A step the full run directory cut, or whose last row found no space, did not finish: its gate must not
    // freeze what it produced (a brief, a goal) while its row says it is still running
    // (docs/decisions.md D351).
    if (this.#fullError() !== null && step.result.ok) step.record({ kind: 'killed' });
    // The store could not be opened: as when it was opened before the step, its error is the answer.
    const failure = this.#failedStore();
    if (failure !== null) throw failure;
    // The step that found the run directory full says so itself: it may be the run's last.
    const full = this.#fullError();
    if (full !== null) throw full;
    return step.result;
  }

  /**
   * `run()` with its events as an async iterable; `result` settles when the step ends (the iterable ends
   * then too). Events are buffered, so a slow reader never slows the step.
   */
  runStream(
    spec: AgentSpec,
    prompt: string,
    options: Omit<RunOptions, 'onEvent'> = {},
  ): { events: AsyncIterable<FlowerEvent>; result: Promise<StepResult> } {
    const stream = eventStream();
    const result = this.run(spec, prompt, { ...options, onEvent: stream.push }).finally(stream.end);
    return { events: stream.events, result };
  }

  /**
   * Asks the running step to stop at the next message boundary and resume the same session with
   * `message` (it may still be being typed: a promise) and {@link Runtime.INTERRUPT_NOTE}. An interrupt
   * is not an attempt. False when no step is running (a late interrupt never reaches the next step).
   */
  interrupt(message: string | PromiseLike<string> = ''): boolean {
    if (this.#current === null) return false;
    this.#current.interrupt = { message };
    return true;
  }

  /**
   * For signal handlers: records the in-flight step as `killed-by-signal`, writes the manifest and folds the
   * store's write-ahead log into `sessions.db` (decisions.md D31), synchronously. Never throws.
   */
  rescue(): void {
    try {
      const step = this.#current;
      if (step !== null) {
        this.#current = null;
        step.result.endedAt = Date.now() / 1000;
        // A failure already recorded (an attempt waiting for its retry) stays the reason; otherwise it was killed.
        const { kind } = step.result.outcome;
        if (kind === 'unfinished' || kind === 'ok') step.record({ kind: 'killed' });
        step.result.costUsd = step.ledger.usd;
        this.results.push(step.result);
        step.controller.abort();
      }
      this.#persist(null);
      // A server-backed lease finishes giving itself back in the background (its promise never rejects).
      void this.#lease?.release();
      this.#processes.leave();
    } catch {
      // A rescue runs while the process is dying; there is nobody left to tell.
    }
    try {
      // A store on a server has no log to fold; its answer (a promise) is not waited for while dying.
      void Promise.resolve(this.store.checkpoint()).catch(() => undefined);
    } catch {
      // Best effort: the WAL file still holds everything.
    }
  }

  /**
   * Closes the session store (after a checkpoint). Idempotent. A store on a server closes asynchronously,
   * after its pending writes: the promise then returned settles when it is closed, and never rejects (a
   * failure lands in {@link Runtime.uiErrors}).
   */
  close(): void | Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Never rejects; a command that must see the row gone awaits `lease.release()` itself.
    void this.#lease?.release();
    this.#processes.leave();
    // Records on a server: the rows still on their way are written before its connections are closed
    // (docs/decisions.md D437).
    const records =
      this.records.kind === 'file'
        ? null
        : this.#recordWrites
            .then(() => this.records.close())
            .catch((error: unknown) => {
              this.uiErrors.push(`records close: ${errorText(error)}`);
            });
    try {
      const closing = this.store.close();
      if (closing instanceof Promise || records !== null) {
        const stored = Promise.resolve(closing).catch((error: unknown) => {
          this.uiErrors.push(`store close: ${errorText(error)}`);
        });
        return Promise.all([stored, records]).then(() => undefined);
      }
    } catch (error) {
      this.uiErrors.push(`store close: ${errorText(error)}`);
      if (records !== null) return records;
    }
  }

  /**
   * Workers that want their own worktree need a git repository: refuse before anything is spent (the
   * Agent tool would fail only after the coordinator had paid for its turn), and keep the worktrees out
   * of the main checkout's status.
   */
  #prepareIsolation(spec: AgentSpec): void {
    if (isolatedRoles(spec.agents ?? {}).size === 0) return;
    // Only a yes is remembered: after a no, a caller may run `git init` and try the same runtime again.
    if (!this.#gitWorkTree && !isGitWorkTree(this.workspace)) {
      throw new FlowerError('NOT_A_GIT_REPO', uiText('err.isolate', { path: this.workspace }, this.#lang));
    }
    this.#gitWorkTree = true;
    excludeWorktrees(this.workspace);
  }

  /**
   * Before a step: ends what a dead flower left running on this run directory (its Claude Code children
   * and their tools, which would otherwise go on working unsupervised beside this process), then claims the
   * session to resume. Throws `SESSION_IN_USE` when a live process is resuming it now: two processes
   * continuing one session would interleave their turns.
   */
  #claimResume(sessionId: string | null): void {
    this.#processes.enter();
    if (sessionId === null) return;
    const claim = this.#processes.claimSession(sessionId);
    if (claim.kind === 'in-use') {
      const since = new Date(claim.holder.since * 1000).toISOString().slice(0, 19).replace('T', ' ');
      throw new FlowerError(
        'SESSION_IN_USE',
        uiText('err.sessionInUse', { id: sessionId, pid: claim.holder.pid, since }, this.#lang),
      );
    }
  }

  #spent(): number {
    return this.results.reduce((sum, result) => sum + result.costUsd, 0);
  }

  #attemptContext(): AttemptContext {
    return {
      workspace: this.workspace,
      runDir: this.runDir,
      portable: this.#portable,
      handoff: this.handoff.enabled,
      env: this.#env,
      resilience: this.resilience,
      workbench: this.workbench,
      spillThreshold: this.spillThreshold,
      sandbox: this.#sandbox,
      journal: journalOf(this.store),
      spillsWritten: spillsOf(this.store),
      onWriteFailed: (error) => this.#full.note(error),
    };
  }

  /** Writes this run's rows to the manifest again (a gate added flower's check record to a finished row). */
  saveManifest(): void {
    this.#persist(null);
  }

  /** The stop of a process whose lease another one took (or that could not renew it). */
  #leaseLost(): FlowerError {
    return new FlowerError('LEASE_LOST', leaseLostText(this.#lease?.lostTo ?? null));
  }

  /** What this runtime lends a run (step-wiring.ts). */
  #wiring(): RunWiring {
    return {
      runDir: this.runDir,
      env: this.#env,
      lang: this.#lang,
      backend: this.#backend,
      store: this.store,
      resilience: this.resilience,
      handoff: this.handoff,
      workbench: this.workbench,
      indexSent: this.#indexSent,
      processes: this.#processes,
      uiErrors: this.uiErrors,
      budgetUsd: this.budgetUsd,
      prices: this.prices,
      runId: this.runId,
      lease: this.#lease,
      attemptContext: () => this.#attemptContext(),
      onSession: () => this.onSession,
      onHandoff: () => this.onHandoff,
      persist: (step) => this.#persist(step),
      spawned: () => this.#spawned(),
    };
  }

  /**
   * Claude Code was just spawned: the store opens now, after the spawn call has returned, so the child starts
   * meanwhile. A store that cannot be opened stops the step before it writes anything.
   */
  #spawned(): void {
    const open = this.#openStore;
    if (open === null) return;
    this.#openStore = null;
    setImmediate(() => {
      open().catch((error: unknown) => {
        this.#storeFailure = error instanceof Error ? error : new Error(String(error));
        this.#current?.controller.abort(error);
      });
    });
  }

  /** Read through a call: the step's awaits may have set it since the check at the start of `run()`. */
  #failedStore(): Error | null {
    return this.#storeFailure;
  }

  /** Read through a call, as {@link Runtime.#failedStore}: the step's writes may have found no space since. */
  #fullError(): FlowerError | null {
    return this.#full.error;
  }

  #persist(inFlight: StepRun | null): void {
    // Nothing is recorded of a step whose store could not be opened: the run stops as if it never began.
    if (this.#storeFailure !== null) return;
    const rows =
      inFlight === null || this.#current !== inFlight ? this.results : [...this.results, inFlight.result];
    if (rows.length === 0) return;
    try {
      const written = writeRunRows(this.records, this.runId, rows);
      if (written instanceof Promise) {
        this.#recordWrites = this.#recordWrites.then(() =>
          written.then(
            () => undefined,
            (error: unknown) => this.#manifestFailed(error),
          ),
        );
      }
    } catch (error) {
      this.#manifestFailed(error);
    }
  }

  /**
   * A manifest write that failed is recorded; one that found no space also stops the run: the step in
   * flight is cut (its session stays resumable) and the next `run()` rejects, since every later turn would
   * cost money and record nothing (docs/decisions.md D341).
   */
  #manifestFailed(error: unknown): void {
    this.uiErrors.push(`manifest: ${errorText(error)}`);
    this.#full.note(error);
  }
}
