/**
 * What `once`, `run` and `go` do before their agent starts: load the configuration, create the one renderer
 * of the run, show the update notice, configuration warnings and the `-v` dump, and make sure credentials are
 * present (setup on a terminal, the probe gate). Kept in one place so the commands cannot drift apart. The renderer writes
 * through an {@link OutputRelay}, so a command can later send its lines above the live input line.
 *
 * @module
 */
import { join, resolve } from 'node:path';
import { homeDirectory } from '../config/config-dir.js';
import { describeConfig } from '../config/describe-config.js';
import type { FlowerConfig } from '../config/load-config.js';
import { createTerminalRenderer, type TerminalRenderer } from '../render/terminal-renderer.js';
import { FlowerError } from '../errors.js';
import { Runtime } from '../runtime/runtime.js';
import { runRecordsFor } from '../runtime/run-records.js';
import type { RuntimeOptions } from '../runtime/runtime-options.js';
import { useColor } from './cli-io.js';
import { spentBudgetLine } from './spent-budget.js';
import type { CommandContext } from './command-context.js';
import { ensureCredentials } from './ensure-credentials.js';
import { openCommandStores, withCommandStore } from './command-stores.js';
import { createOutputRelay, type OutputRelay } from './output-relay.js';
import { createStatusFooter, type StatusFooter } from './status-footer.js';
import { quietRetries } from './quiet-retries.js';
import type { GlobalOptions } from './program.js';
import { updateNotice } from './update-notice.js';

/** The renderer and the configuration with credentials ensured. */
export interface StartedCommand {
  config: FlowerConfig;
  renderer: TerminalRenderer;
  /** The renderer's output: standard error until redirected (to the live input line). */
  output: OutputRelay;
  /** The status footer under the output while a step runs; null when standard error is not a terminal. */
  footer: StatusFooter | null;
  color: boolean;
}

/** Creates the run's renderer from `config`, prints warnings (and the dump with `-v`), ensures credentials. */
export async function startRunCommand(
  config: FlowerConfig,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<StartedCommand> {
  const { io } = context;
  const color = useColor(io.stderr, config.env);
  const footer =
    io.stderr.isTTY === true
      ? createStatusFooter({
          terminal: io.stderr,
          color,
          lang: config.lang,
          ...(context.now ? { now: context.now } : {}),
        })
      : null;
  const output = createOutputRelay(footer?.output ?? io.stderr);
  const renderer = quietRetries(
    createTerminalRenderer({
      verbose: globals.verbose === true,
      output,
      color,
      lang: config.lang,
      home: homeDirectory(config.env),
      now: context.now ?? Date.now,
      ...(footer === null
        ? {}
        : {
            observe: (event) => footer.observe(event),
            onClose: () => footer.close(),
            countdownLines: false,
          }),
    }),
  );
  // Before credentials, as the reference did: a newer version may be the fix for what follows.
  const notice = updateNotice({ config, ...(context.now ? { now: context.now } : {}) });
  if (notice !== null) renderer.print(notice, 'yellow');
  for (const warning of config.warnings) renderer.print(warning, 'yellow');
  if (globals.verbose === true) for (const line of describeConfig(config)) renderer.print(line, 'dim');
  const ensured = await ensureCredentials({
    config,
    isTty: io.stdinIsTty,
    write: (line) => renderer.line(line),
    color,
    ...(context.setup ? { setup: context.setup } : {}),
  });
  return { config: ensured, renderer, output, footer, color };
}

/**
 * The Runtime a command drives: workspace and run directory from the global options, test overrides applied.
 * A store on a server is opened and checked here, before the runtime writes anything (command-stores.ts);
 * the SQLite default is opened by the runtime.
 */
export async function commandRuntime(
  config: FlowerConfig,
  globals: GlobalOptions,
  context: CommandContext,
  extra: Partial<RuntimeOptions> = {},
): Promise<Runtime> {
  const { io } = context;
  const trim = extra.trim ?? globals.trim === true;
  const opened = await openCommandStores(config, globals, io, { trim });
  const runDir = resolve(io.cwd, globals.runDir ?? join(globals.workspace, 'runs'));
  const runtime = new Runtime({
    workspace: resolve(io.cwd, globals.workspace),
    ...(globals.runDir === undefined ? {} : { runDir: resolve(io.cwd, globals.runDir) }),
    config: withCommandStore(config, globals),
    trim: globals.trim === true,
    ...(context.backend ? { backend: context.backend } : {}),
    ...(context.resilience ? { resilience: context.resilience } : {}),
    ...extra,
    // On a server the run's records (manifest rows, lineage) are there too; the runtime closes them.
    ...(opened === null ? {} : { store: opened.sessions, records: runRecordsFor(runDir, opened.server) }),
  });
  // The run stopped at its budget last time: nothing starts until the budget is raised.
  const spent = await spentBudgetLine(runtime.records, runtime.budgetUsd, config.lang).catch(
    async (error: unknown) => {
      await runtime.close();
      throw error;
    },
  );
  if (spent !== null) {
    await runtime.close();
    throw new FlowerError('BUDGET_EXHAUSTED', spent);
  }
  return runtime;
}
