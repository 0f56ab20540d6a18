/**
 * The run's event log, `<runDir>/events.jsonl` (docs/continuity.md, docs/events.md): every event of a run,
 * appended as it happens, so another process can see what a run in progress is doing — `flower ask` in a
 * second terminal reads its tail and hands it to the oracle.
 *
 * Format (version 1): UTF-8, append-only, one JSON object per line, each written with a single
 * synchronous `appendFileSync` so a crash loses at most the line being written.
 *
 * - A process that opens the log appends a marker `{"log":"open","v":1,"pid":<pid>,"at":<epoch s>}`.
 * - Each event is the `FlowerEvent` as emitted, without `raw` (the SDK message: large, and never meant for a
 *   frontend), plus the writer's `"pid"`:
 *   `{"kind":"tool_call","text":"Bash npm test","at":1754380800.5,"step":"work",…,"pid":4242}`.
 *   An event whose line would pass {@link MAX_LINE_CHARS} keeps only its scalar fields, its `text` cut to
 *   {@link MAX_TEXT_CHARS} characters, and `"truncated":true` (a whole file pasted into a tool input must not
 *   make every reader of the tail read megabytes).
 * - Closing appends `{"log":"close","pid":<pid>,"at":<epoch s>}`.
 *
 * Several processes write one after another (each rerun of `flower run` in the same run directory). A run is
 * *in progress* while the last line came from a process that has not written its close marker and is still
 * alive (`process.kill(pid, 0)`). A killed run never closes its log, so only liveness can tell; a pid reused
 * by an unrelated process after a crash reads as in progress — a hint for a human, never a lock.
 *
 * Readers skip a torn last line (no newline yet) and any line that is not a JSON object of this format.
 *
 * @module
 */
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { EventSink, FlowerEvent } from '../events/flower-event.js';
import { errorMessage } from '../internal/error-text.js';
import { isRecord } from '../internal/is-record.js';

/** The event log's file name inside the run directory. */
export const EVENT_LOG_FILE = 'events.jsonl';

/** Lines longer than this are written in their truncated form. */
export const MAX_LINE_CHARS = 64 * 1024;

/** The `text` of a truncated event is cut to this many characters. */
export const MAX_TEXT_CHARS = 8_000;

/** The format version in the open marker. */
const FORMAT_VERSION = 1;

/** Recorded write errors are capped: a full disk would otherwise add one per event for the whole run. */
const MAX_ERRORS = 20;

/** The first tail read; doubled (×4) until enough lines are found or the whole file is read. */
const FIRST_CHUNK_BYTES = 64 * 1024;

/** An event as read back from the log: no `raw`, plus the writer's pid and the truncation mark. */
export type LoggedEvent = FlowerEvent & { pid?: number; truncated?: true };

/** What the log says about the last process that wrote to it. */
export interface EventLogStatus {
  /** The log file exists. */
  exists: boolean;
  /** The pid of the last line's writer, or null when no line names one. */
  pid: number | null;
  /** The last writer wrote its close marker. */
  closed: boolean;
  /** Epoch seconds of the last line, or null. */
  lastAt: number | null;
  /** The run is in progress: a writer that has not closed the log and is still alive. */
  live: boolean;
}

/** `<runDir>/events.jsonl`. */
export function eventLogPath(runDir: string): string {
  return join(runDir, EVENT_LOG_FILE);
}

/**
 * The line of `event` in the log's format (no newline): `raw` dropped, `pid` added, cut down when it would
 * be too long. `--json` writes the same lines to stdout, so the two cannot drift apart.
 */
export function eventLine(event: FlowerEvent, pid: number): string {
  const { raw: _raw, ...rest } = event;
  const line = JSON.stringify({ ...rest, pid });
  if (line.length <= MAX_LINE_CHARS) return line;
  const scalars: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value === null || typeof value !== 'object') scalars[key] = value;
  }
  scalars['text'] = event.text.slice(0, MAX_TEXT_CHARS);
  return JSON.stringify({ ...scalars, pid, truncated: true });
}

/**
 * Appends a run's events to `<runDir>/events.jsonl`. Writing never throws: a failure is recorded in
 * {@link EventLog.errors} and the run goes on (the log is for onlookers; the run must not depend on it).
 */
export class EventLog {
  /** The log file. */
  readonly path: string;
  /** Write failures, the first {@link MAX_ERRORS} of them. */
  readonly errors: string[] = [];
  /** Appends one event (ignored after {@link EventLog.close}). Never throws. */
  readonly sink: EventSink;

  readonly #pid: number;
  #closed = false;

