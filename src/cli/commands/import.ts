/**
 * `flower import run.tar.gz [-w dir] [-r runDir] [--store postgres://…]`: unpacks what `flower export` wrote
 * into the workspace (default: the current directory) and re-keys its sessions for that path, so `flower`
 * there resumes the same session ids (docs/scaling.md). With a PostgreSQL store (`--store`, `FLOWER_STORE`)
 * the transcripts and records go into the server instead of the run directory, so `flower` with the same
 * store resumes them there. Nothing that exists is overwritten.
 *
 * @module
 */
import { resolve } from 'node:path';
import { loadConfig } from '../../config/load-config.js';
import { importRun } from '../../runtime/run-archive.js';
import type { CommandContext } from '../command-context.js';
import { openCommandStores } from '../command-stores.js';
import type { GlobalOptions } from '../program.js';

/** Runs `flower import`; resolves to the exit code (0 when the run was unpacked). */
export async function importCommand(
  archive: string,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  // A server is checked before anything is unpacked: one line naming it (never its password) when it cannot be used.
  const stores = await openCommandStores(loadConfig({ env: io.env, cwd: io.cwd }), globals, io);
  await stores?.close();
  const summary = await importRun({
    archive: resolve(io.cwd, archive),
    workspace: resolve(io.cwd, globals.workspace),
    ...(globals.runDir === undefined ? {} : { runDir: resolve(io.cwd, globals.runDir) }),
    server: stores?.server ?? null,
  });
  const steps = Object.entries(summary.steps);
  const lines = [`Imported into ${summary.workspace} (run directory ${summary.runDir}).`];
  if (summary.server !== null) lines.push(`Transcripts and records in ${summary.server}.`);
  if (summary.fromProjectKey !== summary.toProjectKey) {
    lines.push(`Sessions re-keyed for the new path: ${summary.fromProjectKey} → ${summary.toProjectKey}.`);
  }
  for (const [step, sessionId] of steps) lines.push(`  ${step}: session ${sessionId}`);
  lines.push(
    summary.server === null
      ? `Run flower in ${summary.workspace} to continue.`
      : `Run flower in ${summary.workspace} with the same --store (or FLOWER_STORE) to continue.`,
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
