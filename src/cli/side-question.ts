/**
 * How the CLI shows a side question's answer (docs/human-channel.md): `[aside.head]`, the wrapped answer
 * (or `[aside.none]`), then `[aside.cost]`; a failure is one `[aside.fail]` line and never touches the run.
 * {@link answerSideQuestion} is what the live input line calls for a line starting with `?`; `flower ask`
 * uses the same pieces with the answer on stdout.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import { askOracle, type AskOracleOptions, type OracleAnswer } from '../workflow/ask-oracle.js';
import picocolors from 'picocolors';
import { renderWidth } from '../render/display-width.js';
import { markdownLines } from '../render/markdown-lines.js';
import { plainLines } from '../render/sanitize.js';
import type { LineStyle } from '../render/terminal-renderer.js';
import { wrapText } from '../render/wrap-text.js';

/** Indent of the answer's lines, as assistant text is indented in the event log. */
const INDENT = '  ';
const NO_COLORS = picocolors.createColors(false);

/** Where the aside lines go: a renderer's `print` fits. */
export type PrintLine = (text: string, style?: LineStyle) => void;

/**
 * The answer as screen lines: control sequences removed, each paragraph wrapped to `width` columns with a
 * two-space indent, blank lines between paragraphs kept (a model's answer often has a list after a lead).
 * On a terminal (a finite `width`) the oracle's Markdown is drawn (headings, lists, code; no colour, as the
 * aside's lines are printed plain); an infinite `width` means a pipe, which gets the text as written.
 */
export function answerLines(text: string, width: number): string[] {
  if (Number.isFinite(width)) {
    return markdownLines(text.trim(), { width, first: INDENT, next: INDENT, colors: NO_COLORS });
  }
  const lines: string[] = [];
  for (const line of plainLines(text.trim())) {
    if (line.trim() === '') {
      if (lines.length > 0 && lines.at(-1) !== '') lines.push('');
      continue;
    }
    lines.push(...wrapText(line, width, { first: INDENT, next: INDENT, splitLongWords: false }));
  }
  return lines;
}

/** The `[aside.fail]` line for a failed answer: its text split into kind and message at the first `: `. */
export function failLine(text: string, lang: Lang): string {
  const colon = text.indexOf(': ');
  const [kind, message] = colon > 0 ? [text.slice(0, colon), text.slice(colon + 2)] : ['error', text];
  return uiText('aside.fail', { t: kind, m: message }, lang);
}

/** The `[aside.cost]` line. */
export function costLine(answer: OracleAnswer, lang: Lang): string {
  return uiText('aside.cost', { c: answer.costUsd.toFixed(4) }, lang);
}

/** Prints an answer with `print`: head, wrapped answer or `[aside.none]`, cost; or the failure line. */
export function printAside(
  answer: OracleAnswer,
  print: PrintLine,
  options: { width: number; lang: Lang },
): void {
  if (!answer.ok) {
    print(failLine(answer.text, options.lang), 'red');
    return;
  }
  print(uiText('aside.head', {}, options.lang), 'bold');
  const lines = answerLines(answer.text, options.width);
  if (lines.length === 0) print(uiText('aside.none', {}, options.lang), 'dim');
  else for (const line of lines) print(line);
  print(costLine(answer, options.lang), 'dim');
}

/** Options of {@link answerSideQuestion}: the oracle's, with the recent lines read when the question comes. */
export interface SideQuestionOptions extends Omit<AskOracleOptions, 'recent'> {
  /** The run's recent window lines at the moment of asking (e.g. `() => window.lines()`). */
  recent: () => readonly string[];
  /** Prints the aside lines (the run's renderer). */
  print: PrintLine;
  /** Line width; 80 by default. */
  width?: number;
  lang?: Lang;
}

/**
 * Answers a side question for the live input line and prints the answer. Never rejects; resolves to the
 * answer once printed, so the caller can wait for pending answers before exiting.
 */
export async function answerSideQuestion(
  question: string,
  options: SideQuestionOptions,
): Promise<OracleAnswer> {
  const { recent, print, width, lang, ...oracleOptions } = options;
  // Said before the oracle's session starts (seconds): without it the typed line seems to have gone nowhere.
  print(uiText('aside.asking', {}, lang ?? 'en'), 'dim');
  const answer = await askOracle(question, { ...oracleOptions, recent: recent() });
  printAside(answer, print, { width: width ?? renderWidth(undefined), lang: lang ?? 'en' });
  return answer;
}
