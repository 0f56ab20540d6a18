/**
 * A quote-aware splitter for the small subset of shell that a read-only glance may use: simple commands
 * joined by `&&` `||` `;` `|` `|&` `&` or a newline, with words, quotes, escapes, globs, plain parameter
 * expansions and redirections. Anything outside that subset (command or process substitution, here-docs,
 * subshells, `case` terminators, ANSI-C quoting, unterminated quotes, a lone carriage return) is refused
 * with a reason, so a caller that wants to fail closed only has to check `ok`.
 *
 * Why not `shell-quote` (1.8.3, now a dev dependency that only pins these gaps): it was the first choice, and a pre-pass around it
 * was tried on paper, but each of its gaps below makes it see a different command from the one bash
 * runs, and a pre-pass that closes them has to track the full quoting state anyway — at which point
 * emitting the words is a few more lines. Gaps, each pinned by a test in `shell-words.test.ts`:
 * - an unquoted newline is plain whitespace, so `git status⏎rm -rf x` looks like one command;
 * - a `#` in the middle of a word starts a comment and the rest of the line is dropped, so
 *   `echo a#b; rm -rf x` parses as just `echo a` (bash runs the `rm`);
 * - `"$(rm x)"` and `` "`rm x`" `` inside double quotes come back as literal text;
 * - an IO number is split off as its own word (`2>f` → `2`, `>`, `f`) and `&>` is indistinguishable
 *   from `& >`;
 * - `$VAR` silently becomes an empty string, and an unterminated quote is accepted.
 *
 * Bash and zsh (the Bash tool runs the user's shell) agree on everything this subset accepts: zsh's glob
 * qualifiers and `=(…)` need an unquoted parenthesis, which is refused here.
 *
 * @module
 */

/** One word after quote removal, with what the shell would still do to it. */
export interface ShellWord {
  /** The text after quote removal; expansions are left as written (`$HOME`, `*.ts`). */
  readonly text: string;
  /** True when the shell would expand the word (glob, brace or parameter), so its final form is unknown. */
  readonly expands: boolean;
  /** True when the word holds a parameter expansion (`$X`), which may also split into several words. */
  readonly hasParameter: boolean;
  /** True when the first character is literal text, not the start of an expansion. */
  readonly literalStart: boolean;
}

/** The redirection operators the subset accepts (here-docs `<<` are refused by the parser). */
export type RedirectionOperator = '<' | '>' | '>>' | '>|' | '<>' | '<<<' | '>&' | '<&' | '&>' | '&>>';

/** A redirection attached to a simple command. */
export interface Redirection {
  readonly operator: RedirectionOperator;
  /** The IO number written before the operator (`2` in `2>&1`), if any. */
  readonly descriptor: number | undefined;
  readonly target: ShellWord;
}

/** A command with its words (assignments and verb included) and its redirections, in order. */
export interface SimpleCommand {
  readonly words: readonly ShellWord[];
  readonly redirections: readonly Redirection[];
}

/** What ended a command. A newline that separates two commands is reported as `;`. */
export type Connector = '&&' | '||' | ';' | '|' | '|&' | '&';

/** The result of {@link parseShellCommand}. */
export type ShellParse =
  | {
      readonly ok: true;
      readonly commands: readonly SimpleCommand[];
      readonly connectors: readonly Connector[];
    }
  | { readonly ok: false; readonly reason: string };

type Token =
  | { readonly kind: 'word'; readonly word: ShellWord }
  | { readonly kind: 'connector'; readonly connector: Connector }
  | { readonly kind: 'newline' }
  | {
      readonly kind: 'redirection';
      readonly operator: RedirectionOperator;
      readonly descriptor: number | undefined;
    };

class Refusal extends Error {}

function refuse(reason: string): never {
  throw new Refusal(reason);
}

/** Accumulates one word while the lexer walks its characters. */
class WordBuilder {
  text = '';
  quoted = false;
  glob = false;
  parameter = false;
  literalStart: boolean | undefined;
  private braceOpen = false;
  private braceSeparator = false;
  brace = false;

  literal(text: string, quoted: boolean): void {
    if (this.literalStart === undefined && text !== '') this.literalStart = true;
    if (quoted) this.quoted = true;
    this.text += text;
  }

  /** An unquoted character that bash may treat specially inside a word. */
  unquoted(character: string): void {
    if (character === '*' || character === '?' || character === '[') {
      this.startExpansion();
      this.glob = true;
    } else if (character === '{') {
      if (this.literalStart === undefined) this.literalStart = false;
      this.braceOpen = true;
    } else if (this.braceOpen && (character === ',' || (character === '.' && this.text.endsWith('.')))) {
      this.braceSeparator = true;
    } else if (character === '}' && this.braceOpen && this.braceSeparator) {
      this.brace = true;
    }
    if (this.literalStart === undefined) this.literalStart = true;
    this.text += character;
  }

