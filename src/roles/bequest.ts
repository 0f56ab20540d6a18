/**
 * The bequest: what a finished run leaves for the person who continues with Claude Code or Codex
 * (docs/go-path.md). A read-only finishing turn writes five sections; flower puts them into
 * `CLAUDE.md` and `AGENTS.md` (see `writeBequest`), which those tools load at the start of every session.
 *
 * @module
 */
import { readDocument } from './brief.js';
import { parseSections } from './parse-sections.js';

/** The labels that open each bequest section: English first (decisions.md D1), then Chinese ones. */
export const BEQUEST_HEADINGS = {
  what: ['What', 'What it is', '是什么', '这是什么'],
  acceptance: ['Acceptance', 'Acceptance criteria', '验收', '验收情况'],
  generated: ['Generated', 'Generated files', '生成的文件', '生成物'],
  deadends: ['Dead ends', 'Dead-ends', 'Deadends', '走不通的路'],
  workbench: ['Workbench', '工作台'],
} satisfies Record<string, string[]>;

/** A bequest section. */
export type BequestSection = keyof typeof BEQUEST_HEADINGS;

const ORDER: readonly BequestSection[] = ['what', 'acceptance', 'generated', 'deadends', 'workbench'];

const TITLES: Readonly<Record<BequestSection, string>> = {
  what: 'What',
  acceptance: 'Acceptance',
  generated: 'Generated',
  deadends: 'Dead ends',
  workbench: 'Workbench',
};

const REQUIRED: readonly BequestSection[] = ['what', 'workbench'];

/** Opens the "what" section of a bequest flower wrote itself because the finishing turn failed. */
export const BEQUEST_DEGRADED_MARKER = '[DEGRADED: bequest not written]';

