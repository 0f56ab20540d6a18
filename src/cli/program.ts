/**
 * The `flower` command-line program: globals declared once and accepted on either side of the subcommand
 * (commander reads top-level options anywhere in argv), and the subcommands (docs/cli.md).
 * Command actions are injected, so the parser is tested without running anything.
 *
 * @module
 */
import {
  Argument,
  Command,
  Option,
  type CommandUnknownOpts,
  type OptionValues,
} from '@commander-js/extra-typings';
import { VERSION } from '../config/package-info.js';
import { DEFAULT_HELP, helpConfiguration, translateHelp, type HelpContext } from './help-text.js';
import {
  parseBoundaryList,
  parseBudget,
  parseFaultList,
  parsePort,
  parseTimeout,
  parseToolList,
  wholeNumberAtLeast,
} from './option-parsers.js';
import { CHAOS_FAULTS } from '../chaos/chaos-fault.js';
import type { CompletionShell } from './shell-completion.js';

/** The help text of `--json` (`once`, `run`, `go`). */
const JSON_HELP = 'events as JSON lines on stdout (the events.jsonl format); the human view goes to stderr';

/** The permission modes `once -p` accepts. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const;

/** The global options, as parsed (inferred from {@link declareGlobals}). */
export type GlobalOptions = ReturnType<ReturnType<typeof declareGlobals>['opts']>;

/**
 * `go` options, as parsed (docs/cli.md; `-b` from decisions.md D25): inferred from {@link declareGo}, except
 * `--timeout`, whose "never" the action turns into `null`.
 */
export type GoOptions = Omit<ParsedGoOptions, 'timeout'> & { timeout: number | null };
type ParsedGoOptions = ReturnType<ReturnType<typeof declareGo>['opts']>;

/** `run` options, as parsed (inferred from {@link declareRun}). */
export type RunOptions = ReturnType<ReturnType<typeof declareRun>['opts']>;

/** `once` options, as parsed (inferred from {@link declareOnce}). */
export type OnceOptions = ReturnType<ReturnType<typeof declareOnce>['opts']>;

/** `status` options, as parsed (inferred from {@link declareStatus}). */
export type StatusOptions = ReturnType<ReturnType<typeof declareStatus>['opts']>;

/** `verify` options, as parsed (inferred from {@link declareVerify}). */
export type VerifyOptions = ReturnType<ReturnType<typeof declareVerify>['opts']>;
/** `doctor` options, as parsed (inferred from {@link declareDoctor}). */
export type DoctorOptions = ReturnType<ReturnType<typeof declareDoctor>['opts']>;
/** `analyze` options, as parsed (inferred from {@link declareAnalyze}). */
export type AnalyzeOptions = ReturnType<ReturnType<typeof declareAnalyze>['opts']>;
/** `chaos` options, as parsed (inferred from {@link declareChaos}). */
export type ChaosOptions = ReturnType<ReturnType<typeof declareChaos>['opts']>;
/** `dashboard` options, as parsed (inferred from {@link declareDashboard}). */
export type DashboardOptions = ReturnType<ReturnType<typeof declareDashboard>['opts']>;
/** `export` options, as parsed (inferred from {@link declareExport}). */
export type ExportCommandOptions = ReturnType<ReturnType<typeof declareExport>['opts']>;

/** What each subcommand does; each resolves to the process exit code. */
export interface CommandHandlers {
  go(ask: string | undefined, options: GoOptions, globals: GlobalOptions): Promise<number>;
  run(target: string, options: RunOptions, globals: GlobalOptions): Promise<number>;
  once(prompt: string, options: OnceOptions, globals: GlobalOptions): Promise<number>;
  setup(globals: GlobalOptions): Promise<number>;
  ask(question: string, globals: GlobalOptions): Promise<number>;
  /** `flower demo` (decisions.md D16). */
  demo(globals: GlobalOptions): Promise<number>;
  /** `flower status [dir]`: where a run stands, read-only. */
  status(dir: string | undefined, options: StatusOptions, globals: GlobalOptions): Promise<number>;
  /** `flower verify [dir]`: the goal's machine checks on the current tree, no model (docs/goal-checks.md). */
  verify(dir: string | undefined, options: VerifyOptions, globals: GlobalOptions): Promise<number>;
  /** `flower analyze [runDir]`: the run's figures, read-only (docs/analyze.md). */
  analyze(runDir: string | undefined, options: AnalyzeOptions, globals: GlobalOptions): Promise<number>;
  /** `flower chaos`: a scenario faulted at every message boundary, rerun and checked (docs/reliability.md). */
  chaos(options: ChaosOptions, globals: GlobalOptions): Promise<number>;
  /** `flower dashboard [runDir]`: the run's web page on 127.0.0.1 until Ctrl-C. */
  dashboard(dir: string | undefined, options: DashboardOptions, globals: GlobalOptions): Promise<number>;
  /** `flower export [dir] -o FILE`: the run as one `.tar.gz` (docs/scaling.md). */
  exportRun(dir: string | undefined, options: ExportCommandOptions, globals: GlobalOptions): Promise<number>;
  /** `flower import FILE [-w DIR]`: unpacks an exported run where `flower` resumes it. */
  importRun(archive: string, globals: GlobalOptions): Promise<number>;
  /** `flower doctor [runDir]`: what is wrong with a run's transcripts and records, read-only (docs/doctor.md). */
  doctor(runDir: string | undefined, options: DoctorOptions, globals: GlobalOptions): Promise<number>;
  /** `flower completion <shell>`: the script, generated from `program`'s own definitions. */
  completion(shell: CompletionShell, program: CommandUnknownOpts): Promise<number>;
}

