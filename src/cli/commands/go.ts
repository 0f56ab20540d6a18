/**
 * `flower go [ask]` — what `flower "build me X"` runs (docs/go-path.md): clarify the request into a
 * brief, set a goal, let a coordinator dispatch workers, judge each round.
 *
 * Order of work: the configuration, its warnings and the `-v` dump, then credentials — before the request
 * prompt, so a first-time user sees setup first. Then the workspace's wake state is read (read-only); with
 * no request the startup prompt asks for one (`/new` there means `--new`); a waking directory gets its
 * banner. The starter workflow is built (with `--new` it archives the previous brief, goal, Q&A log and
 * lineage — moved, never deleted) and driven like every other workflow ({@link driveWorkflow}): live input
 * line, two-stage Ctrl-C, signal rescue, closing line, failure explanation. Trimming is on unless
 * `--no-trim`; handoff is on unless `--no-handoff`; `-b` caps the whole run (decisions.md D25); `--dashboard`
 * serves the run's web page from this process while it runs (docs/dashboard.md).
 *
 * @module
 */
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../config/load-config.js';
import { uiText, type Lang } from '../../config/ui-text.js';
import { FlowerError } from '../../errors.js';
import type { TerminalRenderer } from '../../render/terminal-renderer.js';
import { HandoffPolicy } from '../../runtime/handoff-policy.js';
import { readManifest, staleVerdict } from '../../runtime/manifest.js';
import { createRunDirectory } from '../../runtime/run-directory.js';
import { RunProcesses, type ProcessRecord } from '../../runtime/run-processes.js';
import { wakeState } from '../../runtime/wake-state.js';
import { isGitWorkTree } from '../../workbench/git-work-tree.js';
import { buildStarter } from '../../workflow/starter-flow.js';
import { STEP_NAMES } from '../../workflow/step-names.js';
import type { Workbench } from '../../workbench/workbench.js';
import type { CommandContext } from '../command-context.js';
import { driveWorkflow } from '../drive-workflow.js';
import type { GlobalOptions, GoOptions } from '../program.js';
import { checkCommandStores, serverLineage, serverWakeState } from '../command-stores.js';
import { leaseStoreFor } from '../../runtime/lease-store-for.js';
import { commandRuntime, startRunCommand } from '../start-run-command.js';
import { readStartupLine } from '../startup-prompt.js';
import { wakeBanner } from '../wake-banner.js';
import { attachLines } from '../attach-lines.js';
import { errorMessage } from '../../internal/error-text.js';
import { dashboardLines, openDashboard } from './dashboard.js';
import { acquireRunLease, attachToHolder, holderRows, reportLostLease } from '../lease-gate.js';

/** What `/new` typed at the startup prompt means: start over, as `--new` does. */
export const NEW_COMMAND = '/new';

/** The request and whether the run continues the directory or starts over. */
interface Request {
  ask: string;
  fresh: boolean;
  waking: boolean;
}

