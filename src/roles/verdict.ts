/**
 * The verdict: what the judge says about one round of work (docs/go-path.md). Parsing is
 * strict where the reference guessed (decisions.md D108): the conclusion must be exactly one state word;
 * anything else is "not achieved", because a wrong pass ends the run on broken work while a wrong fail costs
 * one more round.
 *
 * @module
 */
import { listItems, parseSections } from './parse-sections.js';

/** The judge's conclusion; '' only for a verdict not read from a reply. */
export type VerdictState = 'ACHIEVED' | 'NOT_YET' | 'UNREACHABLE' | '';

/**
 * The labels that open each verdict section: English first (decisions.md D1), then the Python flower's
 * Chinese ones.
 */
export const VERDICT_HEADINGS = {
  state: ['Conclusion', 'Verdict', '结论', '判定'],
  reason: ['Reason', '理由', '依据'],
  failed: ['Failed', 'Failed items', 'Failed checks', '未通过', '未通过项'],
} satisfies Record<string, string[]>;

/** The reason given when the reply names no single state. */
export const AMBIGUOUS_REASON = 'no clear conclusion; treated as not achieved';

/**
 * Whole-word conclusions, after markup is stripped, upper-cased, and spaces or hyphens turned into `_`. The
 * Chinese words are the Python flower's; every "can't verify" wording is UNREACHABLE, never a pass and never
 * NOT_YET (which would redo work that no round can ever prove).
 */
const STATE_WORDS: Readonly<Record<string, Exclude<VerdictState, ''>>> = {
  ACHIEVED: 'ACHIEVED',
  已达成: 'ACHIEVED',
  达成: 'ACHIEVED',
  NOT_YET: 'NOT_YET',
  NOT_ACHIEVED: 'NOT_YET',
  未达成: 'NOT_YET',
  没达成: 'NOT_YET',
  尚未达成: 'NOT_YET',
  未完成: 'NOT_YET',
  UNREACHABLE: 'UNREACHABLE',
  UNVERIFIABLE: 'UNREACHABLE',
  IMPOSSIBLE: 'UNREACHABLE',
  无法验证: 'UNREACHABLE',
  没法验证: 'UNREACHABLE',
  验证不了: 'UNREACHABLE',
  无法判定: 'UNREACHABLE',
  无法达成: 'UNREACHABLE',
  不可达成: 'UNREACHABLE',
  做不到: 'UNREACHABLE',
};

