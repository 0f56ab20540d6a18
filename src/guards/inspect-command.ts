/**
 * `isInspectCommand(command)` — what a judge with `canRun: 'inspect'` may run (decisions.md D101): the glance
 * set, plus the commands that tell what an artifact *is* without changing anything: `file`, `ldd`, `otool
 * -L`,
 * `lipo -info`, `readelf -h`, checksums, and `<program> --version`. In the reference's HT001 run the
 * criterion "runs directly in a macOS terminal" was passed on a Makefile's Darwin branch while `file` said
 * the binary was an aarch64 Linux ELF; a judge that can only read source repeats that. Full Bash would
 * let it "fix, then pass". This list inspects without write power.
 *
 * Compounds are judged per command, like glances: every command joined by `&&` `||` `;` `|` or a newline
 * must be a glance or an inspection. Fails closed: assignments, expansions in the version form, any
 * redirection other than to `/dev/null` or between descriptors, and unknown options are refused.
 *
 * Two commands run code by design, and are accepted because the allowlist of decisions.md D101 names them:
 * `ldd` may execute the program it inspects on some systems (glibc's ldd traces by loading it), and
 * `<program> --version` runs the program. Neither is given any other argument, so a well-behaved program only
 * prints.
 *
 * @module
 */
import { expansionsAllowed, parseArguments, usesOnlyOptions, type OptionSet } from './command-options.js';
import { isEphemeral, MAX_GLANCE_LENGTH } from './ephemeral-command.js';
import { parseShellCommand, type Redirection, type ShellWord, type SimpleCommand } from './shell-words.js';

/** An inspection verb's rule over the arguments after the verb. */
type InspectRule = (args: readonly ShellWord[]) => boolean;

/** `-L`, `-h`, `-l`, … : otool only ever prints; these are its display options. */
const OTOOL_OPTIONS: OptionSet = { letters: 'LhlfavVD' };

const LDD_OPTIONS: OptionSet = {
  letters: 'vudr',
  names: ['verbose', 'unused', 'data-relocs', 'function-relocs', 'version', 'help'],
};

/** lipo's query operations; every other one (`-create`, `-thin`, `-output`, …) writes a file. */
const LIPO_QUERIES: ReadonlySet<string> = new Set(['-info', '-detailed_info', '-archs', '-verify_arch']);

/** Checksum tools: they read files and print digests (`--check` verifies against a list, also read-only). */
const CHECKSUM_VERBS: readonly string[] = [
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'shasum',
];

const INSPECT_RULES: ReadonlyMap<string, InspectRule> = new Map<string, InspectRule>([
  ['ldd', (args) => withOptions(args, LDD_OPTIONS)],
  ['otool', (args) => withOptions(args, OTOOL_OPTIONS)],
  ['lipo', lipoQuery],
  // readelf has no option that writes or executes; every form only prints.
  ['readelf', (args) => expansionsAllowed(args, 'anchored')],
  ...CHECKSUM_VERBS.map((verb): [string, InspectRule] => [
    verb,
    (args) => expansionsAllowed(args, 'anchored'),
  ]),
]);

/**
 * Shell builtins and keywords that give `--version` a meaning of their own (run, source, exit, re-execute),
 * so `<verb> --version` with them is not a version query. zsh's `r` re-runs the last command.
 */
const NOT_A_PROGRAM: ReadonlySet<string> = new Set(
  (
    '. source eval exec command builtin cd pushd popd trap set unset export declare typeset local readonly ' +
    'alias unalias read mapfile readarray shift exit logout return kill fc r history hash enable ulimit umask ' +
    'wait bg fg disown suspend times shopt let time coproc function select if then else elif fi for while ' +
    'until do done case esac in noglob nocorrect autoload zmodload sched repeat setopt unsetopt emulate'
  ).split(' '),
);

/** A program named by a plain word or a path: letters, digits and `_ . / + -`, not starting with `-`. */
const PROGRAM_WORD = /^[\w./+][\w./+-]*$/;

/**
 * True when `command` only inspects: every simple command in it is a glance (`isEphemeral`) or one of the
 * inspection commands above. Pure and synchronous.
 */
export function isInspectCommand(command: string): boolean {
  if (isEphemeral(command)) return true;
  if (typeof command !== 'string' || command.trim() === '' || command.length > MAX_GLANCE_LENGTH)
    return false;
  const parsed = parseShellCommand(command);
  if (!parsed.ok) return false;
  // A background job outlives the call and may never end.
  if (parsed.connectors.includes('&')) return false;
  return parsed.commands.every((simple) => isInspection(simple) || isLiteralGlance(simple));
}

/** True for one inspection command: a known verb whose arguments pass its rule, or `<program> --version`. */
function isInspection(command: SimpleCommand): boolean {
  if (!command.redirections.every(discardsOrDuplicates)) return false;
  const [verb, ...args] = command.words;
  // An assignment prefix (`LD_PRELOAD=…`) is a word with `=` before the verb; PROGRAM_WORD refuses it.
  if (verb === undefined || verb.expands || !PROGRAM_WORD.test(verb.text)) return false;
  const rule = INSPECT_RULES.get(verb.text.toLowerCase());
  if (rule !== undefined && rule(args)) return true;
  return isVersionQuery(verb, args);
}

function isVersionQuery(verb: ShellWord, args: readonly ShellWord[]): boolean {
  const [only, ...rest] = args;
  if (only === undefined || rest.length > 0 || only.expands || only.text !== '--version') return false;
  const name = verb.text.toLowerCase();
  return name.length > 1 && !NOT_A_PROGRAM.has(name);
}

function withOptions(args: readonly ShellWord[], allowed: OptionSet): boolean {
  return expansionsAllowed(args, 'anchored') && usesOnlyOptions(parseArguments(args), allowed);
}

/** lipo with one query operation; its single-dash long options are not getopt clusters. */
function lipoQuery(args: readonly ShellWord[]): boolean {
  if (!expansionsAllowed(args, 'anchored')) return false;
  const options = args.filter((word) => !word.expands && word.text.startsWith('-'));
  return options.length > 0 && options.every((word) => LIPO_QUERIES.has(word.text));
}

/** Output to `/dev/null`, or one descriptor duplicated onto another (`2>&1`). Nothing is read or written. */
function discardsOrDuplicates(redirection: Redirection): boolean {
  const target = redirection.target;
  if (target.expands) return false;
  switch (redirection.operator) {
    case '>':
    case '>>':
    case '&>':
    case '&>>':
      return target.text === '/dev/null';
    case '>&':
      return /^\d+$/.test(target.text) || target.text === '/dev/null';
    default:
      return false;
  }
}

/**
 * True when one simple command is a glance. The glance classifier judges whole command lines, so the
 * command is written back as a line of single-quoted words, which the classifier reads as the same words.
 * That is exact only for words the shell does not expand (quoting would stop the expansion), so a command
 * with a glob or `$X` fails here; such a glance still passes when the whole line is one (`isEphemeral`
 * above), and in a mixed line it is refused — closed, not open.
 */
function isLiteralGlance(command: SimpleCommand): boolean {
  if (command.words.some((word) => word.expands)) return false;
  if (command.redirections.some((redirection) => redirection.target.expands)) return false;
  const words = command.words.map((word) => singleQuoted(word.text));
  const redirections = command.redirections.map(
    (redirection) =>
      `${redirection.descriptor ?? ''}${redirection.operator}${singleQuoted(redirection.target.text)}`,
  );
  return isEphemeral([...words, ...redirections].join(' '));
}

function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
