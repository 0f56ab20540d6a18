/**
 * `flower status [dir]`: where the run of a folder stands — its steps, verdicts, cost and context, and
 * whether a flower drives it right now — without starting anything, touching credentials or writing a
 * single file. `dir` is the workspace (default: `-w`, else the current directory) or a run directory
 * itself; `-r` names the run directory explicitly. `--json` prints the same facts as one JSON object.
 * A folder with no run gets one line and exit 1, like every other deliberate stop.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { stepRole } from '../../analyze/step-role.js';
import { loadConfig } from '../../config/load-config.js';
import { MANIFEST_FILE } from '../../runtime/manifest.js';
import { runStatus } from '../../runtime/run-status.js';
import { renderWidth } from '../../render/display-width.js';
import { wrapText } from '../../render/wrap-text.js';
import type { OutputStream } from '../cli-io.js';
import type { CommandContext } from '../command-context.js';
import { readCommandRecords, serverLeaseHolder } from '../command-stores.js';
import type { GlobalOptions, StatusOptions } from '../program.js';
import { statusLines } from '../status-lines.js';

/** Runs `flower status`; returns the exit code (0: a run was found; 1: none here). */
export async function statusCommand(
  dir: string | undefined,
  options: StatusOptions,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const { workspace, runDir } = locateRun(dir, globals, io.cwd);
  const config = loadConfig({ env: io.env, cwd: io.cwd });
  // A run on a server (`--store`, `FLOWER_STORE`) keeps its steps and lineage there, not in the run directory.
  const records = await readCommandRecords(config, globals, { workspace, runDir });
  // Its driver may be on another host: the lease there says who, where this host's process records cannot.
  const leased =
    records === undefined ? undefined : await serverLeaseHolder(config, globals, { workspace, runDir });
  const status = runStatus(workspace, runDir, {
    roleOf: stepRole,
    ...(records === undefined ? {} : { records }),
    ...(leased === undefined
      ? {}
      : {
          serverHolder:
            leased === null
              ? null
              : { pid: leased.pid, host: leased.host, since: Math.floor(leased.since / 1000), go: false },
        }),
  });
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify(status)}\n`);
    return status.found ? 0 : 1;
  }
  const lines = statusLines(status, { env: config.env, lang: config.lang });
  // The facts are the command's result (stdout); "no run here" is a deliberate stop (stderr).
  const stream = status.found ? io.stdout : io.stderr;
  stream.write(`${fitToTerminal(lines, stream).join('\n')}\n`);
  return status.found ? 0 : 1;
}

/**
 * On a terminal, each line wrapped at word boundaries to its width (continuations indented two more
 * columns), so the terminal never cuts a word; paths and long words are kept whole to stay copyable.
 * Piped, lines are written as they are.
 */
function fitToTerminal(lines: readonly string[], stream: OutputStream): string[] {
  if (stream.isTTY !== true) return [...lines];
  const width = renderWidth(stream.columns);
  return lines.flatMap((line) => {
    const indent = /^ */.exec(line)?.[0] ?? '';
    return wrapText(line.slice(indent.length), width, {
      first: indent,
      next: `${indent}  `,
      splitLongWords: false,
    });
  });
}

/**
 * The workspace and run directory `status` (and `dashboard`) looks at. A `dir` that is itself a run directory (it holds a
 * manifest but no `runs/` of its own) is taken as one, with its parent as the workspace, so both
 * `flower status ~/app` and `flower status ~/app/runs` work.
 */
export function locateRun(
  dir: string | undefined,
  globals: GlobalOptions,
  cwd: string,
): { workspace: string; runDir: string } {
  const workspace = resolve(cwd, dir ?? globals.workspace);
  if (globals.runDir !== undefined) return { workspace, runDir: resolve(cwd, globals.runDir) };
  const looksLikeRunDir =
    dir !== undefined &&
    existsSync(join(workspace, MANIFEST_FILE)) &&
    !existsSync(join(workspace, 'runs', MANIFEST_FILE));
  if (looksLikeRunDir) return { workspace: dirname(workspace), runDir: workspace };
  return { workspace, runDir: join(workspace, 'runs') };
}
