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
}

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

  constructor(fields: GoalFields = {}) {
    this.statement = (fields.statement ?? '').trim();
    this.checks = (fields.checks ?? []).map((check) => check.trim()).filter((check) => check !== '');
    this.unverifiable = this.checks.filter((check) => UNVERIFIABLE_MARKER.test(check));
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
    if (added === '') return new Goal({ statement: this.statement, checks: this.checks });
    const statement =
      this.statement === '' ? `(modified) ${added}` : `${this.statement}\n\n(modified) ${added}`;
    return new Goal({ statement, checks: this.checks });
  }

  /** The file form: a header saying the goal is frozen, the statement and the checklist as a bullet list. */
  toMarkdown(): string {
    const checklist = this.checks.length === 0 ? EMPTY_SECTION : bulletList(this.checks);
    const statement = this.statement === '' ? EMPTY_SECTION : this.statement;
    return `${HEADER}\n\n## Goal\n\n${statement}\n\n## Checklist\n\n${checklist}\n`;
  }

  /** The statement and checklist without the file's header: what the work and judge prompts carry. */
  promptBlock(): string {
    const parts: string[] = [];
    if (this.statement !== '') parts.push(`## Goal\n${this.statement}`);
    if (this.checks.length > 0) parts.push(`## Checklist\n${bulletList(this.checks)}`);
    return parts.join('\n\n');
  }

  /** Reads a goal from a judge's reply or a goal file; the checks are the items of the checklist section. */
  static parse(text: string): Goal {
    const sections = parseSections(text, GOAL_HEADINGS);
    return new Goal({
      statement: withoutPlaceholder(sections.statement),
      checks: listItems(withoutPlaceholder(sections.checks)),
    });
  }

  /** The goal frozen at `path`; null when the file is missing or cannot be read. Never throws. */
  static load(path: string): Goal | null {
    const text = readDocument(path);
    return text === null ? null : Goal.parse(text);
  }
}

/** `- item` lines; a multi-line item continues indented under its bullet, as {@link listItems} reads it. */
function bulletList(items: readonly string[]): string {
  return items.map((item) => `- ${item.split('\n').join('\n  ')}`).join('\n');
}
