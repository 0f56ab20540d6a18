/**
 * The goal: a one-sentence sign of done plus a checklist the judge can check on the spot
 * (docs/go-path.md). Frozen to `notes/goal.md` when set, so every judging round grades against
 * the same list, and a human can read — and edit — the standard before the money is spent.
 *
 * @module
 */
import { EMPTY_SECTION, readDocument, withoutPlaceholder } from './brief.js';
import { listItems, parseSections } from './parse-sections.js';

/**
 * The labels that open each goal section: English first (decisions.md D1), then the Python flower's Chinese
 * ones.
 */
export const GOAL_HEADINGS = {
  statement: ['Goal', '目标', '完成标志'],
  checks: ['Checklist', 'Checks', '判定清单', '判定条件', '验收清单', '检查项', '判定'],
} satisfies Record<string, string[]>;

/**
 * The marker on a check that cannot be verified in this environment: `[unverifiable here: <reason>]`, or the
 * Python flower's `[此环境无法验证:<reason>]` (also `[无法验证…]`); the colon is optional and may be full-width,
 * and a full-width bracket opens it too.
 */
export const UNVERIFIABLE_MARKER = /[[【]\s*(?:unverifiable(?![a-z])|(?:此环境)?无法验证)/i;

const HEADER = [
  '# Goal and checklist',
  '',
  '> Frozen by flower when the goal was set; the judge checks every round against this list.',
  '> Edit this file to change the goal; delete it to set the goal again on the next run.',
].join('\n');

/** The fields of a {@link Goal}; missing ones are empty. */
export interface GoalFields {
  statement?: string;
  checks?: readonly string[];
  /**
   * The body of each check's fenced `check` block (docs/goal-checks.md), by position in `checks`; '' or a
   * missing entry means the item has none.
   */
  blocks?: readonly string[];
}

/** The opening line of a machine check's fence under a checklist item: `` ```check `` (or `~~~check`). */
const CHECK_FENCE = /^\s*(`{3,}|~{3,})\s*check\s*$/i;
/** What a check block is replaced with while the sections are parsed, so it stays with its item. */
const BLOCK_MARK = /\s*\u27e6check:(\d+)\u27e7\s*/g;

/**
 * A parsed goal. Complete when the statement has content and the checklist has at least one item. Checks
 * marked unverifiable never pass and are listed in {@link Goal.unverifiable}, so the goal step can warn a
 * human now, at no cost, rather than after the work rounds (measured: the reference's HT002 run found 4 of 15
 * such checks only after $35.90 of work and $1.40 of judging).
 */
export class Goal {
  /** One sentence: the sign that the work is done. */
  readonly statement: string;
  /** The checklist, one item per entry, each verifiable as "run this / see that". */
  readonly checks: readonly string[];
  /** The checks carrying the unverifiable marker, as written. */
  readonly unverifiable: readonly string[];
  /** The machine check block of each item of {@link Goal.checks} ('' for none), as written in the file. */
  readonly blocks: readonly string[];

  constructor(fields: GoalFields = {}) {
    this.statement = (fields.statement ?? '').trim();
    const blocks = fields.blocks ?? [];
    const kept = (fields.checks ?? [])
      .map((check, index) => ({ check: check.trim(), block: (blocks[index] ?? '').trim() }))
      .filter((entry) => entry.check !== '');
    this.checks = kept.map((entry) => entry.check);
    this.blocks = kept.map((entry) => entry.block);
    this.unverifiable = this.checks.filter((check) => UNVERIFIABLE_MARKER.test(check));
  }

  /** The block of the item `check` ('' when it has none or is not an item of this goal). */
  blockOf(check: string): string {
    return this.blocks[this.checks.indexOf(check)] ?? '';
  }

  /** True when at least one item carries a machine check block. */
  hasBlocks(): boolean {
    return this.blocks.some((block) => block !== '');
  }

  /** The display names of what is missing: `Goal` without a statement, `Checklist` without items. */
  missing(): string[] {
    const missing: string[] = [];
    if (this.statement === '') missing.push('Goal');
    if (this.checks.length === 0) missing.push('Checklist');
    return missing;
  }

  /** True when there is a statement and at least one check. */
  complete(): boolean {
    return this.missing().length === 0;
  }

  /**
   * A new goal whose statement has `extra` appended with a "modified" tag; the checklist is kept as it was
   * (the go path sets the goal again after an amendment, decisions.md D110). An empty `extra` changes
   * nothing.
   */
  amend(extra: string): Goal {
    const added = extra.trim();
    if (added === '')
      return new Goal({ statement: this.statement, checks: this.checks, blocks: this.blocks });
    const statement =
      this.statement === '' ? `(modified) ${added}` : `${this.statement}\n\n(modified) ${added}`;
    return new Goal({ statement, checks: this.checks, blocks: this.blocks });
  }

  /** The file form: a header saying the goal is frozen, the statement and the checklist as a bullet list. */
  toMarkdown(): string {
    const checklist = this.checks.length === 0 ? EMPTY_SECTION : bulletList(this.checks, this.blocks);
    const statement = this.statement === '' ? EMPTY_SECTION : this.statement;
    return `${HEADER}\n\n## Goal\n\n${statement}\n\n## Checklist\n\n${checklist}\n`;
  }

  /** The statement and checklist without the file's header: what the work and judge prompts carry. */
  promptBlock(): string {
    const parts: string[] = [];
    if (this.statement !== '') parts.push(`## Goal\n${this.statement}`);
    if (this.checks.length > 0) parts.push(`## Checklist\n${bulletList(this.checks, this.blocks)}`);
    return parts.join('\n\n');
  }

  /** Reads a goal from a judge's reply or a goal file; the checks are the items of the checklist section. */
  static parse(text: string): Goal {
    const { marked, bodies } = markCheckBlocks(text);
    const sections = parseSections(marked, GOAL_HEADINGS);
    const items = listItems(withoutPlaceholder(sections.checks));
    const blocks = items.map((item) => {
      const found = [...item.matchAll(BLOCK_MARK)].map((match) => bodies[Number(match[1])] ?? '');
      return found.join('\n');
    });
    return new Goal({
      statement: withoutPlaceholder(sections.statement).replace(BLOCK_MARK, '\n').trim(),
      checks: items.map((item) => item.replace(BLOCK_MARK, '\n').trim()),
      blocks,
    });
  }

  /** The goal frozen at `path`; null when the file is missing or cannot be read. Never throws. */
  static load(path: string): Goal | null {
    const text = readDocument(path);
    return text === null ? null : Goal.parse(text);
  }
}

