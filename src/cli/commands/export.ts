/**
 * `flower export [dir] -o run.tar.gz`: the run of a folder as one archive (docs/scaling.md). `dir` is the
 * workspace or its run directory, as for `flower status`. The user's own credential values (from the
 * environment and the `.env` chain) are what the scan looks for first; a run holding one, or anything that
 * looks like a key, is refused with the file and the kind of key. `--to postgres://…` is reserved for the
 * PostgreSQL store and stops with a "not yet" line (the URL, which may hold a password, is never printed).
 *
 * @module
 */
import { resolve } from 'node:path';
import { loadConfig } from '../../config/load-config.js';
import { CREDENTIAL_KEYS } from '../../config/known-keys.js';
import { FlowerError } from '../../errors.js';
import { exportRun } from '../../runtime/run-archive.js';
import type { CommandContext } from '../command-context.js';
import type { ExportCommandOptions, GlobalOptions } from '../program.js';
import { locateRun } from './status.js';

/** Runs `flower export`; resolves to the exit code (0 when the archive was written). */
export async function exportCommand(
  dir: string | undefined,
  options: ExportCommandOptions,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  if (options.to !== undefined) {
    throw new FlowerError(
      'NOT_SUPPORTED',
      'flower export --to is not available yet: moving a run into a PostgreSQL store comes with that store. ' +
        'Export to a file with -o for now.',
    );
  }
  const { workspace, runDir } = locateRun(dir, globals, io.cwd);
  const config = loadConfig({ env: io.env, cwd: io.cwd });
  const credentialValues = CREDENTIAL_KEYS.map((key) => config.env[key] ?? '').filter(
    (value) => value !== '',
  );
  const summary = await exportRun({
    workspace,
    runDir,
    output: resolve(io.cwd, options.output),
    credentialValues,
  });
  io.stdout.write(
    `Exported ${runDir} to ${summary.output}: ${summary.transcripts} transcript(s), ${summary.files.length} files.\n`,
  );
  return 0;
}
