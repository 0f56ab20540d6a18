/**
 * `Lineage`: which session each step of a run last used, in `<runDir>/lineage.json` (docs/continuity.md,
 * decisions.md D5, D9, D23). It is what lets a second `flower` in the same workspace resume instead of
 * starting over, so it is written the moment a session id is known, merged under a lock (parallel processes
 * each change only their own key), and survives a workspace that moved together with its run directory.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectKey as projectKeyOf } from '../agent/project-key.js';
import { uiText, type CatalogKey, type Lang } from '../config/ui-text.js';
import type { WarningCode } from '../events/flower-event.js';
import { errorMessage } from '../internal/error-text.js';
import { isRecord } from '../internal/is-record.js';
import { LockedJsonFile, moveAside, type JsonFileState } from '../internal/locked-json-file.js';
import { claimArchiveFolder, moveIntoFolder } from './archive-folder.js';
import {
  copyRecord,
  readRecord,
  usableStep,
  writeRecord,
  type HandoffHash,
  type LineageRecord,
} from './lineage-record.js';
import type { LineageNotice, LineageOpenOptions } from './lineage-open-options.js';
import {
  fresh,
  locate,
  matchRecord,
  rekeyOf,
  relocated,
  runRekey,
  type Here,
  type Match,
  type ProjectRekey,
} from './lineage-workspace.js';
import { newRunId } from './run-id.js';
import type { RecordsUpdate, RunRecords } from './run-records.js';

export type { HandoffHash } from './lineage-record.js';

/** The lineage file's name inside the run directory. */
export const LINEAGE_FILE = 'lineage.json';

interface Settings {
  readonly: boolean;
  document?: Record<string, unknown> | null;
  /** The run's records on a server (PostgreSQL), or null for `lineage.json`. */
  records?: RunRecords | null;
  runId: string;
  lang: Lang;
  rekeyStore: ((from: string, to: string) => unknown) | null;
}

type Notice = [WarningCode, CatalogKey, Record<string, string>];

/** The step → session mapping of one workspace in one run directory. */
export class Lineage {
  /** `<runDir>/lineage.json`. */
  readonly path: string;
  /** The workspace, resolved (its real path when it exists). */
  readonly workspace: string;
  /** The SDK project key of {@link Lineage.workspace}: the store key its sessions are resumed under. */
  readonly projectKey: string;
  /** What `open` found worth saying: `lineage_moved`, `lineage_reset` or `lineage_quarantined`. */
  readonly notices: LineageNotice[] = [];
  /** Set when the workspace moved and its key changed: move the stored sessions with `store.rekey`. */
  readonly rekey: ProjectRekey | null;
  /** Step name → session id (base step names only). Mutable; only the methods write to disk. */
  steps: Record<string, string>;
  /** How many times this lineage was woken. Mutable; only the methods write to disk. */
  woke: number;

  readonly #here: Here;
  readonly #file: LockedJsonFile;
  readonly #readonly: boolean;
  readonly #runId: string;
  readonly #lang: Lang;
  /** The run's records on a server, or null: the lineage is `lineage.json`. */
  readonly #records: RunRecords | null;
  /** The tail of the writes to a server: each starts after the last (see {@link Lineage.settled}). */
  #pending: Promise<void> = Promise.resolve();
  #record: LineageRecord;

  private constructor(
    path: string,
    here: Here,
    record: LineageRecord,
    options: Settings & { rekey: ProjectRekey | null },
  ) {
    this.path = path;
    this.workspace = here.workspace;
    this.projectKey = here.projectKey;
    this.rekey = options.rekey;
    this.#here = here;
    this.#file = lineageFile(path);
    this.#readonly = options.readonly;
    this.#runId = options.runId;
    this.#lang = options.lang;
    this.#records = options.records ?? null;
    this.#record = record;
    this.steps = { ...record.steps };
    this.woke = record.woke;
  }

