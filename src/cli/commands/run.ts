/**
 * `flower run <module>:<export>` (docs/workflows.md): runs a workflow the user wrote, driven exactly as
 * `go` drives its own ({@link driveWorkflow}): credentials first, then the target is loaded; one renderer for
 * the whole run; the live input line; SIGHUP and SIGTERM write the in-flight row and leave the session
 * resumable; two-stage Ctrl-C; the closing line gives this process's cost and the manifest; a failed step
 * says why and exits 1. `-b` caps the whole run (decisions.md D25), `-T` trims old large results on resume,
 * `-W` gives the steps a workbench unless the workflow brings its own. A rerun of the same command resumes
 * each step's session (lineage).
 *
 * @module
 */
import { join, resolve } from 'node:path';
import { loadConfig } from '../../config/load-config.js';
import { createRunDirectory } from '../../runtime/run-directory.js';
import { leaseStoreFor } from '../../runtime/lease-store-for.js';
import { acquireRunLease, attachToHolder, holderRows, reportLostLease } from '../lease-gate.js';
import { checkCommandStores } from '../command-stores.js';
import { commandRuntime, startRunCommand } from '../start-run-command.js';
import type { CommandContext } from '../command-context.js';
import { driveWorkflow } from '../drive-workflow.js';
import { loadTarget } from '../load-target.js';
import type { GlobalOptions, RunOptions } from '../program.js';

/** Runs `flower run`; resolves to the exit code. Throws `FlowerError` for deliberate stops before the run. */
export async function runCommand(
  target: string,
  options: RunOptions,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const started = (context.now ?? Date.now)();
  const startup = await startRunCommand(loadConfig({ env: io.env, cwd: io.cwd }), globals, context);
  const workflow = await loadTarget(target, io.cwd, startup.config.lang);
  // One driver per workflow and run directory, on this host or another (docs/scaling.md).
  const runDir = resolve(io.cwd, globals.runDir ?? join(globals.workspace, 'runs'));
  // Checked before the run directory is made: a store that cannot be used changes nothing.
  const server = await checkCommandStores(startup.config, globals, io);
  createRunDirectory(runDir);
  // The lease is where the transcripts are: on the server it is what another host's flower sees.
  const claim = await acquireRunLease(
    runDir,
    `run:${target}`,
    startup.config.env,
    leaseStoreFor(runDir, server),
  );
  if (claim.kind === 'held') {
    return attachToHolder(
      claim.holder,
      runDir,
      startup.renderer,
      startup.config.lang,
      await holderRows(runDir, server),
    );
  }
  const runtime = await commandRuntime(startup.config, globals, context, {
    budgetUsd: options.budget ?? null,
    // The workflow's own workbench wins over -W (docs/workflows.md).
    workbench: workflow.workbench ?? globals.workbench === true,
    lease: claim.lease,
  });
  const code = await driveWorkflow({
    workflow,
    runtime,
    startup,
    context,
    started,
    json: options.json === true,
    noTtyWarning: 'warn.noTtyRun',
  });
  // The runtime began giving the lease back when it closed; a server-backed store ends that here.
  await claim.lease.release();
  return reportLostLease(claim.lease, io, code);
}