/** Where commander writes help (stdout) and its own error lines (stderr). */
export interface ProgramOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

/** The program plus the exit code the action that ran chose. */
export interface Program {
  command: Command<[], GlobalOptions>;
  exitCode(): number;
}

/**
 * Builds the program. Commander never exits the process itself: errors are thrown to the caller. `help`
 * gives the help's language and the real path `setup` writes.
 */
export function createProgram(
  handlers: CommandHandlers,
  output: ProgramOutput,
  help: HelpContext = DEFAULT_HELP,
): Program {
  let exitCode = 0;
  const program = declareGlobals(
    new Command()
      .name('flower')
      .description('Portable long-horizon agent framework')
      .usage('[global options] [command] [request]')
      .version(VERSION, '--version', 'print the version')
      .helpOption('-h, --help', 'show help'),
  )
    .helpCommand('help [command]', 'show help for a command')
    .exitOverride()
    .configureOutput(output)
    .configureHelp(helpConfiguration(help.lang))
    .addHelpText(
      'after',
      translateHelp(
        [
          '',
          'A request without a command runs `go`: flower "build me an X" = flower go "build me an X".',
          'Global options may come before or after the command. Use `flower go <word>` or `flower -- <word>`',
          'when the request is a single word that is also a command name.',
        ].join('\n'),
        help.lang,
      ),
    );
  const globals = (): GlobalOptions => program.opts();

  declareGo(program.command('go')).action(async (ask, options) => {
    const timeout = options.timeout === Number.POSITIVE_INFINITY ? null : options.timeout;
    exitCode = await handlers.go(ask, { ...options, timeout }, globals());
  });

  declareRun(program.command('run')).action(async (target, options) => {
    exitCode = await handlers.run(target, options, globals());
  });

  declareOnce(program.command('once')).action(async (prompt, options) => {
    exitCode = await handlers.once(prompt, options, globals());
  });

  program
    .command('setup')
    .description(`Configure credentials (API key / gateway / model / window) in ${help.envFile}`)
    .action(async () => {
      exitCode = await handlers.setup(globals());
    });

  program
    .command('ask')
    .description('Ask about the run in progress here, from another terminal; the run is not disturbed')
    .argument('<question>', 'what you want to know, e.g. "what is it doing?"')
    .action(async (question) => {
      exitCode = await handlers.ask(question, globals());
    });

  program
    .command('demo')
    .description(
      'Watch the whole go path run against a scripted model: no credentials, no cost, under a minute',
    )
    .action(async () => {
      exitCode = await handlers.demo(globals());
    });

  declareStatus(program.command('status')).action(async (dir, options) => {
    exitCode = await handlers.status(dir, options, globals());
  });

  declareVerify(program.command('verify')).action(async (dir, options) => {
    exitCode = await handlers.verify(dir, options, globals());
  });

  declareAnalyze(program.command('analyze')).action(async (runDir, options) => {
    exitCode = await handlers.analyze(runDir, options, globals());
  });

  declareChaos(program.command('chaos')).action(async (options) => {
    exitCode = await handlers.chaos(options, globals());
  });

  declareDashboard(program.command('dashboard')).action(async (dir, options) => {
    exitCode = await handlers.dashboard(dir, options, globals());
  });

  declareExport(program.command('export')).action(async (dir, options) => {
    exitCode = await handlers.exportRun(dir, options, globals());
  });

  program
    .command('import')
    .description(
      'Unpack a run that flower export wrote into -w DIR (default: here) and make it resumable there',
    )
    .argument('<archive>', 'the .tar.gz flower export wrote')
    .action(async (archive) => {
      exitCode = await handlers.importRun(archive, globals());
    });

  declareDoctor(program.command('doctor')).action(async (runDir, options) => {
    exitCode = await handlers.doctor(runDir, options, globals());
  });

  program
    .command('completion')
    .description('Print a shell completion script, e.g. source <(flower completion bash)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish'] as const))
    .action(async (shell) => {
      exitCode = await handlers.completion(shell, program);
    });

  return { command: program, exitCode: () => exitCode };
}

