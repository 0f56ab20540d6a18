/**
 * `flower analyze [runDir]`: the figures of a run (docs/analyze.md) — read-only, no request sent, no
 * credential read; the only file it writes is the `--html` report the user asked for. `runDir` is the run
 * directory or a workspace holding `runs/` (default: `-r`, else `<workspace>/runs`). On a terminal: aligned
 * tables with bars, fitted to its width; piped: the same at 80 columns without colour; `--json`: one object.
 *
 * @module
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import picocolors from 'picocolors';
import { analysisHtml } from '../../analyze/analysis-html.js';
import { analysisLines, PLAIN, type TextPaint } from '../../analyze/analysis-text.js';
import { analyzeRun } from '../../analyze/analyze-run.js';
import { loadConfig } from '../../config/load-config.js';
import { errorMessage } from '../../internal/error-text.js';
import { renderWidth } from '../../render/display-width.js';
import { useColor } from '../cli-io.js';
import type { CommandContext } from '../command-context.js';
import { readCommandRun } from '../command-stores.js';
import type { AnalyzeOptions, GlobalOptions } from '../program.js';

/** Runs `flower analyze`; returns the exit code (0; 1 when there is no run or the report cannot be written). */
export async function analyzeCommand(
  runDir: string | undefined,
  options: AnalyzeOptions,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const directory = locate(runDir, globals, io.cwd);
  // A run on a server keeps its steps, lineage and transcripts there, not in the run directory.
  const read = await readCommandRun(loadConfig({ env: io.env, cwd: io.cwd }), globals, {
    // The workspace names the run on the server unless `?run=`/`FLOWER_RUN` does: `-w`, else the run's parent.
    workspace: runDir === undefined ? resolve(io.cwd, globals.workspace) : dirname(directory),
    runDir: directory,
  });
  const analysis = analyzeRun(
    directory,
    read === undefined ? {} : { records: read.records, transcripts: read.transcripts.transcripts },
  );
  if (options.html !== undefined) {
    const target = resolve(io.cwd, options.html);
    try {
      writeFileSync(target, analysisHtml(analysis));
    } catch (error) {
      io.stderr.write(
        `Could not write the report to ${target}: ${errorMessage(error)}. Give a path in a folder you can write to.\n`,
      );
      return 1;
    }
    if (options.json !== true) io.stderr.write(`Report written to ${target}\n`);
  }
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify(analysis)}\n`);
    return 0;
  }
  const terminal = io.stdout.isTTY === true;
  const config = loadConfig({ env: io.env, cwd: io.cwd });
  const paint: TextPaint = useColor(io.stdout, config.env) ? colours() : PLAIN;
  const width = terminal ? renderWidth(io.stdout.columns) : 80;
  io.stdout.write(`${analysisLines(analysis, width, paint).join('\n')}\n`);
  return 0;
}

function colours(): TextPaint {
  return { heading: picocolors.bold, bar: picocolors.cyan, dim: picocolors.dim };
}

/**
 * The run directory: `runDir` itself when it holds a run, else its `runs/`; without `runDir`, `-r`, else
 * `<-w>/runs`. A folder with neither is passed on as it is, and analyze says there is no run in it.
 */
function locate(runDir: string | undefined, globals: GlobalOptions, cwd: string): string {
  if (runDir === undefined) {
    if (globals.runDir !== undefined) return resolve(cwd, globals.runDir);
    return join(resolve(cwd, globals.workspace), 'runs');
  }
  const given = resolve(cwd, runDir);
  const holdsRun = ['sessions.db', 'manifest.json'].some((file) => existsSync(join(given, file)));
  if (!holdsRun && existsSync(join(given, 'runs'))) return join(given, 'runs');
  return given;
}
