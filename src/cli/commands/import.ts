/**
 * `flower import run.tar.gz [-w dir] [-r runDir]`: unpacks what `flower export` wrote into the workspace
 * (default: the current directory) and re-keys its sessions for that path, so `flower` there resumes the
 * same session ids (docs/scaling.md). Nothing that exists is overwritten.
 *
 * @module
 */
import { resolve } from 'node:path';
import { importRun } from '../../runtime/run-archive.js';
import type { CommandContext } from '../command-context.js';
import type { GlobalOptions } from '../program.js';

/** Runs `flower import`; resolves to the exit code (0 when the run was unpacked). */
export async function importCommand(
  archive: string,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const summary = await importRun({
    archive: resolve(io.cwd, archive),
    workspace: resolve(io.cwd, globals.workspace),
    ...(globals.runDir === undefined ? {} : { runDir: resolve(io.cwd, globals.runDir) }),
  });
  const steps = Object.entries(summary.steps);
  const lines = [`Imported into ${summary.workspace} (run directory ${summary.runDir}).`];
  if (summary.fromProjectKey !== summary.toProjectKey) {
    lines.push(`Sessions re-keyed for the new path: ${summary.fromProjectKey} → ${summary.toProjectKey}.`);
  }
  for (const [step, sessionId] of steps) lines.push(`  ${step}: session ${sessionId}`);
  lines.push(`Run flower in ${summary.workspace} to continue.`);
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
