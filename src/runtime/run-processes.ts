/**
 * Which flower processes use a run directory, and what they started: `<run dir>/processes.json`. One record
 * per flower process — pid, the process's start time (so a reused pid is not mistaken for it), host, when
 * it began and last said it was alive, the token its Claude Code children carry in their environment, the
 * sessions it has claimed, whether it drives the `go` workflow, and the children it started.
 *
 * The file answers three questions a `kill -9` leaves open: is the `go` run of this directory still being
 * driven by someone (a second `flower` then only watches), is a session being resumed by another process
 * right now (two processes must never continue one session at once), and did a dead flower leave Claude
 * Code children or their tools behind (a rerun ends them before it resumes). Written under the same lock
 * and atomic rename as the manifest, so `once`, `run` and `go` processes may share the directory.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { OWNER_TOKEN_VARIABLE } from '../agent/tied-spawn.js';
import { LockedJsonFile } from '../internal/locked-json-file.js';

/** The file, in the run directory. */
export const PROCESSES_FILE = 'processes.json';

/**
 * A record from another host cannot be checked against that host's process table, so it counts as live
 * while its heartbeat is this fresh; the holder refreshes it every {@link HEARTBEAT_S} seconds.
 */
export const FOREIGN_STALE_S = 90;
/** How often a live process refreshes its record's `beat`. */
export const HEARTBEAT_S = 30;

/** A process flower started, by pid and start time (clock ticks since boot, from `/proc/<pid>/stat`). */
export interface ProcessIdentity {
  pid: number;
  /** `null` where the system has no `/proc` (then only the pid is checked). */
  started: string | null;
}

/** One flower process's record in `processes.json`. */
export interface ProcessRecord extends ProcessIdentity {
  host: string;
  /** Epoch seconds the process first wrote its record. */
  since: number;
  /** Epoch seconds of its last heartbeat. */
  beat: number;
  /** The value of {@link OWNER_TOKEN_VARIABLE} in the environment of every child it started. */
  token: string;
  /** True while the process drives this directory's `go` workflow. */
  go: boolean;
  /** Sessions the process resumed or started. */
  sessions: string[];
  /** Claude Code children running now. */
  children: ProcessIdentity[];
}

/** This process's token: every Claude Code child it starts (and every tool of those) carries it. */
export const OWN_TOKEN = randomBytes(8).toString('hex');

/** The start time of `pid` from `/proc/<pid>/stat` (field 22), or null when unreadable. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** True while the process `identity` names is running (same pid, and the same start time where known). */
export function isRunning(identity: ProcessIdentity): boolean {
  if (identity.started !== null && processStartTime(identity.pid) !== null) {
    return processStartTime(identity.pid) === identity.started;
  }
  try {
    process.kill(identity.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True while `record`'s process can be taken to be alive: see {@link FOREIGN_STALE_S} for other hosts. */
export function isLive(record: ProcessRecord, now = Date.now() / 1000): boolean {
  if (record.host !== hostname()) return now - record.beat < FOREIGN_STALE_S;
  return isRunning(record);
}

/**
 * Kills (SIGKILL) every process whose environment carries `token` — a dead flower's Claude Code children
 * and the tools they started, which run in sessions of their own and so escape any process-group kill —
 * and the listed children still running under the same start time. Repeats while it finds any (a dying
 * shell may have forked), at most three times. Returns how many processes it signalled.
 */
export function endProcessesOf(token: string, children: readonly ProcessIdentity[] = []): number {
  let ended = 0;
  for (const child of children) {
    if (child.started !== null && isRunning(child) && signal(child.pid)) ended++;
  }
  for (let pass = 0; pass < 3; pass++) {
    const found = processesCarrying(token);
    if (found.length === 0) break;
    for (const pid of found) if (signal(pid)) ended++;
  }
  return ended;
}

function processesCarrying(token: string): number[] {
  const wanted = `${OWNER_TOKEN_VARIABLE}=${token}`;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(wanted))
        found.push(Number(entry));
    } catch {
      // Gone meanwhile, or another user's process: not ours either way.
    }
  }
  return found;
}