/** "Can't verify here" wording inside a longer conclusion: it makes the verdict UNREACHABLE. */
const CANNOT_VERIFY =
  /无法验证|没法验证|验证不了|不能验证|无法判定|unverifiable|unreachable|(?:can(?:no|'|’)?t|can\s+not|unable\s+to)\s+(?:be\s+)?verif|not\s+(?:be\s+)?verifiable/i;

/** Markup and punctuation around a one-word conclusion. */
const WRAPPING = /^[\s*_`"'“”‘’「」『』[\]【】()（）]+|[\s*_`"'“”‘’「」『』[\]【】()（）.。!！]+$/g;

/**
 * A `Label: value` line that the section parser does not take for a heading: plain (`Conclusion: ACHIEVED`)
 * or as a list item (`- **Conclusion**: ACHIEVED`). Read only when the reply has no conclusion heading at all.
 */
const PLAIN_LABEL = new RegExp(
  `^\\s*(?:[-*+]\\s+)?(\\*\\*|__)?(${Object.values(VERDICT_HEADINGS).flat().join('|')})\\s*(?:\\1\\s*[:：]|[:：]\\s*\\1)\\s*(.*)$`,
  'i',
);

/** The fields of a {@link Verdict}. */
export interface VerdictFields {
  state?: VerdictState;
  reason?: string;
  failed?: readonly string[];
}

/** A parsed verdict. Only ACHIEVED passes. */
export class Verdict {
  /** The conclusion. */
  readonly state: VerdictState;
  /** One or two sentences; for NOT_YET what is missing. */
  readonly reason: string;
  /** The checks that failed, one per entry; empty for "(none)". */
  readonly failed: readonly string[];

  constructor(fields: VerdictFields = {}) {
    this.state = fields.state ?? '';
    this.reason = (fields.reason ?? '').trim();
    this.failed = (fields.failed ?? []).map((item) => item.trim()).filter((item) => item !== '');
  }

  /** True only for ACHIEVED. */
  get ok(): boolean {
    return this.state === 'ACHIEVED';
  }

  /**
   * The prompt for the next round when this one was rejected (docs/go-path.md `onReject`): the goal was
   * missed, the judge's reason, the failed items, and to close only those gaps. '' when the verdict passed.
   */
  feedback(): string {
    if (this.ok) return '';
    const failed =
      this.failed.length === 0
        ? 'Failed items: none listed.'
        : `Failed items:\n${this.failed.map((item) => `- ${item}`).join('\n')}`;
    return [
      'The last round did not meet the goal: an independent judge checked the result and rejected it.',
      `Judge's reason: ${this.reason === '' ? 'none given' : this.reason}`,
      failed,
      'Continue from where you are and close only these gaps. Do not start over, and do not widen the scope.',
    ].join('\n\n');
  }

  /**
   * Reads a judge's reply. The conclusion section must hold exactly one state word (canonical, any case,
   * `NOT YET`/`not-yet`, in backticks or bold, with a trailing period; or a Chinese word such as 已达成). A
   * longer conclusion with "can't verify" wording is UNREACHABLE; anything else — several states, none, "1 of
   * 5 checks failed" — is NOT_YET with {@link AMBIGUOUS_REASON}. Without a conclusion section, a whole reply
   * of one state word counts, and so does the reference's whole-reply `1`/`true` (ACHIEVED) or `0`/`false`.
   */
  static parse(text: string): Verdict {
    let sections = parseSections(text, VERDICT_HEADINGS);
    if (sections.state === undefined) {
      // "Conclusion: ACHIEVED" without markup, or as a list item, is how models often answer; read it only
      // when no conclusion heading exists, so a body line can never override a real heading
      // (decisions.md D109).
      sections = parseSections(text.split(/\r?\n/).map(plainLabelAsHeading).join('\n'), VERDICT_HEADINGS);
    }
    const reason = sections.reason ?? '';
    const failed = failedItems(sections.failed ?? '');
    const conclusion = sections.state ?? wholeReply(text);
    if (conclusion === null) return ambiguous(reason, failed);
    const state = stateOf(conclusion);
    if (state !== null) return new Verdict({ state, reason, failed });
    if (sections.state !== undefined && CANNOT_VERIFY.test(sections.state)) {
      return new Verdict({ state: 'UNREACHABLE', reason: reason === '' ? sections.state : reason, failed });
    }
    return ambiguous(reason, failed);
  }
}

/** The state named by a one-word conclusion, or null when it is not exactly one state word. */
function stateOf(conclusion: string): Exclude<VerdictState, ''> | null {
  const word = conclusion.replace(WRAPPING, '').trim();
  // Anything longer than one word, a second line included, joins into a key no state word has.
  return STATE_WORDS[word.toUpperCase().replace(/[\s-]+/g, '_')] ?? null;
}

/** The reply as a conclusion when it is one short line: a state word, or the reference's `1`/`0` rule. */
function wholeReply(text: string): string | null {
  const reply = text.replace(WRAPPING, '').trim().toLowerCase();
  if (reply === '1' || reply === 'true') return 'ACHIEVED';
  if (reply === '0' || reply === 'false') return 'NOT_YET';
  return stateOf(text) === null ? null : text;
}

function ambiguous(reason: string, failed: readonly string[]): Verdict {
  const full = reason === '' ? AMBIGUOUS_REASON : `${AMBIGUOUS_REASON} (judge's reason: ${reason})`;
  return new Verdict({ state: 'NOT_YET', reason: full, failed });
}

/** The items of the Failed section; "(none)", "none", "无" and the like mean no items. */
function failedItems(body: string): string[] {
  return listItems(body).filter(
    (item) => !/^[(（]?\s*(?:none|nothing|n\/a|无|没有)\s*[)）]?[.。]?$/i.test(item),
  );
}

function plainLabelAsHeading(line: string): string {
  const match = PLAIN_LABEL.exec(line);
  return match === null ? line : `## ${match[2] ?? ''}\n${match[3] ?? ''}`;
}
