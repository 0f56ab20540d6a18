/**
 * The glance allowlist: every verb the coordinator may run itself, each with the rule that keeps it
 * read-only and terminating. The set is the reference's (docs/ephemeral-commands.md) plus `git tag`-style
 * list forms and `true`; a verb not in this table is never a glance. Adding a verb says two things at once
 * — the coordinator may run it, and its old results expire from context — so see
 * docs/ephemeral-commands.md before extending it.
 *
 * @module
 */
import { isReadOnlyAwkProgram } from './awk-program.js';
import {
  INERT,
  expansionsAllowed,
  optionRule,
  parseArguments,
  usesAnyOption,
  usesOnlyOptions,
  type CommandRule,
  type ParsedArguments,
} from './command-options.js';
import { GIT_RULE } from './git-commands.js';
import { isReadOnlySedScript } from './sed-script.js';
import type { ShellWord } from './shell-words.js';

/** find primaries that delete, run programs or write files (`-newer` only compares times: allowed). */
const FIND_ACTIONS: ReadonlySet<string> = new Set([
  '-delete',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-fls',
  '-fprint',
  '-fprint0',
  '-fprintf',
]);

/** Files that never reach end-of-file or wait for a terminal: reading one never terminates. */
export const ENDLESS_FILES: ReadonlySet<string> = new Set([
  '/dev/zero',
  '/dev/random',
  '/dev/urandom',
  '/dev/full',
  '/dev/tty',
  '/dev/console',
  '/dev/kmsg',
  '/proc/kmsg',
]);

/** Exactly one of the listed arguments, or (with `orNone`) no argument at all. */
function oneOf(allowed: readonly string[], orNone: boolean): CommandRule {
  return {
    expansions: 'none',
    accepts: (args) =>
      args.length === 0 ? orNone : args.length === 1 && allowed.includes(args[0]?.text ?? ''),
  };
}

/** sed: no in-place editing, no script file (unseen), and every script only prints. */
const SED: CommandRule = {
  expansions: 'anchored',
  accepts: (args) => {
    const parsed = parseArguments(args, {
      valueLetters: 'efl',
      valueNames: ['expression', 'file', 'line-length'],
    });
    // -i/-I (BSD) edit in place; -f/--file reads a script we cannot see.
    if (usesAnyOption(parsed, { letters: 'iIf', names: ['in-place', 'file'] })) return false;
    const expressions = parsed.options
      .filter((option) => option.name === 'e' || (option.long && 'expression'.startsWith(option.name)))
      .map((option) => option.value);
    if (expressions.length > 0) {
      return expressions.every((script) => script !== undefined && isReadOnlySedScript(script));
    }
    const script = parsed.positionals[0];
    return script !== undefined && !script.expands && isReadOnlySedScript(script.text);
  },
};

/**
 * awk: only -F, -v and program text; no program files, includes, extensions, dumps or profiles. awk stops
 * reading options at the program, so operands after it may be globs (`awk '{print $1}' *.log`); nothing up
 * to the program may expand (`-v x=$Y` could split into `-f evil.awk`).
 */
const AWK: CommandRule = {
  expansions: 'any',
  accepts: (args) => {
    const parsed = parseArguments(args, {
      valueLetters: 'Fve',
      valueNames: ['field-separator', 'assign', 'source'],
    });
    const allowed = {
      letters: 'FvePcbNS',
      names: ['field-separator', 'assign', 'source', 'posix', 'traditional', 're-interval'],
    };
    if (!usesOnlyOptions(parsed, allowed)) return false;
    const sources = parsed.options.filter((option) => option.name === 'e' || option.name === 'source');
    const program = sources.length > 0 ? undefined : parsed.positionals[0];
    const lastFixed = program === undefined ? args.length - 1 : args.indexOf(program);
    if (!expansionsAllowed(args.slice(0, lastFixed + 1), 'none')) return false;
    if (program !== undefined) return isReadOnlyAwkProgram(program.text);
    return (
      sources.length > 0 &&
      sources.every((option) => option.value !== undefined && isReadOnlyAwkProgram(option.value))
    );
  },
};

/** tail: never follow (`-f`, `-F`, `--follow`, obsolete `-5f` / `+5f`). */
const TAIL = optionRule({
  syntax: {
    valueLetters: 'ncs',
    valueNames: ['lines', 'bytes', 'sleep-interval', 'pid', 'max-unchanged-stats'],
  },
  forbidden: { letters: 'fF', names: ['follow'] },
  check: (parsed) => !parsed.positionals.some((word) => /^\+\d*[bcl]?f/.test(word.text)),
});

