/**
 * The brief: what the clarifier hands on (docs/go-path.md). Four sections in a fixed order —
 * goal, acceptance criteria, boundaries, unknowns and assumptions — frozen to `notes/brief.md` once all four
 * have content, and read back on every later run so a rerun never questions the human again.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseSections } from './parse-sections.js';

/**
 * The labels that open each brief section: English first (decisions.md D1), then the Python flower's Chinese
 * ones (docs/go-path.md) and the "&" spelling of the clarifier rule text ("Unknowns & assumptions"). The
 * extra English labels match what `wakeState` accepts, so the two never disagree on whether a brief is
 * complete.
 */
export const BRIEF_HEADINGS = {
  goal: ['Goal', '目标'],
  accept: ['Acceptance criteria', 'Acceptance', '验收标准', '验收条件', '验收'],
  bounds: ['Boundaries', 'Out of scope', '边界', '范围边界', '不做什么'],
  unknowns: [
    'Unknowns and assumptions',
    'Unknowns & assumptions',
    'Unknowns',
    'Assumptions',
    '未知与假设',
    '未知项与假设',
    '未知项',
    '已知未知',
    '假设',
    '未知',
  ],
} satisfies Record<string, string[]>;

/** A brief section. */
export type BriefSection = keyof typeof BRIEF_HEADINGS;

/** The section keys in the order they are written. */
const ORDER: readonly BriefSection[] = ['goal', 'accept', 'bounds', 'unknowns'];

/** The heading written for each section (decisions.md D1). */
const TITLES: Record<BriefSection, string> = {
  goal: 'Goal',
  accept: 'Acceptance criteria',
  bounds: 'Boundaries',
  unknowns: 'Unknowns and assumptions',
};

/**
 * What an empty section holds on disk, so a human sees the gap; read back as empty. Shared by every document
 * flower writes (brief, goal, handoff).
 */
export const EMPTY_SECTION = '_(empty)_';

const HEADER = [
  '# Brief',
  '',
  '> Frozen by flower after clarification. Edit this file to change the requirement;',
  '> delete it to clarify again on the next run.',
].join('\n');

/** The four fields of a {@link Brief}; a missing one is empty. */
export interface BriefFields {
  goal?: string;
  accept?: string;
  bounds?: string;
  unknowns?: string;
}

/**
 * A parsed brief. Complete when all four sections have content. Text appended during a run
 * (`## Added during the run (…)`, `## Added on wake (…)`) is not a section of its own: it stays in the body of
 * the section above it — normally the last — so it reaches every later step through {@link Brief.promptBlock}
 * (docs/go-path.md).
 */
export class Brief {
  /** One sentence: what, for whom. */
  readonly goal: string;
  /** Decidable criteria, one per line. */
  readonly accept: string;
  /** What will not be done: how to work, not what the deliverable satisfies. */
  readonly bounds: string;
  /** Questions not asked or not answered, and the assumption taken for each. */
  readonly unknowns: string;

  constructor(fields: BriefFields = {}) {
    this.goal = (fields.goal ?? '').trim();
    this.accept = (fields.accept ?? '').trim();
    this.bounds = (fields.bounds ?? '').trim();
    this.unknowns = (fields.unknowns ?? '').trim();
  }

  /** The display names of the empty sections, in document order. */
  missing(): string[] {
    return ORDER.filter((key) => this[key] === '').map((key) => TITLES[key]);
  }

  /** True when every section has content: the clarify gate freezes only a complete brief. */
  complete(): boolean {
    return this.missing().length === 0;
  }

  /** The file form: a header saying the brief is frozen, then all four sections, a placeholder in empty ones. */
  toMarkdown(): string {
    const sections = ORDER.map(
      (key) => `## ${TITLES[key]}\n\n${this[key] === '' ? EMPTY_SECTION : this[key]}`,
    );
    return `${[HEADER, ...sections].join('\n\n')}\n`;
  }

  /** The sections with content, under their headings, without the file's header: what later prompts carry. */
  promptBlock(): string {
    return ORDER.filter((key) => this[key] !== '')
      .map((key) => `## ${TITLES[key]}\n${this[key]}`)
      .join('\n\n');
  }

  /** Reads a brief from a clarifier's reply or a brief file, in English or Chinese headings. */
  static parse(text: string): Brief {
    const sections = parseSections(text, BRIEF_HEADINGS);
    return new Brief({
      goal: withoutPlaceholder(sections.goal),
      accept: withoutPlaceholder(sections.accept),
      bounds: withoutPlaceholder(sections.bounds),
      unknowns: withoutPlaceholder(sections.unknowns),
    });
  }

  /** The brief frozen at `path`; null when the file is missing or cannot be read. Never throws. */
  static load(path: string): Brief | null {
    const text = readDocument(path);
    return text === null ? null : Brief.parse(text);
  }
}

/**
 * A section body with the {@link EMPTY_SECTION} placeholder removed; '' for an absent section. The placeholder
 * may be followed by text added to the file later (an appended `## Added on wake (…)` block), which is kept.
 */
export function withoutPlaceholder(body: string | undefined): string {
  if (body === undefined) return '';
  const [first, ...rest] = body.split('\n');
  return first?.trim() === EMPTY_SECTION ? rest.join('\n').trim() : body;
}

/** The UTF-8 text of `path`, or null when it is missing or unreadable (a directory, no permission). */
export function readDocument(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