  /** Opens the log (creating the run directory when needed) and appends the open marker. */
  constructor(runDir: string, options: { pid?: number } = {}) {
    this.path = eventLogPath(runDir);
    this.#pid = options.pid ?? process.pid;
    try {
      mkdirSync(runDir, { recursive: true });
    } catch (error) {
      this.#record(error);
    }
    this.#append(() =>
      JSON.stringify({ log: 'open', v: FORMAT_VERSION, pid: this.#pid, at: Date.now() / 1000 }),
    );
    this.sink = (event: FlowerEvent): void => {
      // Stream progress is for the screen: a line a second over hours would bury the tail readers want.
      if (event.kind === 'stream') return;
      if (!this.#closed) this.#append(() => eventLine(event, this.#pid));
    };
  }

  /** Appends the close marker: the run is no longer in progress. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#append(() => JSON.stringify({ log: 'close', pid: this.#pid, at: Date.now() / 1000 }));
    this.#closed = true;
  }

  #append(line: () => string): void {
    try {
      appendFileSync(this.path, `${line()}\n`, 'utf8');
    } catch (error) {
      this.#record(error);
    }
  }

  #record(error: unknown): void {
    if (this.errors.length < MAX_ERRORS) this.errors.push(`event log: ${errorMessage(error)}`);
  }
}

/** One parsed line: an event, or a marker. */
type LogLine = { event: LoggedEvent } | { marker: 'open' | 'close'; pid: number | null; at: number | null };

function parseLine(line: string): LogLine | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const log = value['log'];
  if (log === 'open' || log === 'close') {
    const pid = value['pid'];
    const at = value['at'];
    return {
      marker: log,
      pid: typeof pid === 'number' ? pid : null,
      at: typeof at === 'number' ? at : null,
    };
  }
  if (typeof value['kind'] !== 'string' || typeof value['text'] !== 'string') return null;
  if (typeof value['at'] !== 'number') return null;
  if (value['step'] !== null && typeof value['step'] !== 'string') return null;
  return { event: value as unknown as LoggedEvent };
}

/**
 * Reads whole lines from the end of `path`: the last chunk first, grown until `enough` says so or the file
 * is read from its start. The first line of a chunk that starts mid-file and a torn last line are skipped.
 * Null when the file cannot be opened.
 */
function tailLines(path: string, enough: (lines: readonly LogLine[]) => boolean): LogLine[] | null {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(descriptor).size;
    for (let chunk = FIRST_CHUNK_BYTES; ; chunk *= 4) {
      const start = Math.max(0, size - chunk);
      const buffer = Buffer.alloc(size - start);
      let filled = 0;
      while (filled < buffer.length) {
        const read = readSync(descriptor, buffer, filled, buffer.length - filled, start + filled);
        if (read === 0) break;
        filled += read;
      }
      // A newline byte never occurs inside a UTF-8 sequence, so splitting decoded text is safe; a chunk that
      // starts mid-character spoils only its first segment, which is dropped anyway.
      const segments = buffer.subarray(0, filled).toString('utf8').split('\n');
      segments.pop(); // after the last newline: '' or a line still being written
      if (start > 0) segments.shift(); // may begin mid-line
      const lines = segments.map(parseLine).filter((line): line is LogLine => line !== null);
      if (start === 0 || enough(lines)) return lines;
    }
  } catch {
    return null;
  } finally {
    closeSync(descriptor);
  }
}

/** Options of {@link readRecentEvents}. */
export interface ReadRecentOptions {
  /** How many events to return at most (the most recent ones); default 60. */
  limit?: number;
  /** Only events this accepts are returned and counted (e.g. skip `thinking`). */
  accept?: (event: LoggedEvent) => boolean;
}

/**
 * The most recent events in `<runDir>/events.jsonl`, oldest first; empty when there is no log. Reads only
 * as much of the file's end as it needs, so a log of a long run costs no more than a short one.
 */
export function readRecentEvents(runDir: string, options: ReadRecentOptions = {}): LoggedEvent[] {
  const limit = options.limit ?? 60;
  const accept = options.accept ?? (() => true);
  if (limit <= 0) return [];
  const eventsOf = (lines: readonly LogLine[]): LoggedEvent[] =>
    lines.flatMap((line) => ('event' in line && accept(line.event) ? [line.event] : []));
  const lines = tailLines(eventLogPath(runDir), (found) => eventsOf(found).length >= limit) ?? [];
  return eventsOf(lines).slice(-limit);
}

/** Whether a process with this pid exists (one owned by another user counts). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What `<runDir>/events.jsonl` says about its last writer, and whether its run is in progress. */
export function eventLogStatus(runDir: string): EventLogStatus {
  const lines = tailLines(eventLogPath(runDir), (found) => found.length > 0);
  if (lines === null) return { exists: false, pid: null, closed: false, lastAt: null, live: false };
  const last = lines.at(-1);
  if (last === undefined) return { exists: true, pid: null, closed: false, lastAt: null, live: false };
  const pid = 'event' in last ? (typeof last.event.pid === 'number' ? last.event.pid : null) : last.pid;
  const lastAt = 'event' in last ? last.event.at : last.at;
  const closed = 'marker' in last && last.marker === 'close';
  return { exists: true, pid, closed, lastAt, live: !closed && pid !== null && processAlive(pid) };
}
