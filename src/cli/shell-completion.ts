/**
 * `flower completion bash|zsh|fish`: a completion script generated from the program's own commander
 * definitions — its commands, their options and arguments, the choices of `-p` and the like — so a new
 * option completes the day it is declared and no hand-kept list can fall behind (the default-subcommand
 * rewrite reads the same definitions for the same reason). Options that take a directory (`-w`, `-r`, the
 * `dir` of `status`) complete directories; everything else that takes a value completes nothing but its
 * choices, and a free-text request falls back to the shell's default.
 *
 * A small generator rather than a library: the completion packages on npm either patch the program at
 * run time (and so would load on every start) or need a daemon-like `--get-completions` round trip per key
 * press; three short templates over commander's definitions do the job without either.
 *
 * @module
 */
import { Help, type CommandUnknownOpts } from '@commander-js/extra-typings';

/** The shells a script can be generated for. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** One of {@link COMPLETION_SHELLS}. */
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** An option as the templates need it. */
interface OptionShape {
  short: string | null;
  long: string | null;
  description: string;
  takesValue: boolean;
  choices: readonly string[];
  directory: boolean;
}

/** A command as the templates need it. */
interface CommandShape {
  name: string;
  description: string;
  options: OptionShape[];
  /** Choices of its first argument (e.g. the shell of `completion`), or empty. */
  argumentChoices: readonly string[];
  /** Its first argument is a directory (`status [dir]`). */
  directoryArgument: boolean;
}

/** The program's shape: the global options and the commands. */
interface ProgramShape {
  name: string;
  globals: OptionShape[];
  commands: CommandShape[];
}

/** Options whose value is a directory, by long name. */
const DIRECTORY_OPTIONS = new Set(['--workspace', '--run-dir']);
/** Arguments whose value is a directory, by name. */
const DIRECTORY_ARGUMENTS = new Set(['dir']);

/** The completion script of `program` for `shell`. */
export function completionScript(shell: CompletionShell, program: CommandUnknownOpts): string {
  const shape = shapeOf(program);
  if (shell === 'bash') return bashScript(shape);
  if (shell === 'zsh') return zshScript(shape);
  return fishScript(shape);
}

function shapeOf(program: CommandUnknownOpts): ProgramShape {
  const help = new Help();
  const optionsOf = (command: CommandUnknownOpts): OptionShape[] =>
    help.visibleOptions(command).map((option) => ({
      short: option.short ?? null,
      long: option.long ?? null,
      description: firstLine(option.description),
      takesValue: option.required || option.optional,
      choices: option.argChoices ?? [],
      directory: option.long !== undefined && DIRECTORY_OPTIONS.has(option.long),
    }));
  const visible = help.visibleCommands(program);
  const commandNames = visible.map((command) => command.name());
  const commands = visible.map((command) => {
    const [argument] = command.registeredArguments;
    // `help [command]` takes a command name; commander declares no choices for it.
    const helpCommand = command.name() === 'help' && command.commands.length === 0;
    return {
      name: command.name(),
      description: firstLine(command.description()),
      // Commander adds the help option to every command; the global ones are completed separately.
      options: optionsOf(command).filter((option) => !isHelp(option)),
      argumentChoices: helpCommand
        ? commandNames.filter((name) => name !== 'help')
        : (argument?.argChoices ?? []),
      directoryArgument: argument !== undefined && DIRECTORY_ARGUMENTS.has(argument.name()),
    };
  });
  return { name: program.name(), globals: optionsOf(program), commands };
}

function isHelp(option: OptionShape): boolean {
  return option.long === '--help';
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

function names(option: OptionShape): string[] {
  return [option.short, option.long].filter((name): name is string => name !== null);
}

/** A word list for bash: names are commander's own (letters, digits, dashes), so no quoting is needed. */
function words(list: readonly string[]): string {
  return list.join(' ');
}

function bashScript(shape: ProgramShape): string {
  const functionName = `_${shape.name}_completion`;
  const all = [...shape.globals, ...shape.commands.flatMap((command) => command.options)];
  const valueNames = new Set(all.filter((option) => option.takesValue).flatMap(names));
  const directoryNames = all.filter((option) => option.directory).flatMap(names);
  const choiceCases = new Map<string, readonly string[]>();
  for (const option of all)
    if (option.choices.length > 0) for (const name of names(option)) choiceCases.set(name, option.choices);
  const globalWords = words(shape.globals.flatMap(names));
  const lines = [
    `# ${shape.name} completion for bash. Load it with: source <(${shape.name} completion bash)`,
    `${functionName}() {`,
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" command="" word i',
    `  local takes_value=" ${words([...valueNames])} "`,
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    word="${COMP_WORDS[i]}"',
    '    if [[ "$takes_value" == *" $word "* ]]; then ((i++)); continue; fi',
    '    [[ "$word" == -* ]] && continue',
    '    command="$word"',
    '    break',
    '  done',
    '  case "$prev" in',
  ];
  if (directoryNames.length > 0)
    lines.push(`    ${directoryNames.join('|')}) COMPREPLY=($(compgen -d -- "$cur")); return ;;`);
  for (const [name, choices] of choiceCases)
    lines.push(`    ${name}) COMPREPLY=($(compgen -W "${words(choices)}" -- "$cur")); return ;;`);
  const otherValues = [...valueNames].filter(
    (name) => !directoryNames.includes(name) && !choiceCases.has(name),
  );
  if (otherValues.length > 0) lines.push(`    ${otherValues.join('|')}) COMPREPLY=(); return ;;`);
  lines.push('  esac', '  case "$command" in');
  lines.push(
    `    "") COMPREPLY=($(compgen -W "${words(shape.commands.map((command) => command.name))} ${globalWords}" -- "$cur")) ;;`,
  );
  for (const command of shape.commands) {
    const optionWords = `${words(command.options.flatMap(names))} ${globalWords}`;
    const argument =
      command.argumentChoices.length > 0
        ? `compgen -W "${words(command.argumentChoices)}" -- "$cur"`
        : command.directoryArgument
          ? 'compgen -d -- "$cur"'
          : null;
    const body =
      argument === null
        ? `COMPREPLY=($(compgen -W "${optionWords}" -- "$cur"))`
        : `if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${optionWords}" -- "$cur")); else COMPREPLY=($(${argument})); fi`;
    lines.push(`    ${command.name}) ${body} ;;`);
  }
  lines.push('  esac', '}', `complete -o default -F ${functionName} ${shape.name}`, '');
  return lines.join('\n');
}

/** Text inside zsh single quotes, with `[`, `]` and `:` escaped for `_arguments` and `_describe`. */
function zshText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/[[\]:]/g, (character) => `\\${character}`)
    .replace(/'/g, "'\\''");
}