/** True when option `letter` is given with a positive count (`0` means "forever" to top). */
function hasPositiveCount(parsed: ParsedArguments, letter: string): boolean {
  return parsed.options.some((option) => option.name === letter && /^[1-9]\d*$/.test(option.value ?? ''));
}

/** top: batch mode with a positive iteration count (`-b -n 1`), or macOS logging mode (`-l 1`). */
const TOP = optionRule({
  expansions: 'none',
  syntax: { valueLetters: 'dnpuUoOwEel' },
  check: (parsed) =>
    hasPositiveCount(parsed, 'l') ||
    (usesAnyOption(parsed, { letters: 'b' }) && hasPositiveCount(parsed, 'n')),
});

/** lsof: no repeat mode (`-r`, `+r`), which never ends. Letters after a value-taking one are its value. */
const LSOF: CommandRule = {
  expansions: 'anchored',
  accepts: (args) =>
    args.every((word) => {
      if (!/^[-+]/.test(word.text)) return true;
      for (const letter of word.text.slice(1)) {
        if (letter === 'r') return false;
        if ('cdDegikosSTuxzZFfLmp'.includes(letter)) return true;
      }
      return true;
    }),
};

/**
 * date: no `-s`/`--set`, and operands only as `+FORMAT` (a bare operand sets the clock). `-v` and `-z`
 * take values on BSD/macOS; listing them keeps `date -v+1d 0101…` from hiding its clock-setting operand.
 * `-t` (old BSD: set the kernel's timezone offset) has no GNU meaning, so it is refused.
 */
const DATE = optionRule({
  expansions: 'none',
  syntax: {
    valueLetters: 'dfrsvz',
    attachedValueLetters: 'I',
    valueNames: ['date', 'file', 'reference', 'set'],
  },
  forbidden: { letters: 'st', names: ['set'] },
  check: (parsed) => parsed.positionals.every((word) => word.text.startsWith('+')),
});

/** env: print the environment only; a `NAME=value` or command operand runs a program. */
const ENV = optionRule({
  expansions: 'none',
  syntax: { valueLetters: 'u', valueNames: ['unset'] },
  maxPositionals: 0,
  check: (parsed) =>
    usesOnlyOptions(parsed, { letters: '0iu', names: ['null', 'ignore-environment', 'unset'] }),
});

/** `command -v|-V name…` queries; any other form runs the command. */
const COMMAND: CommandRule = {
  expansions: 'none',
  accepts: (args) => {
    const parsed = parseArguments(args);
    return usesOnlyOptions(parsed, { letters: 'pvV' }) && usesAnyOption(parsed, { letters: 'vV' });
  },
};

/** `type [-afpPt] name…` only ever describes names. */
const TYPE: CommandRule = {
  expansions: 'any',
  accepts: (args) => usesOnlyOptions(parseArguments(args), { letters: 'afpPt' }),
};

/** docker: `ps`, `images`, and `stats --no-stream` (plain `stats` streams forever). */
const DOCKER: CommandRule = {
  expansions: 'anchored',
  accepts: (args) => {
    const subcommand = args[0]?.text;
    if (subcommand === 'ps' || subcommand === 'images') return true;
    if (subcommand !== 'stats') return false;
    return args.some((word) => word.text === '--no-stream' || word.text === '--no-stream=true');
  },
};

/** Short letters and long names of kubectl flags that take a value, so the verb can be found after them. */
const KUBECTL_SYNTAX = {
  valueLetters: 'nlosLf',
  valueNames: ['namespace', 'selector', 'output', 'server', 'context', 'cluster', 'user', 'kubeconfig'],
};

/** kubectl: `get` only, never `--watch`. */
const KUBECTL = optionRule({
  syntax: KUBECTL_SYNTAX,
  forbidden: { letters: 'w', names: ['watch', 'watch-only'] },
  check: (parsed: ParsedArguments) => parsed.positionals[0]?.text === 'get',
});

/** systemctl: `status` only. */
const SYSTEMCTL = optionRule({
  syntax: { valueLetters: 'tpHMnoP', valueNames: ['type', 'property', 'host', 'machine', 'lines', 'output'] },
  check: (parsed) => parsed.positionals[0]?.text === 'status',
});

