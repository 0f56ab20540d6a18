/**
 * `flower doctor [runDir]`: checks a run directory — every stored transcript, its summaries and tool
 * journal, the manifest, the lineage, leftover processes — and prints what it found grouped by severity,
 * each rule with what it means and what to do (docs/doctor.md). Read-only. `--json` prints the report as one
 * object. Exit 1 when an error-level finding is there (or no run is), else 0.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderWidth } from '../../render/display-width.js';
import { wrapText } from '../../render/wrap-text.js';
import { runDoctor, type DoctorFinding, type FindingSeverity } from '../../runtime/run-doctor.js';
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
  if (!RUN_FILES.some((file) => existsSync(join(directory, file)))) {
    io.stderr.write(`No run in ${directory}. Give the run directory (or its workspace) as the argument.\n`);
    return 1;
  }
  const report = await runDoctor(directory);
  const count = (severity: FindingSeverity): number =>
    report.findings.filter((finding) => finding.severity === severity).length;
  const counts = { error: count('error'), warning: count('warning'), info: count('info') };
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify({ ...report, counts })}\n`);
  } else {
    io.stdout.write(
      `${fit(doctorLines(report.runDir, report.transcripts, report.findings), io.stdout).join('\n')}\n`,
    );
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
