/**
 * Reading the run's event log `<runDir>/events.jsonl` from a position, for the dashboard's Server-Sent Events
 * (docs/dashboard.md). The log is append-only, so a byte offset names a place in it for good: each line's
 * event id is the offset just past its newline — where the next read starts. A browser that reconnects
 * sends the last id it saw (`Last-Event-ID`) and the stream goes on from exactly there: nothing sent twice,
 * nothing skipped. Only complete lines are sent; a line still being written waits for its newline.
 *
 * Reads go in bounded chunks, so following a log of any size costs the same memory.
 *
 * @module
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** The most bytes one read takes from the log. A longer line is read across several chunks. */
export const CHUNK_BYTES = 256 * 1024;

/** One complete line of the log and its event id. */
export interface FeedLine {
  /** The byte offset just past the line's newline: the line's SSE id and where reading resumes. */
  id: number;
  /** The line without its newline. */
  text: string;
}

/** What one read found. */
export interface FeedRead {
  lines: FeedLine[];
  /** Where the next read starts: past the last complete line found, or `from` when there was none. */
  next: number;
}

/** The log's size in bytes; 0 when it does not exist yet. */
export function logSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * The complete lines of the file at `path` that start at `from` and end within `from + maxBytes` (more when
 * one line is longer: it is always returned whole). Empty lines are skipped but counted in the offsets.
 */
export function readLinesFrom(path: string, from: number, maxBytes = CHUNK_BYTES): FeedRead {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { lines: [], next: from };
  }
  try {
    const parts: Buffer[] = [];
    let position = from;
    for (;;) {
      const buffer = Buffer.alloc(maxBytes);
      const read = readSync(fd, buffer, 0, maxBytes, position);
      if (read === 0) return { lines: [], next: from };
      const chunk = buffer.subarray(0, read);
      const end = chunk.lastIndexOf(0x0a);
      if (end >= 0) {
        parts.push(chunk.subarray(0, end + 1));
        return split(Buffer.concat(parts), from);
      }
      // No newline in a whole chunk: one long line; keep reading until it ends (or the file does).
      parts.push(chunk);
      position += read;
    }
  } finally {
    closeSync(fd);
  }
}

function split(bytes: Buffer, from: number): FeedRead {
  const lines: FeedLine[] = [];
  let start = 0;
  for (;;) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline < 0) break;
    if (newline > start) {
      lines.push({ id: from + newline + 1, text: bytes.subarray(start, newline).toString('utf8') });
    }
    start = newline + 1;
  }
  return { lines, next: from + start };
}

/**
 * Where a stream that was told `lastEventId` resumes: the offset it names when that is the start of a line of
 * the log as it is now (0, or just past a newline), else 0 — an id from another log (the run was started
 * anew and its log archived) or no id at all means the browser starts over.
 */
export function resumeOffset(path: string, lastEventId: string | undefined): number {
  if (lastEventId === undefined || !/^\d{1,15}$/.test(lastEventId.trim())) return 0;
  const offset = Number(lastEventId.trim());
  if (offset === 0 || offset > logSize(path)) return 0;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 0;
  }
  try {
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, offset - 1);
    return byte[0] === 0x0a ? offset : 0;
  } finally {
    closeSync(fd);
  }
}