/** The allowlist, keyed by lower-case verb (the reference matched verbs case-insensitively). */
export const READ_ONLY_COMMANDS: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  ['git', GIT_RULE],
  // System information.
  ['ls', INERT],
  ['ll', INERT],
  ['dir', INERT],
  ['pwd', INERT],
  ['df', INERT],
  ['du', INERT],
  ['uptime', INERT],
  ['whoami', INERT],
  ['id', INERT],
  ['printenv', INERT],
  ['free', optionRule({ syntax: { valueLetters: 'sc' }, forbidden: { letters: 's', names: ['seconds'] } })],
  ['date', DATE],
  [
    'hostname',
    optionRule({
      expansions: 'none',
      forbidden: { letters: 'Fb', names: ['file', 'boot'] },
      maxPositionals: 0,
    }),
  ],
  ['env', ENV],
  // Processes and containers.
  ['ps', INERT],
  // `jobs -x cmd` runs cmd with job specs replaced by process group ids.
  ['jobs', optionRule({ expansions: 'none', forbidden: { letters: 'x' } })],
  ['pgrep', INERT],
  ['top', TOP],
  ['htop', oneOf(['--version', '-V', '--help', '-h'], false)],
  ['lsof', LSOF],
  ['netstat', optionRule({ forbidden: { letters: 'cw', names: ['continuous'] }, maxPositionals: 0 })],
  [
    'ss',
    optionRule({
      syntax: { valueLetters: 'fADFN' },
      forbidden: { letters: 'EKD', names: ['events', 'kill', 'diag'] },
    }),
  ],
  ['systemctl', SYSTEMCTL],
  ['docker', DOCKER],
  ['kubectl', KUBECTL],
  // Files.
  ['cat', INERT],
  ['head', INERT],
  ['tail', TAIL],
  ['wc', INERT],
  ['stat', INERT],
  [
    'file',
    optionRule({ syntax: { valueLetters: 'mfFeP' }, forbidden: { letters: 'C', names: ['compile'] } }),
  ],
  ['find', { expansions: 'anchored', accepts: (args) => !args.some((word) => FIND_ACTIONS.has(word.text)) }],
  // tree -o writes its listing to a file; -R re-runs tree in every directory with -o 00Tree.html.
  ['tree', optionRule({ forbidden: { letters: 'oR', names: ['output'] } })],
  ['echo', INERT],
  ['true', INERT],
  // Filters.
  ['grep', INERT],
  ['egrep', INERT],
  ['fgrep', INERT],
  // --pre runs a program on every file; --hostname-bin runs one to name the host.
  ['rg', optionRule({ forbidden: { names: ['pre', 'hostname-bin'] } })],
  [
    'sort',
    optionRule({
      syntax: {
        valueLetters: 'koStTy',
        valueNames: ['key', 'output', 'buffer-size', 'field-separator', 'temporary-directory', 'files0-from'],
      },
      forbidden: { letters: 'o', names: ['output', 'compress-program'] },
    }),
  ],
  // A second operand is the output file.
  [
    'uniq',
    optionRule({
      expansions: 'none',
      syntax: { valueLetters: 'fsw', valueNames: ['skip-fields', 'skip-chars', 'check-chars'] },
      maxPositionals: 1,
    }),
  ],
  ['cut', INERT],
  ['tr', INERT],
  ['awk', AWK],
  ['sed', SED],
  ['column', INERT],
  ['jq', INERT],
  ['nl', INERT],
  ['rev', INERT],
  ['comm', INERT],
  ['diff', INERT],
  // Locating programs (added after the reference's HT001 run, whose one coordinator denial was a `which`
  // probe).
  ['which', INERT],
  ['whereis', INERT],
  ['uname', INERT],
  // macOS `arch -x86_64 prog` runs prog.
  ['arch', oneOf([], true)],
  ['locale', INERT],
  ['nproc', INERT],
  ['getconf', INERT],
  ['sw_vers', INERT],
  ['command', COMMAND],
  ['type', TYPE],
]);

/**
 * The rule for a verb, or undefined when the verb is not a glance. Keys are plain names, so a path
 * (`./ls`, `/bin/rm`) or an expansion (`$CMD`, `l*`) never matches one.
 */
export function readOnlyRule(verb: ShellWord): CommandRule | undefined {
  return READ_ONLY_COMMANDS.get(verb.text.toLowerCase());
}
