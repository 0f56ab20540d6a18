/**
 * A model's Markdown drawn for a terminal: headings, bold, emphasis, lists, quotes and code become styled
 * lines wrapped at word boundaries with the caller's indent. `marked` parses; the drawing is ours, so the
 * wrapping follows the same CJK and punctuation rules as every other event line and colour follows the
 * renderer's `Colors` (none under `NO_COLOR`). Output that is not a terminal never comes here: a pipe or a
 * log file gets the model's text as it was written.
 *
 * @module
 */
import { Lexer, type Token, type Tokens } from 'marked';
import type { Colors } from 'picocolors/types.js';
import { plainLines } from './sanitize.js';
import { wrapText } from './wrap-text.js';

/** How to draw: the columns, the indent of the first and later lines, and the colours (identity = none). */
export interface MarkdownOptions {
  width: number;
  first: string;
  next: string;
  colors: Colors;
}

/** `text` (Markdown) as screen lines no wider than `options.width`, except a word or code line wider alone. */
export function markdownLines(text: string, options: MarkdownOptions): string[] {
  const lines: string[] = [];
  const tokens = new Lexer({ gfm: true }).lex(text);
  for (const token of tokens) {
    // A blank line in the source between two top-level blocks stays one blank line (a lead, then a list).
    if (token.type === 'space') separate(lines);
    else drawBlock(token, options.next, options, lines);
  }
  if (lines.length > 0) {
    // The caller's first-line prefix replaces the indent of the first line (e.g. a speaker's mark).
    lines[0] = options.first + (lines[0] ?? '').slice(options.next.length);
  }
  // A blank line between blocks keeps a heading apart from the paragraph above it, but never at the ends.
  while (lines.at(-1) === '') lines.pop();
  return lines;
}

function drawBlocks(tokens: readonly Token[], indent: string, options: MarkdownOptions, out: string[]): void {
  for (const token of tokens) drawBlock(token, indent, options, out);
}

function drawBlock(token: Token, indent: string, options: MarkdownOptions, out: string[]): void {
  const { colors } = options;
  const paragraph = (body: string, first = indent, next = indent): void => {
    // Colour sequences take no columns in the wrap's measure; a word wider than a line stays whole.
    out.push(...wrapText(body, options.width, { first, next, splitLongWords: false }));
  };
  switch (token.type) {
    case 'space':
      return;
    case 'heading': {
      const heading = token as Tokens.Heading;
      // The hashes stay: without colour (NO_COLOR) they are what still tells a heading from a sentence.
      const mark = `${'#'.repeat(heading.depth)} `;
      separate(out);
      paragraph(colors.bold(mark) + inline(heading.tokens, options, colors.bold));
      return;
    }
    case 'paragraph':
      paragraph(inline((token as Tokens.Paragraph).tokens, options));
      return;
    case 'text': {
      const textToken = token as Tokens.Text;
      paragraph(textToken.tokens === undefined ? clean(textToken.text) : inline(textToken.tokens, options));
      return;
    }
    case 'list': {
      const list = token as Tokens.List;
      const start = typeof list.start === 'number' ? list.start : 1;
      list.items.forEach((item, index) => {
        const bullet = list.ordered ? `${start + index}. ` : '- ';
        const box = item.task ? (item.checked === true ? '[x] ' : '[ ] ') : '';
        const hang = indent + ' '.repeat(bullet.length + box.length);
        const before = out.length;
        drawBlocks(item.tokens, hang, options, out);
        if (out.length === before) out.push(hang.trimEnd());
        const opened = out[before] ?? '';
        out[before] = indent + bullet + box + opened.slice(hang.length);
      });
      return;
    }
    case 'blockquote':
      drawBlocks((token as Tokens.Blockquote).tokens, `${indent}${colors.dim('|')} `, options, out);
      return;
    case 'code': {
      // Code is for copying: never wrapped, never cut; the terminal folds a line wider than the screen.
      for (const line of plainLines((token as Tokens.Code).text))
        out.push(indent + '    ' + colors.cyan(line));
      return;
    }
    case 'hr':
      out.push(indent + colors.dim('-'.repeat(Math.max(3, Math.min(40, options.width - indent.length)))));
      return;
    default:
      // Tables, HTML and anything newer: the source lines, untouched but for control characters.
      for (const line of plainLines(token.raw.replace(/\n+$/, ''))) {
        if (line.trim() !== '') paragraph(line);
      }
  }
}

/** A blank line before a heading unless the output is empty or already ends in one. */
function separate(out: string[]): void {
  if (out.length > 0 && out.at(-1) !== '') out.push('');
}

/** Inline tokens as one styled line; `outer` styles every word (a heading's bold). */
function inline(
  tokens: readonly Token[],
  options: MarkdownOptions,
  outer: (word: string) => string = same,
): string {
  const { colors } = options;
  return tokens
    .map((token) => {
      switch (token.type) {
        case 'strong':
          return inline((token as Tokens.Strong).tokens, options, (word) => outer(colors.bold(word)));
        case 'em':
          return inline((token as Tokens.Em).tokens, options, (word) => outer(colors.italic(word)));
        case 'del':
          return inline((token as Tokens.Del).tokens, options, (word) => outer(colors.strikethrough(word)));
        case 'codespan': {
          const code = clean((token as Tokens.Codespan).text);
          // Without colour the backticks are the only sign of code, so they stay.
          return options.colors.isColorSupported
            ? eachWord(code, (word) => outer(colors.cyan(word)))
            : `\`${code}\``;
        }
        case 'link': {
          const link = token as Tokens.Link;
          const label = inline(link.tokens, options, outer);
          // The address is what a person copies; it is shown unless the label already is the address.
          return link.text === link.href || link.autolink === true ? label : `${label} (${link.href})`;
        }
        case 'br':
          return ' ';
        case 'text':
        case 'escape': {
          const text = token as Tokens.Text;
          return text.tokens === undefined
            ? eachWord(clean(text.text), outer)
            : inline(text.tokens, options, outer);
        }
        default:
          return eachWord(clean(token.raw), outer);
      }
    })
    .join('');
}

/** Styles each whitespace-separated word on its own, so a style never spans a line break the wrap makes. */
function eachWord(text: string, style: (word: string) => string): string {
  if (style === same) return text;
  return text
    .split(/(\s+)/)
    .map((part) => (part === '' || /^\s+$/.test(part) ? part : style(part)))
    .join('');
}

function same(word: string): string {
  return word;
}

/** Model text with its line breaks turned to spaces and control sequences removed. */
function clean(text: string): string {
  return plainLines(text).join(' ');
}
