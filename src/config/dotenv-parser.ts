/**
 * The `.env` parser (docs/configuration.md, decisions.md D18). Per line: trim; skip blank lines, `#` comments
 * and lines without `=`; strip a leading `export `; split at the first `=`; trim both sides. A value wrapped
 * in a matching quote pair is taken literally between the quotes (an ` # comment` may follow the closing
 * quote); an unquoted value loses a trailing comment that starts with whitespace + `#`. An empty value does
 * not claim its key, nothing is interpolated, and the first line for a key wins (as with the file chain).
 * Odd lines are reported by file and line number, never with their value, because values are secrets.
 *
 * @module
 */

/** A line the parser skipped or could not read cleanly. */
export interface DotenvProblem {
  /** The file the line came from (as given to the parser). */
  file: string;
  /** 1-based line number; 0 for a problem with the whole file. */
  line: number;
  /**
   * `unpaired-quote`: the value starts or ends with a quote that has no partner; it is kept as written.
   * `no-equals`: a non-comment line without `=`; skipped. `bad-key`: the name is not a valid variable name;
   * skipped. `unreadable`: the file exists but could not be read. `nul-byte`: the line holds a NUL byte,
   * which no environment variable can carry (starting Claude Code with it fails); skipped, and the loader
   * refuses the file.
   */
  problem: 'unpaired-quote' | 'no-equals' | 'bad-key' | 'unreadable' | 'nul-byte';
}

/** The result of {@link parseDotenv}: the values that claim their keys, and the odd lines. */
export interface ParsedDotenv {
  values: Record<string, string>;
  problems: DotenvProblem[];
}

const VALID_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const EXPORT_PREFIX = /^export\s+/;
const QUOTES = new Set(['"', "'"]);
// A closing quote followed by an inline comment: `"value"  # note`. Non-greedy, so the first such quote closes.
const QUOTED_WITH_COMMENT = /^(["'])(.*?)\1\s+#.*$/s;
// An inline comment on an unquoted value needs whitespace before `#`, so `pa#ss` keeps its `#`.
const INLINE_COMMENT = /\s#.*$/s;

type ValueResult = { value: string; unpaired: boolean };

function readValue(raw: string): ValueResult {
  const value = raw.trim();
  const first = value.charAt(0);
  if (QUOTES.has(first)) {
    if (value.length >= 2 && value.endsWith(first)) return { value: value.slice(1, -1), unpaired: false };
    const commented = QUOTED_WITH_COMMENT.exec(value);
    if (commented) return { value: commented[2] ?? '', unpaired: false };
    return { value, unpaired: true };
  }
  const uncommented = raw.replace(INLINE_COMMENT, '').trim();
  return { value: uncommented, unpaired: QUOTES.has(uncommented.slice(-1)) };
}

type SplitLine =
  { kind: 'skip' | 'no-equals' | 'bad-key' | 'nul-byte' } | { kind: 'entry'; key: string; rawValue: string };

function splitLine(rawLine: string): SplitLine {
  const line = rawLine.trim();
  if (line === '' || line.startsWith('#')) return { kind: 'skip' };
  if (line.includes('\0')) return { kind: 'nul-byte' };
  const equals = line.indexOf('=');
  if (equals < 0) return { kind: 'no-equals' };
  const key = line.slice(0, equals).trim().replace(EXPORT_PREFIX, '');
  if (!VALID_KEY.test(key)) return { kind: 'bad-key' };
  return { kind: 'entry', key, rawValue: line.slice(equals + 1) };
}

/**
 * The key a `.env` line assigns, read as {@link parseDotenv} reads it, or `null` for a blank, comment,
 * `=`-less or bad-key line. Setup uses it to find the lines it replaces.
 */
export function dotenvLineKey(rawLine: string): string | null {
  const split = splitLine(rawLine);
  return split.kind === 'entry' ? split.key : null;
}

/**
 * Parse `.env` text. `values` holds only non-empty values (an empty value leaves the key to later sources);
 * `problems` lists every odd line with `file` set to the `file` argument.
 */
export function parseDotenv(text: string, file = '.env'): ParsedDotenv {
  const values: Record<string, string> = {};
  const problems: DotenvProblem[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  lines.forEach((rawLine, index) => {
    const split = splitLine(rawLine);
    if (split.kind === 'skip') return;
    if (split.kind !== 'entry') {
      problems.push({ file, line: index + 1, problem: split.kind });
      return;
    }
    const { value, unpaired } = readValue(split.rawValue);
    if (unpaired) problems.push({ file, line: index + 1, problem: 'unpaired-quote' });
    if (value !== '' && !Object.hasOwn(values, split.key)) values[split.key] = value;
  });
  return { values, problems };
}
