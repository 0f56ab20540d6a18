/**
 * The read-only forms of `git`. Most read subcommands are safe with any option, but several subcommands
 * read or write depending on their operands (`git branch` lists, `git branch x` creates; `git config k`
 * reads, `git config k v` writes), and every diff-producing one accepts `--output=<file>`. So: a small set
 * of global options, an allowlist of subcommands, and for the dual-use ones an allowlist of options and an
 * operand rule.
 *
 * @module
 */
import {
  expansionsAllowed,
  parseArguments,
  usesAnyOption,
  usesOnlyOptions,
  type CommandRule,
  type OptionSet,
  type OptionSyntax,
  type ParsedArguments,
} from './command-options.js';
import type { ShellWord } from './shell-words.js';

type SubcommandRule = (args: readonly ShellWord[]) => boolean;

/** Read subcommands with no write form: any option is fine, operands are paths, revisions or patterns. */
const ANY_OPTIONS: SubcommandRule = () => true;

/** Options of `git branch` and `git tag` that list; both take the same filter values. */
const LIST_FILTER_NAMES = ['contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format'];

/** Builds the rule for `git branch` / `git tag`: list forms only; operands only as `--list` patterns. */
function listOnly(letters: string, extraNames: readonly string[], syntax: OptionSyntax): SubcommandRule {
  const allowed: OptionSet = {
    letters,
    names: [
      ...LIST_FILTER_NAMES,
      ...extraNames,
      'list',
      'color',
      'no-color',
      'column',
      'no-column',
      'ignore-case',
      'omit-empty',
    ],
  };
  return (args) => {
    if (!expansionsAllowed(args, 'none')) return false;
    const parsed = parseArguments(args, { ...syntax, valueNames: LIST_FILTER_NAMES });
    if (!usesOnlyOptions(parsed, allowed)) return false;
    // An operand without --list names a branch or tag to create.
    return parsed.positionals.length === 0 || usesAnyOption(parsed, { letters: 'l', names: ['list'] });
  };
}

const CONFIG_READ_MODES: OptionSet = {
  letters: 'l',
  names: ['get', 'get-all', 'get-regexp', 'get-urlmatch', 'get-color', 'get-colorbool', 'list'],
};

const CONFIG_OPTIONS: OptionSet = {
  letters: 'lzf',
  names: [
    ...(CONFIG_READ_MODES.names ?? []),
    ...['global', 'system', 'local', 'worktree', 'file', 'blob', 'includes', 'no-includes'],
    ...['show-origin', 'show-scope', 'name-only', 'null', 'type', 'no-type', 'bool', 'int', 'bool-or-int'],
    ...['path', 'expiry-date', 'default', 'fixed-value', 'all', 'regexp', 'url', 'value'],
  ],
};

/** `git config`: `get`/`list` subcommands, a read mode flag, or exactly one dotted key (implicit get). */
function config(args: readonly ShellWord[]): boolean {
  if (!expansionsAllowed(args, 'none')) return false;
  const first = args[0]?.text;
  const parsed = parseArguments(args, { valueLetters: 'f', valueNames: ['file', 'blob', 'type', 'default'] });
  if (!usesOnlyOptions(parsed, CONFIG_OPTIONS)) return false;
  // Git ≥ 2.46 dispatches on the first word; set, unset, rename-section, remove-section and edit write.
  if (first === 'get' || first === 'list') return true;
  if (usesAnyOption(parsed, CONFIG_READ_MODES)) return true;
  // Legacy form: one operand reads it, two set it. Keys always hold a dot, subcommand names never do.
  return parsed.positionals.length === 1 && (parsed.positionals[0] as ShellWord).text.includes('.');
}

/** `git remote`, `git remote -v`, `git remote get-url <name>`, `git remote show -n <name>`. */
function remote(args: readonly ShellWord[]): boolean {
  if (!expansionsAllowed(args, 'none')) return false;
  let rest = args;
  while (rest[0]?.text === '-v' || rest[0]?.text === '--verbose') rest = rest.slice(1);
  const subcommand = rest[0]?.text;
  if (subcommand === undefined) return true;
  const parsed = parseArguments(rest.slice(1));
  if (subcommand === 'get-url') {
    return usesOnlyOptions(parsed, { names: ['push', 'all'] }) && parsed.positionals.length === 1;
  }
  // Without -n, `show` contacts the remote, which may prompt for credentials and never return.
  if (subcommand === 'show') {
    return usesOnlyOptions(parsed, { letters: 'n' }) && usesAnyOption(parsed, { letters: 'n' });
  }
  return false;
}

/** `git symbolic-ref <name>` reads; a second operand, `-d` or `-m` writes. */
function symbolicRef(args: readonly ShellWord[]): boolean {
  if (!expansionsAllowed(args, 'none')) return false;
  const parsed = parseArguments(args);
  return (
    usesOnlyOptions(parsed, { letters: 'q', names: ['quiet', 'short', 'recurse', 'no-recurse'] }) &&
    parsed.positionals.length === 1
  );
}

/** `git reflog [show|list|exists|HEAD] …`; expire, delete, drop and write change the reflog. */
function reflog(args: readonly ShellWord[]): boolean {
  const first = args[0];
  if (first === undefined) return true;
  if (first.expands) return false;
  return first.text.startsWith('-') || ['show', 'list', 'exists', 'HEAD'].includes(first.text);
}