function signal(pid: number): boolean {
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

/** What {@link RunProcesses.claimSession} found: nothing in the way, or the live process holding it. */
export type SessionClaim = { kind: 'claimed' } | { kind: 'in-use'; holder: ProcessRecord };

/** This process's record in one run directory's `processes.json`. */
export class RunProcesses {
  readonly #file: LockedJsonFile;
  readonly #tag: string;
  readonly #self: ProcessIdentity = { pid: process.pid, started: processStartTime(process.pid) };
  readonly #leased: boolean;
  #heartbeat: NodeJS.Timeout | null = null;
  /** Children that ended and are still in the record on disk (see {@link RunProcesses.removeChild}). */
  readonly #ended = new Set<number>();

  /**
   * @param tag names a quarantine copy of an unreadable file (the caller's run id).
   * @param options.leased true when the run's lease decides who drives it (`go`, `run`): then a record of
   *   another host — a run directory shared on a volume — never stands in the way of this process's claims,
   *   since a live driver there would hold the lease, and a dead one's record counts as live for
   *   {@link FOREIGN_STALE_S}, longer than a lease goes stale (docs/decisions.md D464).
   */
  constructor(runDir: string, tag: string, options: { leased?: boolean } = {}) {
    this.#file = new LockedJsonFile(join(runDir, PROCESSES_FILE), { accepts: Array.isArray });
    this.#tag = tag;
    this.#leased = options.leased === true;
  }

  /** The records on disk, read without a lock. */
  records(): ProcessRecord[] {
    const state = this.#file.read();
    return state.kind === 'parsed' ? (state.value as unknown[]).filter(isProcessRecord) : [];
  }

  /** A live process other than this one that drives the `go` workflow here, or null. */
  goHolder(): ProcessRecord | null {
    return this.records().find((record) => record.go && this.#blocks(record)) ?? null;
  }

  /**
   * Enters the directory: ends what dead processes left running (their children and tools), drops their
   * records and writes this process's. With `go`, claims the `go` workflow unless a live process holds
   * it, which is then returned (and nothing is claimed). Idempotent.
   */
  enter(options: { go?: boolean } = {}): ProcessRecord | null {
    let holder: ProcessRecord | null = null;
    const reaped: ProcessRecord[] = [];
    this.#change((records) => {
      const kept = records.filter((record) => {
        if (this.#isSelf(record) || isLive(record)) return true;
        reaped.push(record);
        return false;
      });
      if (options.go === true) {
        holder = kept.find((record) => record.go && this.#blocks(record)) ?? null;
        if (holder !== null) return kept;
      }
      const own = this.#own(kept);
      if (options.go === true) own.go = true;
      return kept;
    });
    // Outside the lock: a sweep reads all of /proc, and the dead processes' records are already gone.
    for (const record of reaped) endProcessesOf(record.token, record.children);
    if (holder === null) this.#startHeartbeat();
    return holder;
  }

  /**
   * Claims `sessionId` for this process, unless a live other process has claimed it: that one is returned
   * and nothing changes. Check and claim happen under one lock, so two processes cannot both win.
   */
  claimSession(sessionId: string): SessionClaim {
    let holder: ProcessRecord | null = null;
    this.#change((records) => {
      holder = records.find((record) => record.sessions.includes(sessionId) && this.#blocks(record)) ?? null;
      if (holder !== null) return undefined;
      const own = this.#own(records);
      if (!own.sessions.includes(sessionId)) own.sessions.push(sessionId);
      return records;
    });
    return holder === null ? { kind: 'claimed' } : { kind: 'in-use', holder };
  }

  /** The sessions live flower processes other than this one have claimed (read without a lock). */
  liveSessions(): Set<string> {
    return new Set(
      this.records()
        .filter((record) => !this.#isSelf(record) && isLive(record))
        .flatMap((record) => record.sessions),
    );
  }

  /** Records a Claude Code child this process started. */
  addChild(pid: number): void {
    const child = { pid, started: processStartTime(pid) };
    // A reused pid is a new child, not the ended one still waiting to be dropped.
    this.#ended.delete(pid);
    this.#change((records) => {
      this.#own(records).children.push(child);
      return records;
    });
  }

  /**
   * Forgets a child that ended. Not written at once: the entry of an ended child is harmless, since whoever
   * acts on it first checks that its pid still runs with the same start time, so its removal rides on this
   * process's next write of the file — at the latest `leave()` — instead of costing a durable write of its
   * own while a step ends (docs/decisions.md D232).
   */
  removeChild(pid: number): void {
    this.#ended.add(pid);
  }

  /** Removes this process's record (normal exit or a signal): nothing of it is left to end or to wait for. */
  leave(): void {
    this.#stopHeartbeat();
    this.#change((records) => {
      const rest = records.filter((record) => !this.#isSelf(record));
      return rest.length === records.length ? undefined : rest;
    });
  }

  #startHeartbeat(): void {
    if (this.#heartbeat !== null) return;
    this.#heartbeat = setInterval(() => {
      // Only a record that is still there is refreshed: one removed by leave() (perhaps through another
      // instance for the same directory) must not come back.
      this.#change((records) => {
        const own = records.find((record) => this.#isSelf(record));
        if (own === undefined) return undefined;
        own.beat = Math.floor(Date.now() / 1000);
        return records;
      });
    }, HEARTBEAT_S * 1000);
    // The heartbeat must never keep a finished flower alive.
    this.#heartbeat.unref();
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  /** True when `record` is a live other process whose claims this one must respect (see `leased`). */
  #blocks(record: ProcessRecord): boolean {
    if (this.#isSelf(record) || !isLive(record)) return false;
    return !this.#leased || record.host === hostname();
  }

  #isSelf(record: ProcessRecord): boolean {
    return (
      record.host === hostname() && record.pid === this.#self.pid && record.started === this.#self.started
    );
  }

  /** This process's record in `records`, added when missing. */
  #own(records: ProcessRecord[]): ProcessRecord {
    const found = records.find((record) => this.#isSelf(record));
    if (found !== undefined) return found;
    const now = Math.floor(Date.now() / 1000);
    const record: ProcessRecord = {
      ...this.#self,
      host: hostname(),
      since: now,
      beat: now,
      token: OWN_TOKEN,
      go: false,
      sessions: [],
      children: [],
    };
    records.push(record);
    return record;
  }

  #change(change: (records: ProcessRecord[]) => ProcessRecord[] | undefined): void {
    try {
      let written = false;
      this.#file.update(this.#tag, (current) => {
        const changed = change(Array.isArray(current) ? (current as unknown[]).filter(isProcessRecord) : []);
        const own = changed?.find((record) => this.#isSelf(record));
        if (own !== undefined) own.children = own.children.filter((child) => !this.#ended.has(child.pid));
        written = changed !== undefined;
        return changed;
      });
      if (written) this.#ended.clear();
    } catch {
      // A read-only or full disk: the run goes on without the record (it protects, it does not gate).
    }
  }
}

function isProcessRecord(value: unknown): value is ProcessRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<ProcessRecord>;
  return (
    typeof record.pid === 'number' &&
    typeof record.host === 'string' &&
    typeof record.token === 'string' &&
    typeof record.beat === 'number' &&
    Array.isArray(record.sessions) &&
    Array.isArray(record.children)
  );
}
