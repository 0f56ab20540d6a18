/**
 * The handoff document: what a session near the end of its context window writes for the fresh session that
 * takes over (docs/handoff.md). Five sections; only "doing" and "next" are required, because
 * forcing the others makes a model invent dead ends. When the writing turn fails, a mechanical degraded
 * document points the successor at the scene instead.
 *
 * @module
 */
import { EMPTY_SECTION, readDocument, withoutPlaceholder } from './brief.js';
import { parseSections } from './parse-sections.js';

/**
 * The labels that open each handoff section: English first (decisions.md D1), then the Python flower's
 * Chinese ones.
 */
export const HANDOFF_HEADINGS = {
  doing: ['Doing', '现在在做什么', '当前进度', '现在在做', '进度'],
  decided: ['Decided', '已经定下的', '已定的事', '决策'],
  deadends: ['Dead ends', 'Dead-ends', 'Deadends', '走不通的路', '试过不行的', '排除的路'],
  next: ['Next', 'Next steps', '下一步'],
  scene: ['Scene', '现场', '文件'],
} satisfies Record<string, string[]>;

/** A handoff section. */
export type HandoffSection = keyof typeof HANDOFF_HEADINGS;

const ORDER: readonly HandoffSection[] = ['doing', 'decided', 'deadends', 'next', 'scene'];

/** The heading written for each section (decisions.md D1). */
export const HANDOFF_TITLES: Readonly<Record<HandoffSection, string>> = {
  doing: 'Doing',
  decided: 'Decided',
  deadends: 'Dead ends',
  next: 'Next',
  scene: 'Scene',
};

const REQUIRED: readonly HandoffSection[] = ['doing', 'next'];

/** Opens the "doing" section of a degraded document (the Python flower wrote `[降级:交接没写成]`). */
export const DEGRADED_MARKER = '[DEGRADED: handoff not written]';

/** Either degraded marker, English or Chinese, with an ASCII or full-width colon. */
const DEGRADED = /\[\s*(?:DEGRADED|降级)\s*[:：]/i;

/** How much of the step's original prompt a degraded document keeps (docs/handoff.md). */
export const DEGRADED_SCENE_CHARS = 1200;

const HEADER = [
  '# Handoff',
  '',
  '> Written for the session that takes over when the context window fills. A human may edit it:',
  '> the successor is told to re-read it, and the edited version prevails.',
].join('\n');

/** The fields of a {@link HandoffDocument}; missing ones are empty. */
export interface HandoffFields {
  doing?: string;
  decided?: string;
  deadends?: string;
  next?: string;
  scene?: string;
}

/** A parsed handoff document. */
export class HandoffDocument {
  /** Where things stand, in one or two sentences. */
  readonly doing: string;
  /** What is settled, each with its why. */
  readonly decided: string;
  /** What was tried and ruled out, and why: the costliest and most forgotten section. */
  readonly deadends: string;
  /** The next actions, concrete: "run X; if Y change Z". */
  readonly next: string;
  /** Paths of the key files, outputs and branches. */
  readonly scene: string;
  /** True when the writing turn failed and flower wrote this document itself. */
  readonly degraded: boolean;

  constructor(fields: HandoffFields = {}) {
    this.doing = (fields.doing ?? '').trim();
    this.decided = (fields.decided ?? '').trim();
    this.deadends = (fields.deadends ?? '').trim();
    this.next = (fields.next ?? '').trim();
    this.scene = (fields.scene ?? '').trim();
    this.degraded = DEGRADED.test(this.doing);
  }

  /** The display names of the required sections that are empty ("Doing", "Next"). */
  missing(): string[] {
    return REQUIRED.filter((key) => this[key] === '').map((key) => HANDOFF_TITLES[key]);
  }

  /** True when "doing" and "next" have content; the other three may be empty. */
  complete(): boolean {
    return this.missing().length === 0;
  }

  /** The file form: a short header, then all five sections, a placeholder in empty ones. */
  toMarkdown(): string {
    const sections = ORDER.map(
      (key) => `## ${HANDOFF_TITLES[key]}\n\n${this[key] === '' ? EMPTY_SECTION : this[key]}`,
    );
    return `${[HEADER, ...sections].join('\n\n')}\n`;
  }

  /** The sections with content, under their headings: what the successor's first prompt carries. */
  promptBlock(): string {
    return ORDER.filter((key) => this[key] !== '')
      .map((key) => `## ${HANDOFF_TITLES[key]}\n${this[key]}`)
      .join('\n\n');
  }

  /** Reads a handoff from the writing turn's reply or a handoff file, in English or Chinese headings. */
  static parse(text: string): HandoffDocument {
    const sections = parseSections(text, HANDOFF_HEADINGS);
    return new HandoffDocument({
      doing: withoutPlaceholder(sections.doing),
      decided: withoutPlaceholder(sections.decided),
      deadends: withoutPlaceholder(sections.deadends),
      next: withoutPlaceholder(sections.next),
      scene: withoutPlaceholder(sections.scene),
    });
  }

  /** The handoff at `path`; null when the file is missing or cannot be read. Never throws. */
  static load(path: string): HandoffDocument | null {
    const text = readDocument(path);
    return text === null ? null : HandoffDocument.parse(text);
  }

  /**
   * The document flower writes when the session could not (a required section missing, an error, a context
   * overflow): "doing" carries the marker, the step and the reason; "next" says to inspect the scene before
   * assuming anything; "scene" quotes the first {@link DEGRADED_SCENE_CHARS} characters of the step's original
   * prompt. The quote is a blockquote so that headings inside the prompt cannot open sections when the file
   * is read back.
   */
  static degraded(step: string, originalPrompt: string, options: { why: string }): HandoffDocument {
    const why =
      options.why
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/[.。]+$/, '') || 'no reason recorded';
    const characters = Array.from(originalPrompt.trim());
    const excerpt = characters.slice(0, DEGRADED_SCENE_CHARS).join('');
    const title =
      characters.length > DEGRADED_SCENE_CHARS
        ? `The step's original prompt, first ${DEGRADED_SCENE_CHARS} characters:`
        : "The step's original prompt:";
    const quoted = excerpt
      .split(/\r?\n/)
      .map((line) => (line === '' ? '>' : `> ${line}`))
      .join('\n');
    return new HandoffDocument({
      doing: `${DEGRADED_MARKER} Step "${step}": ${why}. The previous session left no account of its work.`,
      next: [
        'Inspect the scene before anything else: read the notes and artifacts in the workbench, and run',
        '`git status` and `git log` in the workspace. Do not assume nothing was done: pick up from what you find.',
      ].join(' '),
      scene: excerpt === '' ? 'The original prompt of the step was empty.' : `${title}\n\n${quoted}`,
    });
  }
}
