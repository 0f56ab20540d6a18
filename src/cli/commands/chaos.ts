/**
 * `flower chaos` (docs/reliability.md, "flower chaos"): runs a scripted scenario against flower's fake
 * Messages API once cleanly to learn its message boundaries, then once per boundary and fault, reruns
 * `flower` after each and checks the result against the clean run. Prints a table (boundary × fault →
 * pass/fail with the reason), or with `--json` one JSON object. Exit 0 when every case passed, 1 otherwise.
 * The engine is `src/chaos/run-chaos.ts`; this file only chooses the scenario and prints.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ChaosFault } from '../../chaos/chaos-fault.js';
import { CHAOS_FAULTS } from '../../chaos/chaos-fault.js';
import { DEMO_CHAOS_SCENARIO } from '../../chaos/chaos-scenario.js';
import { runChaos, type ChaosOutcome, type ChaosReport } from '../../chaos/run-chaos.js';
import type { CommandContext } from '../command-context.js';
import type { ChaosOptions, GlobalOptions } from '../program.js';
import { demoEnvironment } from '../run-demo.js';

/**
 * `dist/cli/main.js`: each case runs flower as a new process. This module is `dist/cli/commands/chaos.js` as
 * tsc writes it, but a chunk directly in `dist/cli/` in the bundled binary (docs/decisions.md D226), so the
 * main script is whichever of the two relative places exists.
 */
const CLI_MAIN = ['./main.js', '../main.js']
  .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
  .find((path) => existsSync(path)) as string;

/** Runs `flower chaos`; returns the exit code. */
export async function chaosCommand(
  options: ChaosOptions,
  _globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  if (options.scenario !== 'demo') {
    io.stderr.write(
      `flower chaos: unknown scenario "${options.scenario}". Only --scenario demo is built in today; workflow modules are not supported yet.\n`,
    );
    return 2;
  }
  const faults: readonly ChaosFault[] = options.faults ?? CHAOS_FAULTS;
  const person = options.json !== true;
  if (person) {
    io.stderr.write(
      `flower chaos: scenario ${DEMO_CHAOS_SCENARIO.name}, faults ${faults.join(', ')}; a clean run first to learn the boundaries…\n`,
    );
  }
  const report = await runChaos({
    scenario: DEMO_CHAOS_SCENARIO,
    faults,
    cli: CLI_MAIN,
    parent: tmpdir(),
    environment: (folder, url) => demoEnvironment(io.env, folder, url),
    parallel: options.parallel,
    keepFailed: options.keep === true,
    ...(options.boundaries === undefined ? {} : { boundaries: options.boundaries }),
    onCase: (outcome) => {
      if (person) io.stderr.write(`  ${caseLine(outcome)}\n`);
    },
  });
  if (options.json === true) io.stdout.write(`${JSON.stringify(jsonReport(report))}\n`);
  else io.stdout.write(tableText(report));
  return report.cleanFailure === null && report.cases.every((outcome) => outcome.passed) ? 0 : 1;
}

function caseLine(outcome: ChaosOutcome): string {
  return `boundary ${outcome.boundary} × ${outcome.fault}: ${outcome.passed ? 'pass' : 'FAIL'} (${(outcome.ms / 1_000).toFixed(1)} s)`;
}

/** The report as JSON (schema `flower-chaos/1`). */
export function jsonReport(report: ChaosReport): Record<string, unknown> {
  return {
    schema: 'flower-chaos/1',
    scenario: report.scenario,
    boundaries: report.boundaries,
    clean_ms: report.cleanMs,
    clean_failure: report.cleanFailure,
    tried: report.cases.length,
    passed: report.cases.filter((outcome) => outcome.passed).length,
    cases: report.cases.map((outcome) => ({
      boundary: outcome.boundary,
      fault: outcome.fault,
      passed: outcome.passed,
      reason: outcome.reason,
      ms: outcome.ms,
      cost: outcome.cost,
      unrecorded: outcome.unrecorded,
      ...(outcome.kept === undefined ? {} : { kept: outcome.kept }),
    })),
  };
}

/** The table a person reads: one line per case, then the totals. */
export function tableText(report: ChaosReport): string {
  if (report.cleanFailure !== null) {
    return `The clean run of scenario ${report.scenario} failed its own checks, so no fault was tried: ${report.cleanFailure}\n`;
  }
  const lines = [`boundary  fault    result  reason`];
  for (const outcome of report.cases) {
    lines.push(
      `${String(outcome.boundary).padStart(8)}  ${outcome.fault.padEnd(7)}  ${outcome.passed ? 'pass' : 'FAIL'}    ${outcome.reason}${outcome.cost === null ? '' : ` (cost: ${outcome.cost})`}${outcome.unrecorded === null ? '' : ` (${outcome.unrecorded})`}${outcome.kept === undefined ? '' : ` (kept: ${outcome.kept})`}`,
    );
  }
  const passed = report.cases.filter((outcome) => outcome.passed).length;
  lines.push(
    '',
    `${report.cases.length} case(s) ran: ${passed} passed, ${report.cases.length - passed} failed; scenario ${report.scenario}, ${report.boundaries} message boundaries (clean run ${(report.cleanMs / 1_000).toFixed(1)} s).`,
  );
  return `${lines.join('\n')}\n`;
}