const DEGRADED = /\[\s*(?:DEGRADED|降级)\s*[:：]/i;

/**
 * Opens the block flower manages in `CLAUDE.md` and `AGENTS.md`. Fixed text, no timestamp: writing the same
 * bequest again must leave the file byte for byte as it was.
 */
export const BEQUEST_BEGIN =
  '<!-- flower:begin (written by flower at the end of a run; replaced on the next run) -->';
/** Closes the managed block. */
export const BEQUEST_END = '<!-- flower:end -->';
/** Any begin marker, whatever its note says. */
const BEGIN_PATTERN = /<!--\s*flower:begin\b[\s\S]*?-->/g;
/** Any end marker. */
const END_PATTERN = /<!--\s*flower:end\s*-->/g;

/** Where the managed block sits in a file: from its begin marker up to the end of its end marker. */
export interface ManagedBlock {
  start: number;
  end: number;
  /** The text between the two markers. */
  inner: string;
}

/**
 * The managed block of `text` when it has exactly one begin marker and one end marker, in that order; null
 * otherwise (none, one missing, several, or reversed), in which case nothing in the file may be replaced.
 */
export function managedBlock(text: string): ManagedBlock | null {
  const begins = [...text.matchAll(BEGIN_PATTERN)];
  const ends = [...text.matchAll(END_PATTERN)];
  const begin = begins[0];
  const end = ends[0];
  if (begins.length !== 1 || ends.length !== 1 || begin === undefined || end === undefined) return null;
  const innerStart = begin.index + begin[0].length;
  if (innerStart > end.index) return null;
  return { start: begin.index, end: end.index + end[0].length, inner: text.slice(innerStart, end.index) };
}

/** The fields of a {@link Bequest}; missing ones are empty. */
export interface BequestFields {
  what?: string;
  acceptance?: string;
  generated?: string;
  deadends?: string;
  workbench?: string;
}

/**
 * A parsed bequest. Complete when "what" and "workbench" have content. Its Markdown is loaded into every
 * future session of the next tool, so empty sections are left out rather than shown with a placeholder.
 */
export class Bequest {
  /** What the project is and what the run produced, in one or two sentences. */
  readonly what: string;
  /** The acceptance criteria met and, above all, those not met. */
  readonly acceptance: string;
  /** Which files are generated, by which script, from what: hand edits to them are silently overwritten. */
  readonly generated: string;
  /** What was tried and ruled out, and why. */
  readonly deadends: string;
  /** What the workbench's notes, artifacts and scripts hold, and what to read first. */
  readonly workbench: string;
  /** True when the finishing turn failed and flower wrote this bequest itself. */
  readonly degraded: boolean;

  constructor(fields: BequestFields = {}) {
    this.what = (fields.what ?? '').trim();
    this.acceptance = (fields.acceptance ?? '').trim();
    this.generated = (fields.generated ?? '').trim();
    this.deadends = (fields.deadends ?? '').trim();
    this.workbench = (fields.workbench ?? '').trim();
    this.degraded = DEGRADED.test(this.what);
  }

  /** The display names of the required sections that are empty ("What", "Workbench"). */
  missing(): string[] {
    return REQUIRED.filter((key) => this[key] === '').map((key) => TITLES[key]);
  }

  /** True when "what" and "workbench" have content. */
  complete(): boolean {
    return this.missing().length === 0;
  }

  /** The text that goes inside the managed block: a title and the sections with content. */
  toMarkdown(): string {
    return `## Where flower left this project\n\n${this.promptBlock('###')}\n`;
  }

  /** The sections with content under their headings (`##` unless another level is given). */
  promptBlock(level = '##'): string {
    return ORDER.filter((key) => this[key] !== '')
      .map((key) => `${level} ${TITLES[key]}\n\n${this[key]}`)
      .join('\n\n');
  }

  /** Reads a bequest from the finishing turn's reply, or from a file holding one. */
  static parse(text: string): Bequest {
    const sections = parseSections(text, BEQUEST_HEADINGS);
    return new Bequest({
      what: sections.what ?? '',
      acceptance: sections.acceptance ?? '',
      generated: sections.generated ?? '',
      deadends: sections.deadends ?? '',
      workbench: sections.workbench ?? '',
    });
  }

  /**
   * The bequest in the file at `path` (for example `CLAUDE.md`): only the managed block is read when the file
   * has one, so the user's own headings around it are not taken for sections. Null when the file is missing
   * or unreadable; never throws.
   */
  static load(path: string): Bequest | null {
    const text = readDocument(path);
    if (text === null) return null;
    return Bequest.parse(managedBlock(text)?.inner ?? text);
  }

  /**
   * The bequest flower writes when the finishing turn failed: the marker with the requirement in one line, and
   * a pointer to the workbench, where the frozen brief and goal and the run's notes still say the rest.
   */
  static degraded(requirement: string, workbenchPath: string): Bequest {
    const line = requirement.replace(/\s+/g, ' ').trim();
    const short = line.length > 200 ? `${Array.from(line).slice(0, 200).join('')}…` : line;
    return new Bequest({
      what: `${BEQUEST_DEGRADED_MARKER} The run worked on: ${short === '' ? '(no requirement recorded)' : short}`,
      workbench: `The workbench is at ${workbenchPath}. Read notes/ first (the frozen brief, goal and decisions), then the reports in artifacts/; scripts/ holds reusable scripts.`,
    });
  }
}

/** Options of {@link bequestPrompt}. */
export interface BequestPromptOptions {
  /** The workbench root as the model should see it; "the workbench" when not given. */
  workbench?: string;
}

/**
 * The finishing-turn prompt (docs/go-path.md): read the workbench first, then write the five sections as
 * pointers in a few dozen lines, because the text is loaded into every future session. It warns that no body
 * line may start with a section name (decisions.md D109), and that flower, not the model, writes the files.
 */
export function bequestPrompt(options: BequestPromptOptions = {}): string {
  const workbench =
    options.workbench === undefined ? 'the workbench' : `the workbench (${options.workbench})`;
  return `The run is over. Write its bequest: a short note for the person who continues this project with \
Claude Code or Codex. flower puts it into CLAUDE.md and AGENTS.md, which those tools load at the start of \
every session, so every line costs every future session.

First read ${workbench}: its notes, artifacts and scripts. Then reply with these sections, each under its \
own Markdown heading:

## What
What this project is and what the run produced, in one or two sentences.

## Acceptance
Which acceptance criteria are met and, above all, which are not.

## Generated
Which files are generated, by which script, from what. This is the most valuable section: a hand edit to a \
generated file is silently overwritten the next time its script runs.

## Dead ends
What was tried and ruled out, and why. Write "none" if there were none; never invent one.

## Workbench
What the notes, artifacts and scripts hold, and what to read first.

Rules:
- "What" and "Workbench" are required.
- Pointers, not content: paths and commands. A few dozen lines in all.
- No line of the body may start with a section name, or it will be read as a heading.
- Do not create or edit CLAUDE.md or AGENTS.md, or any other file: flower writes them from your reply.`;
}