/** `git stash list|show …`; a bare `git stash` pushes. */
function stash(args: readonly ShellWord[]): boolean {
  const first = args[0];
  return first !== undefined && !first.expands && (first.text === 'list' || first.text === 'show');
}

/** `git worktree list [options]`. */
function worktree(args: readonly ShellWord[]): boolean {
  if (!expansionsAllowed(args, 'none') || args[0]?.text !== 'list') return false;
  return parseArguments(args.slice(1), { valueNames: ['expire'] }).positionals.length === 0;
}

/** Builds a rule that refuses some options of a read subcommand. */
function without(forbidden: OptionSet, syntax: OptionSyntax = {}): SubcommandRule {
  return (args) => !usesAnyOption(parseArguments(args, syntax), forbidden);
}

/** The allowed subcommands, lower-case. */
const SUBCOMMANDS: ReadonlyMap<string, SubcommandRule> = new Map<string, SubcommandRule>([
  ['status', ANY_OPTIONS],
  ['diff', ANY_OPTIONS],
  ['log', ANY_OPTIONS],
  ['show', ANY_OPTIONS],
  ['whatchanged', ANY_OPTIONS],
  ['shortlog', ANY_OPTIONS],
  ['blame', ANY_OPTIONS],
  ['ls-files', ANY_OPTIONS],
  ['ls-tree', ANY_OPTIONS],
  ['rev-parse', ANY_OPTIONS],
  ['rev-list', ANY_OPTIONS],
  ['describe', ANY_OPTIONS],
  ['cherry', ANY_OPTIONS],
  ['for-each-ref', ANY_OPTIONS],
  ['show-ref', ANY_OPTIONS],
  ['merge-base', ANY_OPTIONS],
  ['name-rev', ANY_OPTIONS],
  ['cat-file', ANY_OPTIONS],
  ['count-objects', ANY_OPTIONS],
  ['check-ignore', ANY_OPTIONS],
  ['var', ANY_OPTIONS],
  ['version', ANY_OPTIONS],
  // -w stores the object in the repository.
  ['hash-object', without({ letters: 'w' }, { valueLetters: 't' })],
  // -O / --open-files-in-pager runs a program on the matches.
  ['grep', without({ letters: 'O', names: ['open-files-in-pager'] }, { valueLetters: 'efABCm' })],
  ['branch', listOnly('arvli', ['all', 'remotes', 'verbose', 'show-current', 'abbrev', 'no-abbrev'], {})],
  ['tag', listOnly('lin', [], { attachedValueLetters: 'n' })],
  ['config', config],
  ['remote', remote],
  ['symbolic-ref', symbolicRef],
  ['reflog', reflog],
  ['stash', stash],
  ['worktree', worktree],
]);

/** The names of the allowed git subcommands (for tests and docs). */
export const GIT_SUBCOMMANDS: readonly string[] = [...SUBCOMMANDS.keys()];

/** Global options that write or run code anywhere: `--output=<file>` (every diff-producing command). */
const WRITING_OPTIONS: OptionSet = { names: ['output'] };

/** True for an option word the reference refused on any git command: `--force*`, `--hard`, `--prune*`. */
function isDestructiveFlag(text: string): boolean {
  return /^--(?:force|prune|hard$)/.test(text);
}

/** Reads git's global options (`--no-pager`, `-P`, `-C <dir>`, …); returns the subcommand index or -1. */
function skipGlobalOptions(args: readonly ShellWord[]): number {
  let index = 0;
  for (;;) {
    const word = args[index];
    if (word === undefined || word.expands) return -1;
    if (word.text === '-C') {
      // -C only changes git's own directory (the shell's stays put); -c would set config such as core.pager.
      const directory = args[index + 1];
      if (directory === undefined || directory.expands) return -1;
      index += 2;
    } else if (['--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs'].includes(word.text)) {
      index += 1;
    } else if (word.text === '--version') {
      return args.length === index + 1 ? args.length : -1;
    } else if (word.text.startsWith('-')) {
      return -1;
    } else {
      return index;
    }
  }
}

/** True for a read-only `git` invocation (arguments after the verb). */
function isReadOnlyGit(args: readonly ShellWord[]): boolean {
  const index = skipGlobalOptions(args);
  if (index < 0) return false;
  if (index === args.length) return true;
  const subcommand = (args[index] as ShellWord).text.toLowerCase();
  const rule = SUBCOMMANDS.get(subcommand);
  if (rule === undefined) return false;
  const rest = args.slice(index + 1);
  const doubleDash = rest.findIndex((word) => word.text === '--');
  const optionWords = doubleDash < 0 ? rest : rest.slice(0, doubleDash);
  if (optionWords.some((word) => isDestructiveFlag(word.text))) return false;
  const asOptions: ParsedArguments = parseArguments(optionWords);
  if (usesAnyOption(asOptions, WRITING_OPTIONS)) return false;
  return rule(rest);
}

/** The rule for the `git` verb. */
export const GIT_RULE: CommandRule = { expansions: 'anchored', accepts: isReadOnlyGit };