/**
 * `- item` lines; a multi-line item continues indented under its bullet, as {@link listItems} reads it, and
 * its check block follows, indented the same, as a fenced `check` block.
 */
function bulletList(items: readonly string[], blocks: readonly string[] = []): string {
  return items
    .map((item, index) => {
      const line = `- ${item.split('\n').join('\n  ')}`;
      const block = blocks[index] ?? '';
      if (block === '') return line;
      const body = block.split('\n').map((row) => `  ${row}`.trimEnd());
      return [line, '  ```check', ...body, '  ```'].join('\n');
    })
    .join('\n');
}

/**
 * The text with each closed `check` fence replaced by an indented mark line (so the section parser, which
 * drops fenced blocks, keeps it as part of the item above it) and the blocks' bodies by mark number. An
 * unclosed fence is left alone: the parser then drops the rest, as it does for any truncated reply.
 */
function markCheckBlocks(text: string): { marked: string; bodies: string[] } {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  const bodies: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const opener = CHECK_FENCE.exec(line);
    const fence = opener?.[1];
    if (fence === undefined) {
      out.push(line);
      continue;
    }
    const end = lines.findIndex(
      (candidate, at) =>
        at > index &&
        new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(candidate),
    );
    if (end === -1) {
      out.push(...lines.slice(index));
      break;
    }
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    const body = lines
      .slice(index + 1, end)
      .map((row) => row.slice(Math.min(indent, /^\s*/.exec(row)?.[0].length ?? 0)));
    out.push(`    \u27e6check:${bodies.length}\u27e7`);
    bodies.push(body.join('\n').trim());
    index = end;
  }
  return { marked: out.join('\n'), bodies };
}