/** Runs `flower go`; resolves to the exit code. Throws `FlowerError` for deliberate stops before the run. */
export async function goCommand(
  ask: string | undefined,
  options: GoOptions,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const started = (context.now ?? Date.now)();
  const startup = await startRunCommand(loadConfig({ env: io.env, cwd: io.cwd }), globals, context);
  const { renderer, config } = startup;
  const lang = config.lang;
  if (globals.workbench === true) renderer.print(uiText('note.goW', {}, lang), 'dim');
  if (globals.trim === true) renderer.print(uiText('note.goT', {}, lang), 'dim');

  const workspace = resolve(io.cwd, globals.workspace);
  const runDir = globals.runDir === undefined ? undefined : resolve(io.cwd, globals.runDir);
  const isolate = options.isolate === true;
  // Before the prompt: typing a request only to hear that --isolate cannot work would waste it. Asked once:
  // the starter and the runtime are given the answer rather than starting git again.
  const gitWorkTree = isolate ? isGitWorkTree(workspace) : undefined;
  if (gitWorkTree === false) {
    throw new FlowerError('NOT_A_GIT_REPO', uiText('err.isolate', { path: workspace }, lang));
  }
  const knownGit = gitWorkTree === undefined ? {} : { gitWorkTree };
  // Before the prompt and before anything is written: a store that cannot be used stops here, unchanged.
  const server = await checkCommandStores(config, globals, io);
  // A run driven by another live flower is only watched: two drivers would both run every step.
  const directory = runDir ?? join(existsSync(workspace) ? realpathSync(workspace) : workspace, 'runs');
  // Another host's `go` is seen through the lease below, which goes stale sooner than its record here.
  const processes = new RunProcesses(directory, 'go', { leased: true });
  const live = processes.goHolder();
  if (live !== null) return attach(live, directory, startup.renderer, lang);
  const wake = await serverWakeState(
    wakeState(workspace, {
      ...(runDir === undefined ? {} : { runDir }),
      isolate,
      ...(server === null ? {} : { lineage: await serverLineage(directory, server) }),
    }),
    server,
    workspace,
  );
  const fresh = options.new === true;
  const given = (ask ?? '').trim();
  const banner = (): void =>
    renderer.line(wakeBanner(wake, { workspace, env: config.env, lang, color: startup.color }));
  // Asked whether to continue, a person must first see what "last time" was: the banner goes above the prompt.
  const bannerFirst = given === '' && !fresh && wake.waking;
  if (bannerFirst) banner();
  const request: Request =
    given === ''
      ? await askAtStartup(context, { fresh, waking: !fresh && wake.waking, lang })
      : { ask: given, fresh, waking: !fresh && wake.waking };
  if (request.waking) {
    if (!bannerFirst) banner();
    const stale = staleVerdict(directory, STEP_NAMES.work);
    if (stale !== null) {
      const items = stale.stale.failed.map((item) => `"${item}"`).join(', ');
      renderer.print(uiText('wake.stale', { items }, lang), 'yellow');
    }
    if (options.clarifyOnly === true) renderer.print(uiText('note.clarifyOnly', {}, lang), 'dim');
  }

  // The run directory is made first (with its ignore file, so the dashboard's token is never committed).
  createRunDirectory(directory);
  // --dashboard: the run's web page, served from this process for as long as the run lasts. Started before
  // the run is claimed, so a port that cannot be had stops the command before anything runs; the workbench
  // it reads the goal from exists once the starter is built.
  let workbench: Workbench | null = null;
  const dashboard =
    options.dashboard === true
      ? await openDashboard(
          {
            workspace,
            runDir: directory,
            workbench: () => workbench,
            // A run on a server: the page reads its records and transcripts there (docs/decisions.md D453).
            ...(server === null ? {} : { server }),
            config,
            budgetUsd: options.budget ?? null,
            ...(options.dashboardPort === undefined ? {} : { port: options.dashboardPort }),
          },
          context,
        ).catch((error: unknown) => {
          throw new FlowerError(
            'PORT_UNAVAILABLE',
            uiText('dashboard.failed', { e: errorMessage(error) }, lang),
          );
        })
      : null;
  if (dashboard !== null) {
    for (const line of dashboardLines(dashboard, directory, lang)) renderer.print(line, 'cyan');
  }
  // Claimed under the lock before anything is changed (`--new` archives): of two starts, one attaches.
  // Claiming writes processes.json, the first file of a new run directory: it must ignore itself first.
  // The lease first: it is what another host sees too (docs/scaling.md).
  const claim = await acquireRunLease(directory, 'go', config.env, leaseStoreFor(directory, server));
  if (claim.kind === 'held') {
    await dashboard?.close();
    return attachToHolder(
      claim.holder,
      directory,
      startup.renderer,
      lang,
      await holderRows(directory, server),
    );
  }
  const holder = processes.enter({ go: true });
  if (holder !== null) {
    await claim.lease.release();
    await dashboard?.close();
    return attach(holder, directory, startup.renderer, lang);
  }

  const starter = buildStarter(request.ask, {
    workspace,
    ...(runDir === undefined ? {} : { runDir }),
    fresh: request.fresh,
    isolate,
    ...knownGit,
    clarifyOnly: options.clarifyOnly === true,
    goal: options.goal,
    rounds: options.rounds,
    judgeCanRun: options.judgeCanRun === true,
    maxAsks: options.asks < 0 ? null : options.asks,
    timeoutS: options.timeout,
    lang,
  });
  const runtime = await commandRuntime(config, globals, context, {
    trim: options.trim,
    handoff: new HandoffPolicy({
      enabled: options.handoff,
      env: config.env,
      ...(options.window === undefined ? {} : { window: options.window }),
    }),
    budgetUsd: options.budget ?? null,
    workbench: starter.workbench,
    lease: claim.lease,
    ...knownGit,
  });
  workbench = starter.workbench;
  if (starter.amended) {
    const key = options.goal && options.clarifyOnly !== true ? 'wake.amended' : 'wake.amendedNoGoal';
    renderer.print(uiText(key, { text: request.ask }, lang), 'green');
  }
  try {
    const code = await driveWorkflow({
      workflow: starter.workflow,
      runtime,
      startup,
      context,
      started,
      json: options.json === true,
    });
    // The runtime began giving the lease back when it closed; a server-backed store ends that here.
    await claim.lease.release();
    return reportLostLease(claim.lease, io, code);
  } finally {
    await dashboard?.close();
  }
}

/**
 * Prints that the run is live elsewhere, where it stands and how to ask it something; runs no step.
 * Exit code 0: nothing failed, this flower just has nothing to do.
 */
function attach(holder: ProcessRecord, runDir: string, renderer: TerminalRenderer, lang: Lang): number {
  for (const line of attachLines(holder, readManifest(runDir), lang)) renderer.print(line);
  renderer.close();
  return 0;
}

/**
 * The startup prompt's loop (docs/cli.md): an empty line continues a waking directory and is an error in a
 * fresh one; `/new` switches to "start over" and asks again in the fresh form; Ctrl-C or end of input
 * cancels.
 */
async function askAtStartup(
  context: CommandContext,
  state: { fresh: boolean; waking: boolean; lang: Lang },
): Promise<Request> {
  const { io } = context;
  let { fresh, waking } = state;
  for (;;) {
    const line = await readStartupLine({
      input: io.stdin,
      output: io.stderr,
      isTty: io.stdinIsTty,
      waking,
      lang: state.lang,
    });
    if (line === null) throw new FlowerError('CANCELLED', uiText('cancelled', {}, state.lang));
    const text = line.trim();
    if (text === NEW_COMMAND) {
      fresh = true;
      waking = false;
      continue;
    }
    // On a terminal an empty Enter is a slip of the finger: ask again. From a pipe there is nobody to ask.
    if (text === '' && !waking && io.stdinIsTty) continue;
    if (text === '' && !waking)
      throw new FlowerError('EMPTY_REQUEST', uiText('err.emptyAsk', {}, state.lang));
    return { ask: text, fresh, waking };
  }
}
