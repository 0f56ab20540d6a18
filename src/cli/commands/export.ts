/**
 * `flower export [dir] -o run.tar.gz`: the run of a folder as one archive (docs/scaling.md). `dir` is the
 * workspace or its run directory, as for `flower status`. The user's own credential values (from the
 * environment and the `.env` chain) are what the scan looks for first; a run holding one, or anything that
 * looks like a key, is refused with the file and the kind of key. `--to postgres://…` copies the run's
 * transcripts and tool journal into a PostgreSQL store instead (the URL is only ever shown redacted).
 *
 * @module
 */
import { resolve } from 'node:path';
import { loadConfig } from '../../config/load-config.js';
import { CREDENTIAL_KEYS } from '../../config/known-keys.js';
import { FlowerError } from '../../errors.js';
import { copyRunToServer } from '../../runtime/copy-to-server.js';
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
  if ((options.to === undefined) === (options.output === undefined)) {
    throw new FlowerError(
      'USAGE',
      'flower export needs one destination: -o run.tar.gz (an archive) or --to postgres://… (a server).',
    );
  }
  const { workspace, runDir } = locateRun(dir, globals, io.cwd);
  if (options.to !== undefined) {
    const copied = await copyRunToServer(runDir, options.to);
    const skipped = copied.skipped === 0 ? '' : `; ${copied.skipped} already there, left alone`;
    io.stdout.write(
      `Copied ${copied.sessions} session(s) (${copied.transcripts} transcript(s), ${copied.calls} journalled ` +
        `call(s)) from ${runDir} to ${copied.location}${skipped}. Continue there with --store or FLOWER_STORE.\n`,
    );
    return 0;
  }
  const output = options.output!;
  const config = loadConfig({ env: io.env, cwd: io.cwd });
  const credentialValues = CREDENTIAL_KEYS.map((key) => config.env[key] ?? '').filter(
    (value) => value !== '',
  );
  const summary = await exportRun({
    workspace,
    runDir,
    output: resolve(io.cwd, output),
    credentialValues,
  });
  io.stdout.write(
    `Exported ${runDir} to ${summary.output}: ${summary.transcripts} transcript(s), ${summary.files.length} files.\n`,
  );
  return 0;
}
