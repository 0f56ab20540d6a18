/**
 * `flower ask "<question>"` (docs/cli.md): a side question about the run in this workspace, from another
 * terminal. It reads the run's event log `<runDir>/events.jsonl` — the same recent-event window the live
 * line's `?` gives the oracle — and asks the read-only oracle on the aside runtime (`<runDir>/aside`). The run
 * is never told: nothing reaches its context, its events or its manifest. The answer goes to stdout (so it
 * can be piped); the head, cost and notes go to stderr with the rest of flower's lines.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig, type FlowerConfig } from '../../config/load-config.js';
import { languageOf, uiText } from '../../config/ui-text.js';
import { FlowerError } from '../../errors.js';
import { askOracle } from '../../workflow/ask-oracle.js';
import { RecentWindow, windowLine } from '../../human/recent-window.js';
import { renderWidth } from '../../render/display-width.js';
import { eventLogPath, eventLogStatus, readRecentEvents } from '../../runtime/event-log.js';
import type { ManifestRow } from '../../runtime/manifest.js';
import { readRunRecords } from '../../runtime/run-records.js';
import { storeKindOf } from '../../runtime/run-stores.js';
import { Workbench } from '../../workbench/workbench.js';
import { workbenchPath } from '../../workbench/workbench-path.js';
import type { CommandContext } from '../command-context.js';
import { commandStoreLocation, openCommandRecords } from '../command-stores.js';
import type { GlobalOptions } from '../program.js';
import { answerLines, costLine, failLine } from '../side-question.js';
import { startRunCommand } from '../start-run-command.js';

/** Events shown to the oracle, as for a `?` on the live line (docs/human-channel.md). */
export const ASK_WINDOW = 60;

/**
 * The run's workbench, if it has one: with `-W` the run directory's, else the first that exists of the
 * workspace's own, the isolated one beside it, and the run directory's. Null when none exists — a side
 * question never creates a workbench.
 */
export function existingWorkbench(workspace: string, runDir: string, explicit: boolean): Workbench | null {
  const candidates = explicit
    ? [workbenchPath(workspace, { runDir })]
    : [
        workbenchPath(workspace),
        workbenchPath(workspace, { isolate: true }),
        workbenchPath(workspace, { runDir }),
      ];
  const root = candidates.find((path) => existsSync(path));
  return root === undefined ? null : new Workbench(workspace, { root });
}

/** The run's recent events as window lines, read from the tail of its event log. */
export function recentLines(runDir: string, size = ASK_WINDOW): string[] {
  const window = new RecentWindow(size);
  // Count only events the window keeps, so sixty thinking blocks do not crowd out what the run did.
  for (const event of readRecentEvents(runDir, {
    limit: size,
    accept: (logged) => windowLine(logged) !== null,
  })) {
    window.sink(event);
  }
  return window.lines();
}

/**
 * One window line per step of the run's records, its latest row's state and text (`[step work · running]
 * …`): on a server the steps are there for every host, while the event log is only the driving host's.
 */
export function stepLines(rows: readonly ManifestRow[]): string[] {
  const latest = new Map<string, ManifestRow>();
  for (const row of rows) latest.set(row.step, row);
  return [...latest.values()].map((row) => {
    const state = row.ended_at === 0 ? 'running' : row.ok ? 'done' : 'failed';
    const text = Array.from(row.text.replace(/\s*[\r\n]+\s*/g, ' ').trim())
      .slice(0, 300)
      .join('');
    return `[step ${row.step} · ${state}] ${text}`.trimEnd();
  });
}

/** Runs `flower ask`; resolves to the exit code. */
export async function askCommand(
  question: string,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const lang = languageOf(io.env);
  if (question.trim() === '') throw new FlowerError('EMPTY_REQUEST', uiText('aside.noQuestion', {}, lang));
  const workspace = resolve(io.cwd, globals.workspace);
  const runDir = globals.runDir === undefined ? join(workspace, 'runs') : resolve(io.cwd, globals.runDir);
  const status = eventLogStatus(runDir);
  const loaded = loadConfig({ env: io.env, cwd: io.cwd });
  // A run on a server may be driven from another host, with no event log here: its steps are on the server.
  const onServer = storeKindOf(commandStoreLocation(loaded, globals), runDir) !== 'sqlite';
  // Before credentials and before anything is created: asking in the wrong folder costs nothing.
  if (!status.exists && !onServer) {
    io.stderr.write(`${uiText('aside.noRun', { path: eventLogPath(runDir) }, lang)}\n`);
    return 1;
  }

  const startup = await startRunCommand(loaded, globals, context);
  const config: FlowerConfig = startup.config;
  const { renderer } = startup;
  let steps: string[] = [];
  const records = onServer ? await openCommandRecords(config, globals, { workspace, runDir }) : null;
  if (records !== null) {
    try {
      steps = stepLines((await readRunRecords(records)).rows);
    } finally {
      await records.close();
    }
    if (steps.length === 0 && !status.exists) {
      renderer.print(uiText('aside.noServerRun', { path: records.location }, config.lang), 'red');
      renderer.close();
      return 1;
    }
  }
  if (status.exists && !status.live) renderer.print(uiText('aside.ended', {}, config.lang), 'dim');

  const answer = await askOracle(question, {
    workspace,
    runDir,
    recent: [...steps, ...(status.exists ? recentLines(runDir) : [])],
    workbench: existingWorkbench(workspace, runDir, globals.workbench === true),
    config,
    ...(context.backend === undefined ? {} : { backend: context.backend }),
  });
  if (!answer.ok) {
    renderer.print(failLine(answer.text, config.lang), 'red');
    renderer.close();
    return 1;
  }
  renderer.print(uiText('aside.head', {}, config.lang), 'bold');
  if (answer.text === '') {
    renderer.print(uiText('aside.none', {}, config.lang), 'dim');
  } else if (io.stdout.isTTY === true) {
    io.stdout.write(`${answerLines(answer.text, renderWidth(io.stdout.columns)).join('\n')}\n`);
  } else {
    // Piped: the answer as the model wrote it, like `flower once "…" > answer.txt`.
    io.stdout.write(`${answer.text}\n`);
  }
  renderer.print(costLine(answer, config.lang), 'dim');
  renderer.close();
  return 0;
}
