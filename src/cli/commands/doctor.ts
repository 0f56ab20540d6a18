/**
 * `flower doctor [runDir]`: checks a run directory — every stored transcript, its summaries and tool
 * journal, the manifest, the lineage, leftover processes — and prints what it found grouped by severity,
 * each rule with what it means and what to do (docs/doctor.md). Read-only without `--fix`; with it, each
 * broken session is repaired into a new one first and the report is of the run after that. `--json` prints
 * the report as one object. Exit 1 when an error-level finding is there (or no run is), else 0.
 *
 * @module
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { renderWidth } from '../../render/display-width.js';
import { wrapText } from '../../render/wrap-text.js';
import { fixRun, fixServerRun, type FixReport } from '../../runtime/doctor-fix.js';
import {
  runDoctor,
  type DoctorFinding,
  type DoctorReport,
  type FindingSeverity,
} from '../../runtime/run-doctor.js';
import { loadConfig, type FlowerConfig } from '../../config/load-config.js';
import { storeKindOf, type RunStoreServer } from '../../runtime/run-stores.js';
import { readPgJournalRows } from '../../session/pg-journal-rows.js';
import { commandStoreLocation, readCommandRun, serverLeaseHolder } from '../command-stores.js';
import type { OutputStream } from '../cli-io.js';
import type { CommandContext } from '../command-context.js';
import { adviceFor } from '../doctor-advice.js';
import type { DoctorOptions, GlobalOptions } from '../program.js';

const RUN_FILES = ['sessions.db', 'manifest.json', 'lineage.json'];

const GROUPS: ReadonlyArray<[FindingSeverity, string]> = [
  ['error', 'Errors'],
  ['warning', 'Warnings'],
  ['info', 'Notes'],
];

/** Runs `flower doctor`; returns the exit code (1 when an error-level finding is there or no run is). */
export async function doctorCommand(
  runDir: string | undefined,
  options: DoctorOptions,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const directory = locate(runDir, globals, io.cwd);
  const config = loadConfig({ env: io.env, cwd: io.cwd });
  if (storeKindOf(commandStoreLocation(config, globals), directory) === 'postgres') {
    // The workspace names the run on the server unless `?run=`/`FLOWER_RUN` does: `-w`, else the run's parent.
    const given = runDir === undefined ? resolve(io.cwd, globals.workspace) : dirname(directory);
    const where = { workspace: existsSync(given) ? realpathSync(given) : given, runDir: directory };
    const found = await serverDoctor(config, globals, where);
    if (options.fix !== true) return printReport({ report: found.report, fix: null }, options, io);
    const running = await runningOnServer(found.report, config, globals, where);
    if (running !== null) {
      io.stderr.write(
        `Not fixing ${found.report.runDir}: a flower is running there (${running}). Stop it, then run --fix again.\n`,
      );
      return 1;
    }
    const fix = await fixServerRun(found.server, where, found.report);
    const report = (await serverDoctor(config, globals, where)).report;
    return printReport({ report, fix, onServer: true }, options, io);
  }
  if (!RUN_FILES.some((file) => existsSync(join(directory, file)))) {
    io.stderr.write(`No run in ${directory}. Give the run directory (or its workspace) as the argument.\n`);
    return 1;
  }
  let report = await runDoctor(directory);
  let fix: FixReport | null = null;
  if (options.fix === true) {
    const running = report.findings.find((finding) => finding.rule === 'flower-running');
    if (running !== undefined) {
      io.stderr.write(
        `Not fixing ${directory}: a flower is running there (${running.detail}). Stop it, then run --fix again.\n`,
      );
      return 1;
    }
    fix = await fixRun(directory, report);
    report = await runDoctor(directory);
  }
  return printReport({ report, fix }, options, io);
}

/**
 * The doctor's report of a run on a PostgreSQL server (`--store`, `FLOWER_STORE`): its transcripts, tool
 * journal, manifest rows and lineage read there; the run directory's own files (processes, spills) here.
 */
async function serverDoctor(
  config: FlowerConfig,
  globals: GlobalOptions,
  where: { workspace: string; runDir: string },
): Promise<{ report: DoctorReport; server: RunStoreServer }> {
  const read = (await readCommandRun(config, globals, where))!;
  const { transcripts, summaries } = read.transcripts;
  const sessionIds = [...new Set(transcripts.map((transcript) => transcript.sessionId))];
  const journal = await readPgJournalRows(read.server.location, read.server.schema, sessionIds);
  const found = await runDoctor(where.runDir, {
    location: read.location,
    transcripts,
    summaries,
    journal,
    rows: read.records.rows,
    lineage: read.lineage,
  });
  return { report: { ...found, runDir: read.location }, server: read.server };
}

/**
 * Who drives the run, when a flower does: one on this host from the run directory's process records, one
 * on any host from the run's lease on the server. Null when none does.
 */
async function runningOnServer(
  report: DoctorReport,
  config: FlowerConfig,
  globals: GlobalOptions,
  where: { workspace: string; runDir: string },
): Promise<string | null> {
  const running = report.findings.find((finding) => finding.rule === 'flower-running');
  if (running !== undefined) return running.detail;
  const holder = await serverLeaseHolder(config, globals, where);
  return holder === null || holder === undefined
    ? null
    : `pid ${holder.pid} on ${holder.host} holds its lease`;
}