  parameterExpansion(text: string): void {
    this.startExpansion();
    this.parameter = true;
    this.text += text;
  }

  emptyQuotes(): void {
    this.quoted = true;
  }

  get started(): boolean {
    return this.text !== '' || this.quoted;
  }

  get isIoNumber(): boolean {
    return !this.quoted && !this.glob && !this.parameter && /^\d+$/.test(this.text);
  }

  build(): ShellWord {
    const expands = this.glob || this.parameter || this.brace;
    return {
      text: this.text,
      expands,
      hasParameter: this.parameter,
      literalStart: this.literalStart !== false,
    };
  }

  private startExpansion(): void {
    if (this.literalStart === undefined) this.literalStart = false;
  }
}

const SPECIAL_PARAMETERS = '@*#?$!-0123456789';

/** A parameter name, matched in place (sticky) so a long command is not copied once per `$`. */
const NAME = /[A-Za-z_]\w*/y;

/** Reads a `$…` expansion starting at `index` (the `$`); returns the index after it. */
function readDollar(source: string, index: number, word: WordBuilder, inDoubleQuotes: boolean): number {
  const next = source[index + 1];
  if (next === '(') refuse('command substitution');
  if (next === '[') refuse('arithmetic expansion');
  if (
    next === undefined ||
    next === ' ' ||
    next === '\t' ||
    next === '\n' ||
    (inDoubleQuotes && next === '"')
  ) {
    word.literal('$', inDoubleQuotes);
    return index + 1;
  }
  if (!inDoubleQuotes && (next === "'" || next === '"')) refuse('ANSI-C or locale quoting');
  if (next === '{') {
    const close = source.indexOf('}', index + 2);
    const name = close < 0 ? '' : source.slice(index + 2, close);
    // Only a plain `${NAME}`: operators inside braces (`${X:-$(…)}`, `${X:=y}`) are out of the subset.
    if (!/^(?:[A-Za-z_]\w*|\d+|[@*#?$!-])$/.test(name)) refuse('parameter expansion with operators');
    word.parameterExpansion(source.slice(index, close + 1));
    return close + 1;
  }
  NAME.lastIndex = index + 1;
  const name = NAME.exec(source);
  if (name) {
    word.parameterExpansion(`$${name[0]}`);
    return index + 1 + name[0].length;
  }
  // `$1`, `$@`, `$?` … and zsh's `$=X` / `$~X` / `$+X` forms: all unknown at classification time.
  if (SPECIAL_PARAMETERS.includes(next) || '=~^+'.includes(next)) {
    word.parameterExpansion(`$${next}`);
    return index + 2;
  }
  // Bash keeps any other `$` literally; counting it as an expansion only ever denies more.
  word.parameterExpansion('$');
  return index + 1;
}

/** Reads a double-quoted string whose opening quote is at `index`; returns the index after the closing one. */
function readDoubleQuoted(source: string, index: number, word: WordBuilder): number {
  word.emptyQuotes();
  let position = index + 1;
  for (;;) {
    const character = source[position];
    if (character === undefined) refuse('unterminated double quote');
    if (character === '"') return position + 1;
    if (character === '`') refuse('command substitution');
    if (character === '$') {
      position = readDollar(source, position, word, true);
      continue;
    }
    if (character === '\\') {
      const escaped = source[position + 1];
      if (escaped === undefined) refuse('unterminated double quote');
      if (escaped === '\n') {
        position += 2;
        continue;
      }
      word.literal('$`"\\'.includes(escaped) ? escaped : `\\${escaped}`, true);
      position += 2;
      continue;
    }
    word.literal(character, true);
    position += 1;
  }
}

const OPERATOR_START = ';&|<>()';

/** Reads an operator at `index`; returns the token (or null for a newline-equivalent) and the next index. */
function readOperator(source: string, index: number, descriptor: number | undefined): [Token, number] {
  const rest = source.slice(index, index + 3);
  const redirection = (operator: RedirectionOperator, length: number): [Token, number] => [
    { kind: 'redirection', operator, descriptor },
    index + length,
  ];
  if (rest.startsWith('<(') || rest.startsWith('>(')) refuse('process substitution');
  if (rest.startsWith('<<<')) return redirection('<<<', 3);
  if (rest.startsWith('<<')) refuse('here-document');
  if (rest.startsWith('<>')) return redirection('<>', 2);
  if (rest.startsWith('<&')) return redirection('<&', 2);
  if (rest.startsWith('<')) return redirection('<', 1);
  if (rest.startsWith('>>')) return redirection('>>', 2);
  if (rest.startsWith('>|')) return redirection('>|', 2);
  if (rest.startsWith('>&')) return redirection('>&', 2);
  if (rest.startsWith('>')) return redirection('>', 1);
  if (rest.startsWith('&>>')) return redirection('&>>', 3);
  if (rest.startsWith('&>')) return redirection('&>', 2);
  const connector = (value: Connector, length: number): [Token, number] => [
    { kind: 'connector', connector: value },
    index + length,
  ];
  if (rest.startsWith('&&')) return connector('&&', 2);
  if (rest.startsWith('&')) return connector('&', 1);
  if (rest.startsWith('||')) return connector('||', 2);
  if (rest.startsWith('|&')) return connector('|&', 2);
  if (rest.startsWith('|')) return connector('|', 1);
  if (rest.startsWith(';;') || rest.startsWith(';&')) refuse('case terminator');
  if (rest.startsWith(';')) return connector(';', 1);
  return refuse('subshell, grouping or function syntax');
}

/** Splits the source into tokens; throws {@link Refusal} outside the subset. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let word = new WordBuilder();
  const finishWord = (): void => {
    if (word.started) tokens.push({ kind: 'word', word: word.build() });
    word = new WordBuilder();
  };
  let index = 0;
  while (index < source.length) {
    const character = source[index] as string;
    if (character === '\0') refuse('NUL character');
    if (character === ' ' || character === '\t') {
      finishWord();
      index += 1;
    } else if (character === '\n' || (character === '\r' && source[index + 1] === '\n')) {
      finishWord();
      tokens.push({ kind: 'newline' });
      index += character === '\r' ? 2 : 1;
    } else if (character === '\r') {
      // Bash keeps a lone CR inside the word; other tools split on it. Neither reading is safe to assume.
      refuse('carriage return outside quotes');
    } else if (character === '#' && !word.started) {
      const end = source.indexOf('\n', index);
      index = end < 0 ? source.length : end;
    } else if (character === "'") {
      const close = source.indexOf("'", index + 1);
      if (close < 0) refuse('unterminated single quote');
      word.emptyQuotes();
      word.literal(source.slice(index + 1, close), true);
      index = close + 1;
    } else if (character === '"') {
      index = readDoubleQuoted(source, index, word);
    } else if (character === '\\') {
      const escaped = source[index + 1];
      if (escaped === undefined) refuse('trailing backslash');
      if (escaped !== '\n') word.literal(escaped, true);
      index += 2;
    } else if (character === '$') {
      index = readDollar(source, index, word, false);
    } else if (character === '`') {
      refuse('command substitution');
    } else if (OPERATOR_START.includes(character)) {
      let descriptor: number | undefined;
      if ((character === '<' || character === '>') && word.isIoNumber) {
        descriptor = Number(word.text);
        word = new WordBuilder();
      } else if ((character === '<' || character === '>') && /^\{\w+\}$/.test(word.text) && !word.quoted) {
        refuse('named file descriptor');
      } else {
        finishWord();
      }
      const [token, next] = readOperator(source, index, descriptor);
      tokens.push(token);
      index = next;
    } else {
      word.unquoted(character);
      index += 1;
    }
  }
  finishWord();
  return tokens;
}

/** Groups tokens into simple commands and the connectors between them. */
function group(tokens: readonly Token[]): { commands: SimpleCommand[]; connectors: Connector[] } {
  const commands: SimpleCommand[] = [];
  const connectors: Connector[] = [];
  let words: ShellWord[] = [];
  let redirections: Redirection[] = [];
  // True right after `&&`, `||`, `|` or `|&`: a command must follow, and a newline there is a continuation.
  let needCommand = false;
  const empty = (): boolean => words.length === 0 && redirections.length === 0;
  const close = (connector: Connector): void => {
    commands.push({ words, redirections });
    connectors.push(connector);
    words = [];
    redirections = [];
  };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    if (token.kind === 'word') {
      words.push(token.word);
      needCommand = false;
    } else if (token.kind === 'redirection') {
      const target = tokens[index + 1];
      if (target?.kind !== 'word') refuse('redirection without a target');
      redirections.push({ operator: token.operator, descriptor: token.descriptor, target: target.word });
      needCommand = false;
      index += 1;
    } else if (token.kind === 'newline') {
      if (!empty()) close(';');
    } else {
      if (empty()) refuse(`nothing before '${token.connector}'`);
      close(token.connector);
      needCommand = token.connector !== ';' && token.connector !== '&';
    }
  }
  if (!empty()) {
    commands.push({ words, redirections });
  } else if (needCommand) {
    refuse('command missing after the last connector');
  }
  if (commands.length === 0) refuse('no command');
  return { commands, connectors };
}

/**
 * Splits a shell command into simple commands, the way bash would, or refuses when the command uses
 * anything outside the glance subset. Pure; never throws.
 */
export function parseShellCommand(source: string): ShellParse {
  try {
    const { commands, connectors } = group(tokenize(source));
    return { ok: true, commands, connectors };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  }
}
