/**
 * The default-subcommand rewrite (docs/cli.md): `flower "build me an X"` means
 * `flower go "build me an X"`. A pure function of argv and the program's declared top-level options and
 * registered subcommands — never hand-written lists (the reference's list once left out `setup`, which made
 * it unreachable, decisions.md D201).
 *
 * @module
 */
import { Help, type CommandUnknownOpts } from '@commander-js/extra-typings';

/** The sets the rewrite scans with, derived from a program by {@link rewriteSetsOf}. */
export interface RewriteSets {
  /** Top-level flags that take no value (`-v --verbose --version -h --help …`). */
  bareFlags: ReadonlySet<string>;
  /** Top-level options that take a value (`-w --workspace -r --run-dir`). */
  valueOptions: ReadonlySet<string>;
  /** The help flags among the bare flags. */
  helpFlags: ReadonlySet<string>;
  /** Registered subcommand names and aliases, the implicit `help` command included. */
  subcommands: ReadonlySet<string>;
}

/** Derives the rewrite's sets from the program's own option and command definitions. */
export function rewriteSetsOf(program: CommandUnknownOpts): RewriteSets {
  const help = new Help();
  const bareFlags = new Set<string>();
  const valueOptions = new Set<string>();
  const helpFlags = new Set<string>();
  const declared = new Set(program.options);
  for (const option of new Set([...program.options, ...help.visibleOptions(program)])) {
    const names = [option.short, option.long].filter((name): name is string => name !== undefined);
    const takesValue = option.required || option.optional;
    for (const name of names) {
      (takesValue ? valueOptions : bareFlags).add(name);
      // The help option is the one commander adds itself rather than one the program declares.
      if (!declared.has(option)) helpFlags.add(name);
    }
  }
  const subcommands = new Set<string>();
  for (const command of [...program.commands, ...help.visibleCommands(program)]) {
    subcommands.add(command.name());
    for (const alias of command.aliases()) subcommands.add(alias);
  }
  return { bareFlags, valueOptions, helpFlags, subcommands };
}

/** The outcome of {@link rewriteArgv}. */
export interface Rewrite {
  argv: string[];
  /** Index in `argv` of the inserted default subcommand, or -1 when argv was left unchanged. */
  inserted: number;
}

/**
 * Rewrites argv: top-level globals are skipped (a value option with its value, `--opt=value` as one
 * token); at the first other token, a registered subcommand leaves argv as it is, anything else gets the
 * default subcommand inserted before it (so `--` also makes the next word a request). When only globals
 * were given, the default is appended — unless a help flag was among them, or a value option is missing
 * its value (the parser then reports it).
 */
export function rewriteArgv(argv: readonly string[], sets: RewriteSets, defaultCommand = 'go'): Rewrite {
  let helpSeen = false;
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] as string;
    if (sets.valueOptions.has(token)) {
      if (index === argv.length - 1) return { argv: [...argv], inserted: -1 };
      index++;
      continue;
    }
    if (sets.bareFlags.has(token)) {
      if (sets.helpFlags.has(token)) helpSeen = true;
      continue;
    }
    const equals = token.indexOf('=');
    if (token.startsWith('-') && equals > 0 && sets.valueOptions.has(token.slice(0, equals))) continue;
    if (sets.subcommands.has(token) || helpSeen) return { argv: [...argv], inserted: -1 };
    return { argv: [...argv.slice(0, index), defaultCommand, ...argv.slice(index)], inserted: index };
  }
  if (helpSeen) return { argv: [...argv], inserted: -1 };
  return { argv: [...argv, defaultCommand], inserted: argv.length };
}