/** Prints `found` (as JSON with `--json`); the exit code: 1 when an error-level finding is there. */
function printReport(
  found: { report: DoctorReport; fix: FixReport | null; onServer?: boolean },
  options: DoctorOptions,
  io: CommandContext['io'],
): number {
  const { report, fix } = found;
  const count = (severity: FindingSeverity): number =>
    report.findings.filter((finding) => finding.severity === severity).length;
  const counts = { error: count('error'), warning: count('warning'), info: count('info') };
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify({ ...report, counts, ...(fix === null ? {} : { fix }) })}\n`);
  } else {
    const lines = [
      ...(fix === null ? [] : [...fixLines(fix, found.onServer === true), '']),
      ...doctorLines(report.runDir, report.transcripts, report.findings),
    ];
    io.stdout.write(`${fit(lines, io.stdout).join('\n')}\n`);
  }
  return counts.error > 0 ? 1 : 0;
}

/** The report for a person: a heading, then per severity each rule once with its advice and its findings. */
export function doctorLines(
  runDir: string,
  transcripts: number,
  findings: readonly DoctorFinding[],
): string[] {
  const lines = [
    `flower doctor: ${runDir}`,
    `  ${transcripts} transcript${transcripts === 1 ? '' : 's'} checked`,
  ];
  if (findings.length === 0) return [...lines, '', 'No problem found.'];
  for (const [severity, title] of GROUPS) {
    const group = findings.filter((finding) => finding.severity === severity);
    if (group.length === 0) continue;
    lines.push('', `${title} (${group.length})`);
    const rules = [...new Set(group.map((finding) => finding.rule))];
    for (const rule of rules) {
      const advice = adviceFor(rule);
      const ofRule = group.filter((finding) => finding.rule === rule);
      lines.push(`  ${rule} (${ofRule.length}): ${advice.means}`, `    What to do: ${advice.todo}`);
      for (const finding of ofRule) lines.push(`    - ${where(finding)}${finding.detail}`);
    }
  }
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  lines.push('', errors > 0 ? `${errors} error${errors === 1 ? '' : 's'}: exit 1.` : 'No error.');
  return lines;
}

/**
 * What `--fix` did: each session repaired with its changes, each one it could not repair and why. `onServer`:
 * the copies are on a server, so resuming one needs the same store.
 */
export function fixLines(fix: FixReport, onServer = false): string[] {
  if (fix.fixed.length === 0 && fix.notFixed.length === 0) return ['flower doctor --fix: nothing to repair.'];
  const lines = ['flower doctor --fix'];
  for (const item of fix.fixed) {
    const steps =
      item.steps.length === 0
        ? 'no lineage step resumed it'
        : `lineage step${item.steps.length === 1 ? '' : 's'} ${item.steps.join(', ')} now resume${item.steps.length === 1 ? 's' : ''} the copy`;
    lines.push(
      `  Repaired session ${item.sessionId} into new session ${item.newSessionId} (${steps}); the original stays:`,
    );
    for (const repair of item.repairs) {
      const place = repair.subpath === null ? '' : `${repair.subpath}: `;
      lines.push(`    - ${repair.kind}: ${place}${repair.detail}`);
    }
    if (item.steps.length === 0)
      lines.push(
        `    Resume it with: flower once --resume ${item.newSessionId} "..."${onServer ? ' (with the same --store or FLOWER_STORE)' : ''}`,
      );
  }
  for (const item of fix.notFixed) {
    const place = item.subpath === null ? '' : ` (${item.subpath})`;
    const rules = [...new Set(item.findings.filter((f) => f.severity === 'error').map((f) => f.rule))];
    lines.push(
      `  Not repaired: session ${item.sessionId}${place}: ${rules.join(', ')} cannot be repaired without losing part of it; nothing was written for it.`,
    );
  }
  if (fix.lineageProblem !== null) lines.push(`  The lineage was not changed: ${fix.lineageProblem}.`);
  return lines;
}

function where(finding: DoctorFinding): string {
  const parts: string[] = [];
  if (finding.sessionId !== null) parts.push(`session ${finding.sessionId.slice(0, 8)}`);
  if (finding.subpath !== null) parts.push(finding.subpath);
  if (finding.index !== null) parts.push(`entry ${finding.index}`);
  return parts.length === 0 ? '' : `${parts.join(', ')}: `;
}

/** On a terminal, wrapped at word boundaries to its width; piped, lines as they are. */
function fit(lines: readonly string[], stream: OutputStream): string[] {
  if (stream.isTTY !== true) return [...lines];
  const width = renderWidth(stream.columns);
  return lines.flatMap((line) => {
    if (line === '') return [''];
    const indent = /^ */.exec(line)?.[0] ?? '';
    return wrapText(line.slice(indent.length), width, {
      first: indent,
      next: `${indent}  `,
      splitLongWords: false,
    });
  });
}

/**
 * The run directory: `runDir` itself when it holds a run, else its `runs/`; without `runDir`, `-r`, else
 * `<-w>/runs`.
 */
function locate(runDir: string | undefined, globals: GlobalOptions, cwd: string): string {
  if (runDir === undefined) {
    if (globals.runDir !== undefined) return resolve(cwd, globals.runDir);
    return join(resolve(cwd, globals.workspace), 'runs');
  }
  const given = resolve(cwd, runDir);
  const holdsRun = RUN_FILES.some((file) => existsSync(join(given, file)));
  if (!holdsRun && existsSync(join(given, 'runs'))) return join(given, 'runs');
  return given;
}