/** A subcommand as `program.command(name)` returns it: no arguments or options yet. */
type NewSubcommand<Globals extends OptionValues> = Command<[], Record<never, never>, Globals>;

/** Declares the global options on `program`; {@link GlobalOptions} is inferred from here. */
function declareGlobals(program: Command) {
  return program
    .option('-w, --workspace <dir>', 'agent working directory', '.')
    .option('-r, --run-dir <dir>', 'session store and run manifest (default: <workspace>/runs)')
    .option('-v, --verbose', 'show subagent text, tool results, task briefs and effective config')
    .option('-W, --workbench', 'enable the workbench (ignored if the workflow has its own)')
    .option('-T, --trim', 'on resume, swap old large tool results for file pointers')
    .option(
      '--store <location>',
      'where transcripts are kept: postgres://user:password@host/db (default: FLOWER_STORE, else sessions.db)',
    );
}

/** Declares `go`'s argument and options; {@link GoOptions} is inferred from here. */
function declareGo<Globals extends OptionValues>(command: NewSubcommand<Globals>) {
  return command
    .description('Clarify the request, set goals, dispatch workers, judge each round (default)')
    .argument('[ask]', 'the request; asked for at a prompt when absent')
    .option(
      '--asks <n>',
      'question quota (-1 = unlimited, 0 = no questions)',
      wholeNumberAtLeast(-1, 'Give -1 (unlimited) or a number of questions, 0 or more.'),
      -1,
    )
    .option(
      '--rounds <n>',
      'total work rounds, each judged independently',
      wholeNumberAtLeast(1, 'Give a whole number of rounds, 1 or more.'),
      3,
    )
    .option('--no-goal', 'no goal step and no verdict')
    .option('--judge-can-run', 'the judge may run commands (stronger verdicts, may change the workspace)')
    .option(
      '--timeout <seconds>',
      'seconds to wait for a human answer (0 = decide alone, "never" = wait forever)',
      // Commander turns a parser's null into '', so "never" travels as Infinity until the action.
      (value: string) => parseTimeout(value) ?? Number.POSITIVE_INFINITY,
      1800,
    )
    .option('--isolate', 'give each worker its own git worktree (the workspace must be a git repository)')
    .option(
      '--window <tokens>',
      'context window in tokens; the handoff comes at window minus max(50000, 25%) (default: FLOWER_WINDOW, the learned value, or a guess from the model name)',
      wholeNumberAtLeast(1, 'Give the window in tokens, a positive whole number.'),
    )
    .option('--no-handoff', "no handoff; fall back to the SDK's auto-compact")
    .option('--new', 'start from scratch (the previous brief, goal, Q&A log and lineage are archived)')
    .option('--clarify-only', 'run only the clarify step')
    .option('--no-trim', 'do not trim old large tool results on resume')
    .option('-b, --budget <usd>', 'dollar cap for the whole run', parseBudget)
    .option('--json', JSON_HELP)
    .option('--dashboard', "serve the run's web page on 127.0.0.1 while it runs (docs/dashboard.md)")
    .option(
      '--dashboard-port <port>',
      "the web page's port with --dashboard (default: any free port)",
      parsePort,
    );
}

/** Declares `dashboard`'s argument and options; {@link DashboardOptions} is inferred from here. */
function declareDashboard<Globals extends OptionValues>(command: NewSubcommand<Globals>) {
  return command
    .description("Serve a run's live web page on 127.0.0.1: steps, verdicts, spend, context, questions")
    .argument('[dir]', 'the workspace or its run directory (default: -w, else the current directory)')
    .option('--port <port>', 'the port to listen on (default: any free port)', parsePort)
    .option('-b, --budget <usd>', "the run's dollar cap, to show spend against", parseBudget);
}

/** Declares `run`'s argument and options; {@link RunOptions} is inferred from here. */
function declareRun<Globals extends OptionValues>(command: NewSubcommand<Globals>) {
  return command
    .description('Run a workflow you wrote (target = module:export)')
    .argument('<target>', 'module:export, e.g. ./flows.js:main')
    .option('-b, --budget <usd>', 'dollar cap for the whole run', parseBudget)
    .option('--json', JSON_HELP);
}

