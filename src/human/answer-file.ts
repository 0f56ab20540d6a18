/**
 * Answers typed in another process (docs/human-channel.md, docs/dashboard.md): `<runDir>/answers.jsonl`, an
 * append-only file the dashboard writes one line to per answer, and the running `go`/`run` process tails and
 * hands to its {@link HumanChannel} — the same `channel.answer(id, text)` call the live input line makes for a
 * typed answer, so an answer from the browser is logged, amended and shown exactly like one from the keyboard.
 *
 * A file, not a socket: the run and the dashboard are separate processes that may start and stop in any
 * order, and a file needs no port, no handshake and survives either side restarting. Each line is
 * `{"askId":"q1","text":"…","at":<epoch s>}`, written with one `appendFileSync` so a reader never sees half
 * of it (a torn last line is left for the next read). The watcher starts at the file's current end: answers
 * written before this process started were for questions of an earlier process, whose ids may repeat.
 *
 * @module
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  watch,
} from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../internal/error-text.js';
import { isRecord } from '../internal/is-record.js';

/** The answer file's name inside the run directory. */
export const ANSWER_FILE = 'answers.jsonl';

/** How often the watcher looks at the file when no change notice came (some filesystems send none). */
const POLL_MS = 500;

/** One answer as written to the file. */
export interface FiledAnswer {
  /** The id of the question it answers (the `ask` event's `id`). */
  askId: string;
  /** What the person wrote or picked. */
  text: string;
}

/** `<runDir>/answers.jsonl`. */
export function answerFilePath(runDir: string): string {
  return join(runDir, ANSWER_FILE);
}

/**
 * Appends `answer` to the run's answer file (created owner-only: answers can hold anything a person types).
 * Returns an error text, or null when the line was written.
 */
export function appendAnswer(
  runDir: string,
  answer: FiledAnswer,
  now: () => number = Date.now,
): string | null {
  try {
    mkdirSync(runDir, { recursive: true });
    const line = JSON.stringify({ askId: answer.askId, text: answer.text, at: now() / 1000 });
    appendFileSync(answerFilePath(runDir), `${line}\n`, { encoding: 'utf8', mode: 0o600 });
    return null;
  } catch (error) {
    return `cannot append to ${answerFilePath(runDir)}: ${errorMessage(error)}`;
  }
}

/** The answer in one line of the file, or null when the line is not one. */
export function parseAnswerLine(line: string): FiledAnswer | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isRecord(value) || typeof value['askId'] !== 'string' || typeof value['text'] !== 'string')
    return null;
  return { askId: value['askId'], text: value['text'] };
}

/** A running watch of the answer file. */
export interface AnswerWatch {
  /** Reads what arrived since the last read now (the watcher also does this on its own). */
  check(): void;
  /** Stops watching. */
  close(): void;
}

/**
 * Calls `deliver` for each answer appended to `<runDir>/answers.jsonl` from now on, in order. Never throws:
 * a file that cannot be read is tried again at the next change.
 */
export function watchAnswers(runDir: string, deliver: (answer: FiledAnswer) => void): AnswerWatch {
  const path = answerFilePath(runDir);
  let offset = fileSize(path);
  const check = (): void => {
    const size = fileSize(path);
    // Replaced by a shorter file (an archived run): start over at its beginning.
    if (size < offset) offset = 0;
    if (size === offset) return;
    const chunk = readRange(path, offset, size);
    if (chunk === null) return;
    const end = chunk.lastIndexOf(0x0a);
    if (end < 0) return;
    offset += end + 1;
    for (const line of chunk.subarray(0, end).toString('utf8').split('\n')) {
      const answer = parseAnswerLine(line);
      if (answer !== null) deliver(answer);
    }
  };
  let watcher: FSWatcher | null = null;
  try {
    mkdirSync(runDir, { recursive: true });
    watcher = watch(runDir, { persistent: false }, (_type, name) => {
      if (name === null || name === ANSWER_FILE) check();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    // No change notices here: the poll below still finds every answer.
  }
  const timer = setInterval(check, POLL_MS);
  timer.unref();
  return {
    check,
    close() {
      clearInterval(timer);
      watcher?.close();
    },
  };
}

function fileSize(path: string): number {
  if (!existsSync(path)) return 0;
  try {
    const fd = openSync(path, 'r');
    try {
      return fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  } catch {
    return 0;
  }
}

function readRange(path: string, from: number, to: number): Buffer | null {
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(to - from);
      const read = readSync(fd, buffer, 0, buffer.length, from);
      return buffer.subarray(0, read);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}
