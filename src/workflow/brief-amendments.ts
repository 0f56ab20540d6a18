/**
 * The amendments in a brief file: what a human added after the brief was frozen, under the headings the
 * human channel writes (`## Added during the run (HH:MM:SS)`, `## Added on wake (…)`; the Python flower's
 * `## 运行中补充(…)`, `## 唤醒时追加(…)`). The judge needs them (decisions.md D111: it was blind to requirements added
 * mid-run), the go path needs them to tell a repeated wake remark from a new one (decisions.md D318), and
 * the clarify gate must carry them over when it freezes a brief.
 *
 * @module
 */
import { AMEND_LABELS } from '../human/human-channel.js';

/** One amendment: its label, the clock time in its heading, and its text. */
export interface BriefAmendment {
  /** `run` for words typed during a run, `wake` for a remark given when the run was resumed. */
  readonly kind: 'run' | 'wake';
  /** The heading line as written (without the `#` marks). */
  readonly heading: string;
  /** The text under the heading, trimmed. */
  readonly text: string;
}

const LABELS: Readonly<Record<string, BriefAmendment['kind']>> = {
  [AMEND_LABELS.run.toLowerCase()]: 'run',
  [AMEND_LABELS.wake.toLowerCase()]: 'wake',
  运行中补充: 'run',
  唤醒时追加: 'wake',
};

/** A heading the channel writes: label, then the time in ASCII or full-width parentheses. */
const HEADING =
  /^#{1,6}\s*(Added during the run|Added on wake|运行中补充|唤醒时追加)\s*([(（][^)）]*[)）])?\s*$/i;

/**
 * Every amendment in `text`, in file order. Each runs from its heading to the next amendment heading or the
 * end: the channel only ever appends, so amendments sit at the end of the file and may contain headings of
 * their own.
 */
export function briefAmendments(text: string): BriefAmendment[] {
  const found: BriefAmendment[] = [];
  let current: { kind: BriefAmendment['kind']; heading: string; lines: string[] } | null = null;
  const close = (): void => {
    if (current !== null)
      found.push({ kind: current.kind, heading: current.heading, text: current.lines.join('\n').trim() });
  };
  for (const line of text.split(/\r?\n/)) {
    const match = HEADING.exec(line.trim());
    if (match !== null) {
      close();
      const label = (match[1] ?? '').toLowerCase();
      current = { kind: LABELS[label] ?? 'run', heading: line.trim().replace(/^#+\s*/, ''), lines: [] };
      continue;
    }
    current?.lines.push(line);
  }
  close();
  return found.filter((amendment) => amendment.text !== '');
}

/** The amendments of `text` as Markdown, each under its own heading; '' when there are none. */
export function amendmentsMarkdown(amendments: readonly BriefAmendment[]): string {
  return amendments.map((amendment) => `## ${amendment.heading}\n\n${amendment.text}`).join('\n\n');
}