function zshOptionSpecs(option: OptionShape): string[] {
  const description = zshText(option.description);
  const value = !option.takesValue
    ? ''
    : option.directory
      ? ':directory:_files -/'
      : option.choices.length > 0
        ? `:value:(${option.choices.join(' ')})`
        : ':value: ';
  return names(option).map((name) => `'${name}[${description}]${value}'`);
}

function zshScript(shape: ProgramShape): string {
  const functionName = `_${shape.name}`;
  const globals = shape.globals.flatMap(zshOptionSpecs);
  const lines = [
    `#compdef ${shape.name}`,
    `# ${shape.name} completion for zsh. Load it with: source <(${shape.name} completion zsh)`,
    `# (after compinit), or save it as ${functionName} in a directory of $fpath.`,
    `${functionName}() {`,
    '  local curcontext="$curcontext" state line',
    '  local -a commands globals',
    '  commands=(',
    ...shape.commands.map((command) => `    '${zshText(command.name)}:${zshText(command.description)}'`),
    '  )',
    '  globals=(',
    ...globals.map((spec) => `    ${spec}`),
    '  )',
    "  _arguments -C $globals '1: :->command' '*:: :->argument'",
    '  case $state in',
    `    command) _describe -t commands '${shape.name} command' commands ;;`,
    '    argument)',
    '      case $words[1] in',
  ];
  for (const command of shape.commands) {
    const specs = command.options.flatMap(zshOptionSpecs);
    const argument =
      command.argumentChoices.length > 0
        ? `'1:argument:(${command.argumentChoices.join(' ')})'`
        : command.directoryArgument
          ? "'1:directory:_files -/'"
          : "'*:argument:_files'";
    lines.push(`        ${command.name}) _arguments $globals ${[...specs, argument].join(' ')} ;;`);
  }
  lines.push(
    '      esac',
    '      ;;',
    '  esac',
    '}',
    // Autoloaded from $fpath the file's body is the function; sourced, it registers itself.
    `if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then`,
    `  ${functionName} "$@"`,
    'else',
    `  compdef ${functionName} ${shape.name}`,
    'fi',
    '',
  );
  return lines.join('\n');
}

/** Text inside fish single quotes. */
function fishText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

function fishOption(program: string, option: OptionShape, condition: string | null): string {
  const parts = [`complete -c ${program}`];
  if (condition !== null) parts.push(`-n '${condition}'`);
  if (option.short !== null) parts.push(`-s ${option.short.replace(/^-/, '')}`);
  if (option.long !== null) parts.push(`-l ${option.long.replace(/^--/, '')}`);
  if (option.takesValue) {
    parts.push('-r');
    if (option.directory) parts.push("-a '(__fish_complete_directories)'");
    else if (option.choices.length > 0) parts.push(`-f -a '${fishText(option.choices.join(' '))}'`);
    else parts.push('-f');
  }
  parts.push(`-d '${fishText(option.description)}'`);
  return parts.join(' ');
}

function fishScript(shape: ProgramShape): string {
  const program = shape.name;
  const lines = [
    `# ${program} completion for fish. Load it with: ${program} completion fish | source`,
    `# or save it as ~/.config/fish/completions/${program}.fish`,
    `complete -c ${program} -e`,
  ];
  for (const command of shape.commands)
    lines.push(
      `complete -c ${program} -n __fish_use_subcommand -f -a ${command.name} -d '${fishText(command.description)}'`,
    );
  for (const option of shape.globals) lines.push(fishOption(program, option, null));
  for (const command of shape.commands) {
    const condition = `__fish_seen_subcommand_from ${command.name}`;
    for (const option of command.options) lines.push(fishOption(program, option, condition));
    if (command.argumentChoices.length > 0)
      lines.push(
        `complete -c ${program} -n '${condition}' -f -a '${fishText(command.argumentChoices.join(' '))}'`,
      );
    else if (command.directoryArgument)
      lines.push(`complete -c ${program} -n '${condition}' -f -a '(__fish_complete_directories)'`);
  }
  lines.push('');
  return lines.join('\n');
}
