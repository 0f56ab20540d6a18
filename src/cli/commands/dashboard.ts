/**
 * `flower dashboard [runDir]` (docs/dashboard.md): serves the run's web page on 127.0.0.1 until Ctrl-C, for a
 * run in progress or one that ended. The run is never touched: the page reads `events.jsonl`; an answer is
 * appended to the run's answer file, which the running `go`/`run` hands to its human channel; a side question
 * goes to the oracle on the aside runtime, as `flower ask` does. `go --dashboard` starts the same server
 * inside the run's own process ({@link openDashboard}).
 *
 * @module
 */
import { existsSync, realpathSync } from 'node:fs';
import { analysisHtml } from '../../analyze/analysis-html.js';
import { analyzeRun } from '../../analyze/analyze-run.js';
import { loadConfig, type FlowerConfig } from '../../config/load-config.js';
import { languageOf, uiText, type Lang } from '../../config/ui-text.js';
import { startDashboard, type Dashboard, type DashboardOptions } from '../../dashboard/dashboard-server.js';
import { runToken } from '../../dashboard/run-token.js';
import { errorMessage } from '../../internal/error-text.js';
import { Goal } from '../../roles/goal.js';
import { eventLogPath } from '../../runtime/event-log.js';
import type { CostBreakdown } from '../../runtime/cost-breakdown.js';
import { runCostBreakdown } from '../../runtime/run-cost.js';
import {
  readRunRecords,
  runRecordsFor,
  type RunRecords,
  type RunRecordsSnapshot,
} from '../../runtime/run-records.js';
import type { RunStoreServer } from '../../runtime/run-stores.js';
import {
  readServerTranscripts,
  runProjectKeys,
  type StoredTranscript,
} from '../../runtime/server-transcripts.js';
import { stepRole } from '../../analyze/step-role.js';
import { askOracle } from '../../workflow/ask-oracle.js';
import type { Workbench } from '../../workbench/workbench.js';
import type { CommandContext } from '../command-context.js';
import { commandServer } from '../command-stores.js';
import type { GlobalOptions } from '../program.js';
import { SIGINT_EXIT_CODE } from '../signals.js';
import { locateRun } from './status.js';
import { existingWorkbench, recentLines } from './ask.js';

/** `dashboard` options, as parsed. */
export interface DashboardCommandOptions {
  /** The port to listen on; 0 or absent: any free port. */
  port?: number;
  /** The run's dollar cap, to show spend against (a run records its cap only once it is reached). */
  budget?: number;
}

/** What {@link openDashboard} needs to know of the run. */
export interface DashboardRun {
  workspace: string;
  runDir: string;
  /** The run's workbench, for the goal and the oracle; null when it has none (yet). */
  workbench: () => Workbench | null;
  config: FlowerConfig;
  budgetUsd: number | null;
  port?: number;
  /**
   * The run's records when they are not the run directory's files (PostgreSQL): the report and the
   * spenders read the manifest rows and the lineage from there, each time the page asks.
   */
  records?: RunRecords;
  /**
   * The PostgreSQL server the run's transcripts live on, when they are not in `sessions.db`: the spenders
   * and the report read them there each time the page asks (docs/decisions.md D453).
   */
  server?: RunStoreServer;
}

/**
 * Starts the dashboard of `run` with the goal, the oracle and the report wired in. Given a `server` and no
 * `records`, it opens the run's records there itself and closes them with the dashboard.
 */
export async function openDashboard(run: DashboardRun, context: CommandContext): Promise<Dashboard> {
  if (run.server === undefined || run.records !== undefined) return await serveDashboard(run, context);
  const records = runRecordsFor(run.runDir, run.server);
  let dashboard: Dashboard;
  try {
    dashboard = await serveDashboard({ ...run, records }, context);
  } catch (error) {
    await records.close();
    throw error;
  }
  return {
    ...dashboard,
    close: async () => {
      await dashboard.close();
      await records.close();
    },
  };
}

function serveDashboard(run: DashboardRun, context: CommandContext): Promise<Dashboard> {
  const options: DashboardOptions = {
    runDir: run.runDir,
    token: runToken(run.runDir),
    budgetUsd: run.budgetUsd,
    goal: () => {
      const workbench = run.workbench();
      const goal = workbench === null ? null : Goal.load(workbench.notesFile('goal'));
      return goal === null || goal.statement === ''
        ? null
        : { statement: goal.statement, checks: goal.checks };
    },
    ask: async (question, signal) => {
      const answer = await askOracle(question, {
        workspace: run.workspace,
        runDir: run.runDir,
        recent: recentLines(run.runDir),
        workbench: run.workbench(),
        config: run.config,
        signal,
        ...(context.backend === undefined ? {} : { backend: context.backend }),
      });
      return { ok: answer.ok, text: answer.text, costUsd: answer.costUsd };
    },
    // Where the money went, from the run's store as it is now (the same figures as `flower status`).
    spenders: async () => {
      // Records that cannot be read now (a server away) show no spenders rather than failing the page.
      const snapshot = await snapshotOf(run).catch(() => undefined);
      if (snapshot === undefined) return null;
      const transcripts = await transcriptsOf(run, snapshot).catch(() => undefined);
      if (transcripts === undefined) return null;
      return topSpenders(
        runCostBreakdown(run.runDir, {
          roleOf: stepRole,
          ...(snapshot === null ? {} : { rows: snapshot.rows }),
          ...(transcripts === null ? {} : { transcripts }),
        }),
      );
    },
    // The analyze report of the run as it is now, computed when asked for: `flower analyze --html`'s page.
    report: async () => {
      try {
        const snapshot = await snapshotOf(run);
        const transcripts = await transcriptsOf(run, snapshot);
        return analysisHtml(
          analyzeRun(run.runDir, {
            workspace: run.workspace,
            ...(snapshot === null ? {} : { records: snapshot }),
            ...(transcripts === null ? {} : { transcripts }),
          }),
        );
      } catch {
        return null;
      }
    },
    ...(context.now === undefined ? {} : { now: context.now }),
  };
  return startDashboard({ ...options, port: run.port ?? 0 });
}

