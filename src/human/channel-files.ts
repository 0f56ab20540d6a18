/**
 * The two files a {@link HumanChannel} appends to (docs/human-channel.md): the Q&A log (`notes/qa-log.md` on
 * the go path) and the amend file (normally the brief), where words typed during a run are written so they
 * outlive the step that received them. Both are append-only: a human's brief is never rewritten, only
 * extended. Failures are returned, not thrown — a full disk must never fail the agent's tool call (the
 * reference let an unguarded log write fail the `ask` tool, decisions.md D316).
 *
 * @module
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorMessage } from '../internal/error-text.js';

import type { Ask } from './ask.js';
import type { Mail } from './mail.js';

/** The headings an amend entry is filed under (decisions.md D1: English is written). */
export const AMEND_LABELS = { run: 'Added during the run', wake: 'Added on wake' } as const;

/** First line of a Q&A log this channel creates. */
export const QA_LOG_TITLE = '# Q&A log';

/** The blockquote under the Q&A log title, so a reader knows who writes the file and who reads it. */
const QA_LOG_NOTE =
  '> Appended by flower as questions are asked and answered, and when messages are delivered; no agent reads this file.';

/** First line of an amend file this channel creates (the brief normally exists already). */
export const AMEND_TITLE = '# Additions during the run';

/** `text` on one list item: continuation lines are indented under the item instead of breaking the list. */
function itemText(text: string, indent: string): string {
  return text.replace(/\r\n?/g, '\n').split('\n').join(`\n${indent}`);
}

/** The Q&A log lines of one settled question. */
export function askLogLines(ask: Ask): string[] {
  const lines = [`- **Q** (${ask.id}) ${itemText(ask.question, '  ')}`];
  if (ask.options.length > 0)
    lines.push(`  - Options: ${ask.options.map((option) => itemText(option, '    ')).join(' / ')}`);
  lines.push(`  - **A** [${ask.state}] ${itemText(ask.answer, '    ')}`);
  return lines;
}

/** A question an earlier process settled, as its Q&A log entry keeps it. */
export interface RecordedAnswer {
  /** The entry's question and options lines, its id left out: {@link recordedKey} of the ask. */
  key: string;
  state: 'answered' | 'timeout' | 'declined';
  answer: string;
}

/** The lines that identify a question in the log (question and options), without its id. */
export function recordedKey(ask: Pick<Ask, 'question' | 'options'>): string {
  return askLogLines({ id: '', askedAt: 0, state: 'asked', answer: '', ...ask })
    .slice(0, -1)
    .join('\n')
    .replace(/^- \*\*Q\*\* \(\) /, '');
}

/**
 * The questions the Q&A log at `path` holds as answered, timed out or declined, oldest first; [] when it
 * cannot be read. A question whose entry is not in the format {@link askLogLines} writes is skipped.
 */
export function recordedAnswers(path: string): RecordedAnswer[] {
  let lines: string[];
  try {
    lines = readFileSync(path, 'utf8').split('\n');
  } catch {
    return [];
  }
  const found: RecordedAnswer[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const head = /^- \*\*Q\*\* \(q\d+\) /.exec(lines[index] ?? '');
    if (head === null) continue;
    const asked = [(lines[index] ?? '').slice(head[0].length)];
    let cursor = index + 1;
    while (cursor < lines.length && !(lines[cursor] ?? '').startsWith('  - **A** [')) {
      if (!(lines[cursor] ?? '').startsWith('  ')) break;
      asked.push(lines[cursor] ?? '');
      cursor += 1;
    }
    const answerLine = /^ {2}- \*\*A\*\* \[(answered|timeout|declined)\] (.*)$/.exec(lines[cursor] ?? '');
    if (answerLine === null) continue;
    const answer = [answerLine[2] ?? ''];
    while ((lines[cursor + 1] ?? '').startsWith('    ')) {
      cursor += 1;
      answer.push((lines[cursor] ?? '').slice(4));
    }
    found.push({
      key: asked.join('\n'),
      state: answerLine[1] as RecordedAnswer['state'],
      answer: answer.join('\n'),
    });
    index = cursor;
  }
  return found;
}

/** The Q&A log line of one delivered message. */
export function mailLogLines(mail: Mail): string[] {
  return [`- **Human said** (${mail.id}) ${itemText(mail.text, '  ')}`];
}

/** `HH:MM:SS` in local time: the brief is read by the person who typed the words, on their clock. */
export function clockTime(date: Date): string {
  const two = (value: number): string => String(value).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** The error text of a failed file operation, for `uiErrors`. */
function failure(what: string, path: string, error: unknown): string {
  return `${what} ${path}: ${errorMessage(error)}`;
}

/** Appends `lines` to the Q&A log at `path`, creating it with its title. Returns an error text or null. */
export function appendQaLog(path: string, lines: readonly string[]): string | null {
  try {
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true });
      appendFileSync(path, `${QA_LOG_TITLE}\n\n${QA_LOG_NOTE}\n\n`, 'utf8');
    }
    appendFileSync(path, `${lines.join('\n')}\n`, 'utf8');
    return null;
  } catch (error) {
    return failure('cannot append to the Q&A log', path, error);
  }
}

/**
 * Appends `text` under `## <label> (HH:MM:SS)` to the file at `path` (a blank line first; a missing final
 * newline of the existing file is added), creating the file with {@link AMEND_TITLE}. Returns an error text
 * or null.
 */
export function appendAmendment(path: string, text: string, label: string, now: Date): string | null {
  try {
    let prefix = '';
    if (existsSync(path)) {
      const existing = readFileSync(path);
      if (existing.length > 0 && existing[existing.length - 1] !== 0x0a) prefix = '\n';
    } else {
      mkdirSync(dirname(path), { recursive: true });
      prefix = `${AMEND_TITLE}\n`;
    }
    appendFileSync(path, `${prefix}\n## ${label} (${clockTime(now)})\n\n${text}\n`, 'utf8');
    return null;
  } catch (error) {
    return failure('cannot append to', path, error);
  }
}
