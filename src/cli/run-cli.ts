/**
 * The CLI as a function: argv in, exit code out (docs/cli.md). It rewrites argv for the default
 * subcommand, parses, runs the command, and turns every deliberate stop into one stderr line: exit 2 for
 * usage errors, 1 for everything else; 0 for success, `--help` and `--version`.
 *
 * @module
 */
import { CommanderError } from '@commander-js/extra-typings';
import { displayPath, userEnvFile } from '../config/config-dir.js';
import { languageOf, uiText } from '../config/ui-text.js';
import { isFlowerError } from '../errors.js';
import { errorText } from '../internal/error-text.js';
import { sanitizeLine } from '../render/sanitize.js';
import { useColor } from './cli-io.js';
import { writeErrorLines } from './error-lines.js';
import type { CommandContext } from './command-context.js';
import { rewriteArgv, rewriteSetsOf } from './default-subcommand.js';
import { nearSubcommand } from './near-subcommand.js';
import { createProgram, type CommandHandlers } from './program.js';

/** Runs `flower` with `argv` (without the node and script paths) and resolves to the exit code. */
export async function runCli(argv: readonly string[], context: CommandContext): Promise<number> {
  const { io } = context;
  // Each command's module (and with it the runtime, the SDK, zod, the renderer) is imported only when that
  // command runs: `--version`, `--help` and usage errors then answer without loading any of it, and
  // `once` does not pay for what only `go` needs.
  const handlers: CommandHandlers = {
    go: async (ask, options, globals) => {
      const [{ goCommand }] = await Promise.all([import('./commands/go.js'), probeSandbox(io.env)]);
      return goCommand(ask, options, globals, context);
    },
    run: async (target, options, globals) => {
      const [{ runCommand }] = await Promise.all([import('./commands/run.js'), probeSandbox(io.env)]);
      return runCommand(target, options, globals, context);
    },
    once: async (prompt, options, globals) => {
      const [{ onceCommand }] = await Promise.all([import('./commands/once.js'), probeSandbox(io.env)]);
      return onceCommand(prompt, options, globals, context);
    },
    setup: async () => {
      const [{ runSetupCommand }, { loadConfig }] = await Promise.all([
        import('./commands/setup.js'),
        import('../config/load-config.js'),
      ]);
      const config = loadConfig({ env: io.env, cwd: io.cwd });
      const color = useColor(io.stdout, config.env);
      const write = (line: string): void => {
        io.stdout.write(`${sanitizeLine(line, { keepColor: color })}\n`);
      };
      const outcome = await runSetupCommand({ config, isTty: io.stdinIsTty, write, color });
      return outcome.completed ? 0 : 1;
    },
    ask: async (question, globals) => {
      const { askCommand } = await import('./commands/ask.js');
      return askCommand(question, globals, context);
    },
    demo: async (globals) => {
      const { demoCommand } = await import('./commands/demo.js');
      return demoCommand(globals, context);
    },
    status: async (dir, options, globals) => {
      const { statusCommand } = await import('./commands/status.js');
      return statusCommand(dir, options, globals, context);
    },
    verify: async (dir, options, globals) => {
      const { verifyCommand } = await import('./commands/verify.js');
      return verifyCommand(dir, options, globals, context);
    },
    analyze: async (runDir, options, globals) => {
      const { analyzeCommand } = await import('./commands/analyze.js');
      return analyzeCommand(runDir, options, globals, context);
    },
    chaos: async (options, globals) => {
      const { chaosCommand } = await import('./commands/chaos.js');
      return chaosCommand(options, globals, context);
    },
    dashboard: async (dir, options, globals) => {
      const { dashboardCommand } = await import('./commands/dashboard.js');
      return dashboardCommand(dir, options, globals, context);
    },
    exportRun: async (dir, options, globals) => {
      const { exportCommand } = await import('./commands/export.js');
      return exportCommand(dir, options, globals, context);
    },
    importRun: async (archive, globals) => {
      const { importCommand } = await import('./commands/import.js');
      return importCommand(archive, globals, context);
    },
    doctor: async (runDir, options, globals) => {
      const { doctorCommand } = await import('./commands/doctor.js');
      return doctorCommand(runDir, options, globals, context);
    },
    completion: async (shell, program) => {
      const { completionScript } = await import('./shell-completion.js');
      io.stdout.write(completionScript(shell, program));
      return 0;
    },
  };
  const program = createProgram(
    handlers,
    { writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) },
    { lang: languageOf(io.env), envFile: displayPath(userEnvFile(io.env), io.env) },
  );
  try {
    const sets = rewriteSetsOf(program.command);
    const rewrite = rewriteArgv(argv, sets);
    const request = rewrite.inserted >= 0 ? rewrite.argv[rewrite.inserted + 1] : undefined;
    // Only a word that the rewrite itself turned into a request is suspect; `flower go setpu` is deliberate.
    const typo = request === undefined ? null : nearSubcommand(request, sets.subcommands);
    if (typo !== null && request !== undefined) {
      io.stderr.write(
        `error: ${uiText('err.didYouMean', { word: request, command: typo }, languageOf(io.env))}\n`,
      );
      return 2;
    }
    await program.command.parseAsync(rewrite.argv, { from: 'user' });
    return program.exitCode();
  } catch (error) {
    return await reportError(error, context);
  }
}

/**
 * Runs the shell-sandbox probe (two small child processes) while the command's modules load, so the runtime
 * later reads its answer from the cache instead of waiting for the probe after the load. (The `.env` chain is
 * not read yet, so it runs even when `FLOWER_SANDBOX=off` will leave its answer unused: a few milliseconds
 * of another core, never a wait.)
 */
async function probeSandbox(env: CommandContext['io']['env']): Promise<void> {
  const { probeSandboxSupport } = await import('../agent/sandbox-support.js');
  await probeSandboxSupport(env['PATH'] ?? '');
}

async function reportError(error: unknown, context: CommandContext): Promise<number> {
  const { io } = context;
  // Commander has already written its own one-line message (or the help / version text).
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  if (isFlowerError(error)) {
    const prefix = error.code === 'USAGE' ? 'error: ' : '';
    await writeErrorLines(io.stderr, `${prefix}${error.message}`);
    return error.exitCode;
  }
  const described = errorText(error);
  await writeErrorLines(io.stderr, uiText('err.unexpected', { e: described }, languageOf(io.env)));
  if (io.env['FLOWER_DEBUG'] && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  return 1;
}
