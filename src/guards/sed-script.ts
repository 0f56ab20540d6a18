/**
 * Decides whether a sed script only prints. sed writes through its own commands, not only through `-i`:
 * `w file` / `W file`, the `w file` flag of `s`, and runs programs with `e` and the `e` flag of `s`. A
 * substring test cannot tell `s/hello/world/` (harmless, contains `w` and `e`) from `s/a/b/w out`, so this
 * walks the script command by command (GNU syntax, which is a superset of POSIX) and refuses anything it
 * does not recognise.
 *
 * @module
 */

/** Commands that take no argument (`l`, `q`, `Q`, `L` may take a number, handled separately). */
const PLAIN_COMMANDS = '=dDgGhHnNpPxzF';

class SedScanner {
  position = 0;

  constructor(readonly script: string) {}

  /** The character at the cursor (a method, not a getter, so TypeScript does not narrow it). */
  peek(): string | undefined {
    return this.script[this.position];
  }

  /** True when the character at the cursor matches the one-character pattern. */
  at(pattern: RegExp): boolean {
    const character = this.peek();
    return character !== undefined && pattern.test(character);
  }

  skipBlanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.position += 1;
  }

  /** Reads up to the unescaped delimiter; false when the script ends first. */
  skipDelimited(delimiter: string): boolean {
    while (this.peek() !== undefined) {
      if (this.peek() === '\\') {
        this.position += 2;
      } else if (this.peek() === delimiter) {
        this.position += 1;
        return true;
      } else if (this.peek() === '\n' && delimiter !== '\n') {
        return false;
      } else {
        this.position += 1;
      }
    }
    return false;
  }

  /** Skips to the end of the line (for text and file-name arguments). */
  skipLine(): void {
    while (this.peek() !== undefined && this.peek() !== '\n') {
      this.position += this.peek() === '\\' ? 2 : 1;
    }
  }

  /** Skips a label, which GNU ends at a newline or a semicolon. */
  skipLabel(): void {
    while (this.peek() !== undefined && this.peek() !== '\n' && this.peek() !== ';') this.position += 1;
  }

  skipDigits(): void {
    while (this.at(/[0-9]/)) this.position += 1;
  }

  /** Reads one address (`12`, `$`, `/re/I`, `\%re%`, `first~step`); false when none is there. */
  address(): boolean {
    const start = this.position;
    if (this.peek() === '$') {
      this.position += 1;
    } else if (this.at(/[0-9]/)) {
      this.skipDigits();
      if (this.peek() === '~') {
        this.position += 1;
        this.skipDigits();
      }
    } else if (this.peek() === '/' || this.peek() === '\\') {
      let delimiter = '/';
      if (this.peek() === '\\') {
        this.position += 1;
        delimiter = this.peek() ?? '';
        if (delimiter === '' || delimiter === '\n') return false;
      }
      this.position += 1;
      if (!this.skipDelimited(delimiter)) return false;
      while (this.peek() === 'I' || this.peek() === 'M') this.position += 1;
    }
    return this.position > start;
  }
}

/** Reads the `s` command after its letter; false when it writes, executes or is malformed. */
function substitution(scanner: SedScanner): boolean {
  const delimiter = scanner.peek();
  if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return false;
  scanner.position += 1;
  if (!scanner.skipDelimited(delimiter) || !scanner.skipDelimited(delimiter)) return false;
  // Flags: g, p, i/I, m/M and a number only; `w file` writes and `e` executes the pattern space.
  while (scanner.at(/[gpiImM0-9]/)) scanner.position += 1;
  return true;
}

/** Reads the `y` command after its letter. */
function transliteration(scanner: SedScanner): boolean {
  const delimiter = scanner.peek();
  if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return false;
  scanner.position += 1;
  return scanner.skipDelimited(delimiter) && scanner.skipDelimited(delimiter);
}

/** Reads one command after its address; false when it writes, executes or is not recognised. */
function command(scanner: SedScanner, letter: string): boolean {
  if (letter === 's') return substitution(scanner);
  if (letter === 'y') return transliteration(scanner);
  if (PLAIN_COMMANDS.includes(letter) || letter === '{' || letter === '}') return true;
  if ('lLqQ'.includes(letter)) {
    scanner.skipBlanks();
    scanner.skipDigits();
    return true;
  }
  if ('aic'.includes(letter) || letter === 'r' || letter === 'R') {
    // Text to append/insert/change, or a file to read: both run to the end of the line.
    scanner.skipLine();
    return true;
  }
  if (letter === ':' || letter === 'b' || letter === 't' || letter === 'T' || letter === 'v') {
    scanner.skipLabel();
    return true;
  }
  // w, W (write a file), e (execute) and anything unknown.
  return false;
}

/** True when the sed script only reads and prints (no `w`/`W`/`e` commands, no `w`/`e` flags). */
export function isReadOnlySedScript(script: string): boolean {
  const scanner = new SedScanner(script);
  for (;;) {
    while (scanner.at(/[\s;]/)) scanner.position += 1;
    if (scanner.peek() === undefined) return true;
    if (scanner.peek() === '#') {
      scanner.skipLine();
      continue;
    }
    if (scanner.address()) {
      scanner.skipBlanks();
      if (scanner.peek() === ',') {
        scanner.position += 1;
        scanner.skipBlanks();
        if (scanner.peek() === '+' || scanner.peek() === '~') {
          scanner.position += 1;
          scanner.skipDigits();
        } else if (!scanner.address()) {
          return false;
        }
      }
    }
    scanner.skipBlanks();
    while (scanner.peek() === '!') {
      scanner.position += 1;
      scanner.skipBlanks();
    }
    const letter = scanner.peek();
    if (letter === undefined) return false;
    scanner.position += 1;
    if (!command(scanner, letter)) return false;
    // A block may start with a command right after `{` (`/x/{p;q}`).
    if (letter === '{') continue;
    scanner.skipBlanks();
    const after = scanner.peek();
    if (after !== undefined && after !== ';' && after !== '\n' && after !== '}' && after !== '#')
      return false;
  }
}