  /** The lineage's identity (`lineage_id`), kept across moves; a new one after {@link Lineage.archive}. */
  get id(): string {
    return this.#record.lineageId ?? '';
  }

  /**
   * The lineage of `workspace` in `runDir`. Never throws: a missing, unreadable or foreign file gives an
   * empty lineage. The file is used when its `workspace` is this one; otherwise, when its `workspace_rel`
   * still leads from the run directory to this workspace, both moved together: the steps are kept, the file
   * is rewritten with the new paths and {@link Lineage.rekey} says how to move the stored sessions
   * (`lineage_moved`). A file of another workspace is left alone (`lineage_reset`); an unreadable one is
   * renamed to `lineage.json.corrupt-<runId>` (`lineage_quarantined`). Relative paths resolve against the cwd.
   */
  static open(runDir: string, workspace: string, options: LineageOpenOptions = {}): Lineage {
    return Lineage.#open(runDir, workspace, options, null);
  }

  static #open(
    runDir: string,
    workspace: string,
    options: LineageOpenOptions,
    records: RunRecords | null,
  ): Lineage {
    const settings: Settings = {
      readonly: options.readonly ?? false,
      runId: options.runId ?? newRunId(),
      lang: options.lang ?? 'en',
      rekeyStore: options.rekeyStore ?? null,
      // A given document is only ever read from; the writes go to the records it came from, if any.
      ...(options.document === undefined
        ? {}
        : {
            document: options.document,
            readonly: records === null ? true : (options.readonly ?? false),
          }),
      records,
    };
    const path = join(resolve(runDir), LINEAGE_FILE);
    let here: Here | null = null;
    try {
      here = locate(runDir, workspace);
      return Lineage.#load(path, here, settings);
    } catch {
      here ??= {
        workspace: resolve(workspace),
        workspaceRel: '',
        projectKey: projectKeyOf(resolve(workspace)),
      };
      return new Lineage(path, here, fresh(here), { ...settings, rekey: null });
    }
  }

  /**
   * The lineage of `workspace` kept in the run's `records`: {@link Lineage.open} on `lineage.json` for the
   * files; for a server (PostgreSQL), the same matching on the stored document, every change written there
   * in order (await {@link Lineage.settled} before the process ends). Never rejects.
   */
  static async openRecords(
    records: RunRecords,
    runDir: string,
    workspace: string,
    options: LineageOpenOptions = {},
  ): Promise<Lineage> {
    if (records.kind === 'file') return Lineage.open(runDir, workspace, options);
    let state: JsonFileState;
    try {
      state = await records.readLineage();
    } catch (error) {
      state = { kind: 'unreadable', reason: errorMessage(error) };
    }
    const document = state.kind === 'parsed' && isRecord(state.value) ? state.value : null;
    const lineage = Lineage.#open(runDir, workspace, { ...options, document }, records);
    await lineage.settled();
    return lineage;
  }

  /** Resolves when every change so far reached the server (at once for `lineage.json`). Never rejects. */
  async settled(): Promise<void> {
    await this.#pending;
  }

  static #load(path: string, here: Here, settings: Settings): Lineage {
    const file = lineageFile(path);
    const records = settings.records ?? null;
    const notices: Notice[] = [];
    let deferred: Promise<RecordsUpdate<Record<string, unknown>>> | null = null;
    const state: JsonFileState =
      settings.document === undefined
        ? file.read()
        : settings.document === null
          ? { kind: 'missing' }
          : { kind: 'parsed', value: settings.document };
    // A run named on a server is its name, whatever path another host saw the workspace at.
    const anyPath = records?.named === true;
    let match: Match =
      state.kind === 'parsed' ? matchRecord(state.value, here, anyPath) : { kind: 'missing' };
    let rekey = rekeyOf(match, here);
    let written: LineageRecord | null = null;
    if (!settings.readonly && (state.kind === 'unreadable' || match.kind === 'moved' || rekey !== null)) {
      // Quarantine, re-key and rewrite happen under the lock, on a fresh read.
      try {
        const rewrite = (current: unknown): Record<string, unknown> | undefined => {
          match = current === undefined ? { kind: 'missing' } : matchRecord(current, here, anyPath);
          rekey = rekeyOf(match, here);
          if (match.kind !== 'same' && match.kind !== 'moved') return undefined;
          const record = relocated(match.record, here);
          // The file names the key the sessions are stored under: the new one only once they were moved.
          if (rekey === null || runRekey(settings.rekeyStore, rekey)) record.projectKey = here.projectKey;
          return writeRecord(record);
        };
        const update =
          records === null
            ? file.update(settings.runId, rewrite)
            : records.updateLineage(settings.runId, rewrite);
        // A server's answer comes later: the lineage adopts what it wrote once it is there.
        const outcome = update instanceof Promise ? ((deferred = update), null) : update;
        if (outcome !== null && outcome.written !== undefined) written = readRecord(outcome.written);
        if (outcome !== null && outcome.quarantined !== null) {
          notices.push([
            'lineage_quarantined',
            'lineage.quarantined',
            { path, reason: outcome.quarantined.reason, kept: outcome.quarantined.path },
          ]);
        }
      } catch {
        // A read-only or full disk: keep what the unlocked read found; the next open tries again.
      }
    } else if (state.kind === 'unreadable') {
      notices.push(['lineage_quarantined', 'lineage.unreadable', { path, reason: state.reason }]);
    }
    const found: Match = match;
    if (found.kind === 'moved') {
      notices.push([
        'lineage_moved',
        'lineage.moved',
        {
          from: found.record.workspace,
          to: here.workspace,
          fromKey: rekey?.from ?? here.projectKey,
          toKey: here.projectKey,
        },
      ]);
    } else if (found.kind === 'foreign') {
      notices.push(['lineage_reset', 'lineage.reset', { path, other: found.other }]);
    }
    const record =
      written ??
      (found.kind === 'same' || found.kind === 'moved' ? relocated(found.record, here) : fresh(here));
    const lineage = new Lineage(path, here, record, { ...settings, rekey });
    for (const [code, key, vars] of notices) {
      lineage.notices.push({ code, text: uiText(key, vars, settings.lang) });
    }
    if (deferred !== null) lineage.#track(deferred);
    return lineage;
  }

  /** Records that `step` runs in session `sessionId`, on disk at once. No-op if either is empty. */
  remember(step: string, sessionId: string): void {
    if (!usableStep(step) || sessionId === '') return;
    this.#change((record) => {
      record.steps[step] = sessionId;
    });
  }

  /** Counts one more wake (`woke = on disk + 1`), on disk at once; returns the new count (1 the first time). */
  bump(): number {
    this.#change((record) => {
      record.woke += 1;
    });
    return this.woke;
  }

  /** The request this lineage's clarification started from (decisions.md D332), or `null`. */
  get request(): string | null {
    return this.#record.request;
  }

  /** Records the request the clarification starts from, on disk at once. No-op when empty. */
  recordRequest(request: string): void {
    const text = request.trim();
    if (text === '' || text === this.#record.request) return;
    this.#change((record) => {
      record.request = text;
    });
  }

  /** Records the hash of the handoff document just written for `step` (decisions.md D23). */
  recordHandoff(step: string, path: string, sha256: string): void {
    if (!usableStep(step) || path === '' || sha256 === '') return;
    this.#change((record) => {
      record.handoffs[step] = { path, sha256 };
    });
  }

  /** The recorded handoff document of `step`, or `null`. */
  handoffHash(step: string): HandoffHash | null {
    const hash = Object.hasOwn(this.#record.handoffs, step) ? this.#record.handoffs[step] : undefined;
    return hash === undefined ? null : { ...hash };
  }

  /**
   * Starts over (`--new`): moves — never deletes — the lineage file and each existing `extra` file into
   * `<into>/<YYYYmmdd-HHMMSS>/` (`-2`, `-3`… when taken) and empties this lineage. Returns that folder.
   *
   * @throws the file-system error when a file cannot be moved (files already moved stay in the folder).
   */
  archive(into: string, options: { extra?: string[] } = {}): string {
    const target = claimArchiveFolder(into);
    const records = this.#records;
    if (records === null) {
      this.#file.withLock(() => {
        for (const file of [this.path, ...(options.extra ?? [])]) moveIntoFolder(file, target);
      });
    } else {
      for (const file of options.extra ?? []) moveIntoFolder(file, target);
      // The server's document is copied into the folder as `lineage.json` and replaced by a new lineage in
      // the same transaction: what was archived is exactly what was there.
      const next = writeRecord(fresh(this.#here));
      this.#track(
        records.updateLineage(this.#runId, (current) => {
          if (current !== undefined) {
            writeFileSync(join(target, LINEAGE_FILE), `${JSON.stringify(current, null, 2)}\n`, {
              flag: 'wx',
            });
          }
          return next;
        }),
      );
      this.#adopt(readRecord(next));
      return target;
    }
    this.#record = fresh(this.#here);
    this.steps = {};
    this.woke = 0;
    return target;
  }

  // Re-read under the lock and change only the touched key: a parallel process's keys survive.
  #change(apply: (record: LineageRecord) => void): void {
    const before = this.#record;
    const local = copyRecord(before);
    apply(local);
    this.#adopt(local);
    if (this.#readonly) return;
    try {
      const change = (current: unknown): Record<string, unknown> => {
        const base = this.#baseFor(current, before);
        apply(base);
        return writeRecord(base);
      };
      if (this.#records !== null) {
        this.#track(this.#records.updateLineage(this.#runId, change));
        return;
      }
      const outcome = this.#file.update(this.#runId, change);
      if (outcome.written !== undefined) this.#adopt(readRecord(outcome.written));
      if (outcome.quarantined !== null) {
        const { path: kept, reason } = outcome.quarantined;
        this.notices.push({
          code: 'lineage_quarantined',
          text: uiText('lineage.quarantined', { path: this.path, reason, kept }, this.#lang),
        });
      }
    } catch {
      // Losing one record must not stop the run (docs/continuity.md); the in-memory state is still current.
    }
  }

  /** What to merge into: the file's lineage when it is this one, else this instance's state before the change. */
  #baseFor(current: unknown, before: LineageRecord): LineageRecord {
    if (isRecord(current)) {
      const disk = readRecord(current);
      const same =
        (disk.lineageId !== null && disk.lineageId === before.lineageId) ||
        disk.workspace === this.#here.workspace;
      if (same) return relocated(disk, this.#here);
      // Someone else's lineage on a server (another workspace under the same run name): never overwritten.
      if (this.#records !== null) {
        throw new Error(`the lineage of ${this.#records.location} belongs to another workspace`);
      }
      // Someone else's lineage: set it aside instead of overwriting it.
      moveAside(this.path, `replaced-${this.#runId}`);
    }
    return relocated(copyRecord(before), this.#here);
  }

  /**
   * Chains a write to the server: what it wrote is adopted once it is there; a failure is lost like a failed
   * file write (the in-memory state stays current, docs/continuity.md).
   */
  #track(
    update: RecordsUpdate<Record<string, unknown>> | Promise<RecordsUpdate<Record<string, unknown>>>,
  ): void {
    this.#pending = this.#pending.then(async () => {
      try {
        const outcome = await update;
        if (outcome.written !== undefined) this.#adopt(readRecord(outcome.written));
      } catch {
        // Losing one record must not stop the run; the next change writes the whole lineage again.
      }
    });
  }

  #adopt(record: LineageRecord): void {
    this.#record = record;
    this.steps = { ...record.steps };
    this.woke = record.woke;
  }
}

function lineageFile(path: string): LockedJsonFile {
  return new LockedJsonFile(path, { accepts: isRecord });
}