/** Declares `once`'s argument and options; {@link OnceOptions} is inferred from here. */
function declareOnce<Globals extends OptionValues>(command: NewSubcommand<Globals>) {
  return command
    .description('Run a single agent once')
    .argument('<prompt>', 'what to do')
    .option('-i, --instructions <text>', "appended to Claude Code's own system prompt")
    .addOption(
      new Option('-t, --tools <list>', 'comma-separated tools the agent may use')
        .argParser(parseToolList)
        .default<string[]>(['Read', 'Glob', 'Grep'], 'Read,Glob,Grep'),
    )
    .addOption(
      new Option('-p, --permission-mode <mode>', 'permission mode')
        .choices(PERMISSION_MODES)
        .default('default' as const),
    )
    .option('-b, --budget <usd>', 'hard dollar cap', parseBudget)
    .option('--resume <session_id>', 'continue an existing session')
    .option('--fork', 'with --resume: fork into a new session instead of continuing')
    .option('--json', JSON_HELP);
}

/** Declares `verify`'s argument and options; {@link VerifyOptions} is inferred from here. */
function declareVerify<Globals extends OptionValues>(command: NewSubcommand<Globals>) {
  return command
    .description(
      "Run the goal's checks on the current tree, no model and no credentials; exit 0 only if all pass",
    )
    .argument('[dir]', 'the workspace (default: -w, else the current directory)')
    .option('--json', 'print the results as one JSON object');
}

/** Declares `export`'s argument and options; {@link ExportCommandOptions} is inferred from here. */
function declareExport<Globals extends OptionValues>(command: NewSubcommand<Globals>) {
  return command
    .description(
      'Pack the run of a folder (transcripts, manifest, lineage, notes, workbench) into one .tar.gz',
    )
    .argument('[dir]', 'the workspace or its run directory (default: -w, else the current directory)')
    .option('-o, --output <file>', 'the .tar.gz to write (must not exist)')
    .option('--to <url>', "copy the run's transcripts into a PostgreSQL store instead");
}

/** Declares `status`'s argument and options; {@link StatusOptions} is inferred from here. */
function declareStatus<Globals extends OptionValues>(command: NewSubcommand<Globals>) {
  return command
    .description(
      'Where the run of a folder stands (steps, verdicts, cost, context, live or not); starts nothing',
    )
    .argument('[dir]', 'the workspace or its run directory (default: -w, else the current directory)')
    .option('--json', 'print it as one JSON object');
}

/** Declares `chaos`'s options; {@link ChaosOptions} is inferred from here. */
function declareChaos<Globals extends OptionValues>(command: NewSubcommand<Globals>) {
  return command
    .description(
      'Fault a scripted run at every message boundary, rerun it, check nothing was lost or repeated',
    )
    .option(
      '--scenario <name>',
      'the scenario to fault (only "demo" today: the go path of `flower demo`)',
      'demo',
    )
    .option(
      '--faults <list>',
      `comma-separated faults: ${CHAOS_FAULTS.join(',')} (default: all)`,
      parseFaultList,
    )
    .option(
      '--boundaries <list>',
      'only these message boundaries, e.g. 1,5,9 (default: all)',
      parseBoundaryList,
    )
    .option(
      '--parallel <n>',
      'cases run at the same time',
      wholeNumberAtLeast(1, 'Give a whole number of cases, 1 or more.'),
      1,
    )
    .option('--keep', "keep each failed case's folder, with the requests the fake received")
    .option('--json', 'print the report as one JSON object');
}

/** Declares `doctor`'s argument and options; {@link DoctorOptions} is inferred from here. */
function declareDoctor<Globals extends OptionValues>(command: NewSubcommand<Globals>) {
  return command
    .description(
      "Check a run's transcripts, manifest, lineage, tool journal and processes; exit 1 on an error",
    )
    .argument('[dir]', 'the run directory or its workspace (default: -r, else <workspace>/runs)')
    .option('--json', 'print the findings as one JSON object')
    .option('--fix', 'store a repaired copy of each broken session as a new session; the original stays');
}

/** Declares `analyze`'s argument and options; {@link AnalyzeOptions} is inferred from here. */
function declareAnalyze<Globals extends OptionValues>(command: NewSubcommand<Globals>) {
  return command
    .description(
      'Figures of a run: cost, context, cache, tools, subagents, workbench; read-only, sends nothing',
    )
    .argument('[dir]', 'the run directory or its workspace (default: -r, else <workspace>/runs)')
    .option('--json', 'print the figures as one JSON object (schema flower-analyze/1, docs/analyze.md)')
    .option('--html <file>', 'also write a self-contained HTML report with charts to <file>');
}