/** The run's records read now, when they live elsewhere than its directory's files; else null. */
async function snapshotOf(run: DashboardRun): Promise<RunRecordsSnapshot | null> {
  return run.records === undefined || run.records.kind === 'file' ? null : await readRunRecords(run.records);
}

/** The run's transcripts read now from its server, or null when they are in `sessions.db`. */
async function transcriptsOf(
  run: DashboardRun,
  snapshot: RunRecordsSnapshot | null,
): Promise<StoredTranscript[] | null> {
  if (run.server === undefined) return null;
  const keys = runProjectKeys(realOrGiven(run.workspace), snapshot?.lineage ?? null);
  return (await readServerTranscripts(run.server, keys)).transcripts;
}

function realOrGiven(path: string): string {
  return existsSync(path) ? realpathSync(path) : path;
}

/** How many spenders the page lists. */
const SPENDERS_SHOWN = 6;

/**
 * The largest spenders of `breakdown`, each response in one of them: every session's main thread (named by
 * its step) and every subagent (named by its worker and task line).
 */
function topSpenders(breakdown: CostBreakdown | null): Array<{ label: string; usd: number }> | null {
  if (breakdown === null) return null;
  const spenders = [
    ...breakdown.sessions.map((session) => ({
      label: `${session.step ?? session.sessionId} · main thread`,
      usd: session.mainUsd,
    })),
    ...breakdown.subagents.map((subagent) => ({
      label: `${subagent.type}: ${subagent.task || subagent.description || subagent.agent}`,
      usd: subagent.usd,
    })),
  ];
  return spenders
    .filter((spender) => spender.usd > 0)
    .sort((first, second) => second.usd - first.usd)
    .slice(0, SPENDERS_SHOWN);
}

/** The lines that tell a person where the dashboard is. */
export function dashboardLines(dashboard: Dashboard, runDir: string, lang: Lang): string[] {
  return [
    uiText('dashboard.head', { path: runDir }, lang),
    uiText('dashboard.read', { url: dashboard.url }, lang),
    uiText('dashboard.write', { url: dashboard.urlWithToken }, lang),
  ];
}

/** Runs `flower dashboard`; resolves to the exit code once Ctrl-C (or SIGTERM) stops it. */
export async function dashboardCommand(
  dir: string | undefined,
  options: DashboardCommandOptions,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const lang = languageOf(io.env);
  const { workspace, runDir } = locateRun(dir, globals, io.cwd);
  if (!existsSync(eventLogPath(runDir))) {
    io.stderr.write(`${uiText('dashboard.noRun', { path: eventLogPath(runDir) }, lang)}\n`);
    return 1;
  }
  const config = loadConfig({ env: io.env, cwd: io.cwd });
  // A run on a server (`--store`, `FLOWER_STORE`): its steps and lineage are read there while the page lasts.
  const server = await commandServer(config, globals, { workspace, runDir });
  const records = server === null ? null : runRecordsFor(runDir, server);
  let dashboard: Dashboard;
  try {
    dashboard = await openDashboard(
      {
        workspace,
        runDir,
        ...(records === null ? {} : { records }),
        ...(server === null ? {} : { server }),
        workbench: () => existingWorkbench(workspace, runDir, globals.workbench === true),
        config,
        budgetUsd: options.budget ?? null,
        ...(options.port === undefined ? {} : { port: options.port }),
      },
      context,
    );
  } catch (error) {
    await records?.close();
    io.stderr.write(`${uiText('dashboard.failed', { e: errorMessage(error) }, lang)}\n`);
    return 1;
  }
  // The URLs are the command's result: stdout, so `flower dashboard | head -3` can hand them on.
  io.stdout.write(`${dashboardLines(dashboard, runDir, lang).join('\n')}\n`);
  io.stderr.write(`${uiText('dashboard.stop', {}, lang)}\n`);
  const signals = context.signals ?? process;
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const stop = (name: NodeJS.Signals) => (): void => {
      signals.off('SIGINT', onInterrupt);
      signals.off('SIGTERM', onTerminate);
      resolve(name);
    };
    const onInterrupt = stop('SIGINT');
    const onTerminate = stop('SIGTERM');
    signals.on('SIGINT', onInterrupt);
    signals.on('SIGTERM', onTerminate);
  });
  await dashboard.close();
  await records?.close();
  // Ctrl-C is how a dashboard is stopped; it reports like every other Ctrl-C stop (130), SIGTERM as 143.
  return signal === 'SIGINT' ? SIGINT_EXIT_CODE : 143;
}
