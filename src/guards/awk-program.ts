/**
 * Decides whether an awk program only reads and prints. awk can run commands (`system()`, `"cmd" |
 * getline`, `print | "cmd"`) and write files (`print > "f"`, `print >> "f"`), and the reference also
 * refused `ENVIRON` (secrets) — but `>` is also the everyday comparison (`$3 > 100`) and `|` the regex
 * alternation (`/a|b/`). A light lexer tells them apart: strings and regex literals are skipped, `||` is
 * a logical or, any other `|` is a pipe, and a `>` counts as a redirection when it follows `print` or
 * `printf` in the same statement outside parentheses (`print (a > b)` compares).
 *
 * @module
 */

/** Names that run commands or read the environment, and gawk's `@` (extensions, indirect calls). */
const FORBIDDEN = /\b(?:system|getline|ENVIRON)\b|@/;

/** Keywords after which a `/` starts a regex, not a division. */
const KEYWORDS = new Set([
  'BEGIN',
  'END',
  'print',
  'printf',
  'return',
  'delete',
  'exit',
  'do',
  'else',
  'if',
  'while',
  'for',
  'in',
  'next',
  'nextfile',
  'function',
  'func',
]);

/** Sticky (matched in place) so a long program is not copied once per token. */
const IDENTIFIER = /[A-Za-z_]\w*/y;
const NUMBER = /[0-9.]+(?:[eE][-+]?\d+)?/y;

/** Returns the index after a string literal opening at `index`, or -1 when it is unterminated. */
function skipString(program: string, index: number): number {
  for (let position = index + 1; position < program.length; position++) {
    const character = program[position];
    if (character === '\\') position += 1;
    else if (character === '"') return position + 1;
    else if (character === '\n') return -1;
  }
  return -1;
}

/**
 * Returns the index after a regex literal opening at `index`, or -1 when it is unterminated or has a `/`
 * inside a bracket expression (awks disagree on whether that ends the regex, so refuse it).
 */
function skipRegex(program: string, index: number): number {
  let inBracket = false;
  for (let position = index + 1; position < program.length; position++) {
    const character = program[position];
    if (character === '\\') position += 1;
    else if (character === '\n') return -1;
    else if (inBracket && character === ']') inBracket = false;
    else if (character === '[') inBracket = true;
    else if (character === '/') return inBracket ? -1 : position + 1;
  }
  return -1;
}

/** True when the awk program cannot run a command, write a file or read the environment. */
export function isReadOnlyAwkProgram(program: string): boolean {
  if (FORBIDDEN.test(program)) return false;
  let depth = 0;
  // Paren depth at the `print`/`printf` of the current statement, or null outside a print statement.
  let printDepth: number | null = null;
  // Whether the last token can end an operand, which makes a following `/` a division.
  let afterOperand = false;
  let index = 0;
  while (index < program.length) {
    const character = program[index] as string;
    const next = program[index + 1];
    if (character === '#') {
      const end = program.indexOf('\n', index);
      index = end < 0 ? program.length : end;
    } else if (character === '\n' || character === ';' || character === '{' || character === '}') {
      printDepth = null;
      afterOperand = false;
      index += 1;
    } else if (character === ' ' || character === '\t' || character === '\r') {
      index += 1;
    } else if (character === '"') {
      index = skipString(program, index);
      if (index < 0) return false;
      afterOperand = true;
    } else if (character === '/' && !afterOperand) {
      index = skipRegex(program, index);
      if (index < 0) return false;
      afterOperand = true;
    } else if (character === '|') {
      if (next !== '|') return false;
      afterOperand = false;
      index += 2;
    } else if (character === '>') {
      if (printDepth !== null && depth <= printDepth) return false;
      afterOperand = false;
      index += next === '=' ? 2 : 1;
    } else if (character === '(') {
      depth += 1;
      afterOperand = false;
      index += 1;
    } else if (character === ')' || character === ']') {
      if (character === ')') depth -= 1;
      afterOperand = true;
      index += 1;
    } else if ((character === '+' || character === '-') && next === character) {
      // `x++ / 2` divides: an increment keeps whatever came before it.
      index += 2;
    } else if (/[A-Za-z_]/.test(character)) {
      IDENTIFIER.lastIndex = index;
      const word = IDENTIFIER.exec(program)?.[0] ?? character;
      if (word === 'print' || word === 'printf') printDepth = depth;
      afterOperand = !KEYWORDS.has(word);
      index += word.length;
    } else if (/[0-9.]/.test(character)) {
      NUMBER.lastIndex = index;
      index += NUMBER.exec(program)?.[0].length ?? 1;
      afterOperand = true;
    } else {
      afterOperand = false;
      index += 1;
    }
  }
  return true;
}
