/**
 * `flower verify [dir]` (docs/goal-checks.md): runs every machine check of the folder's goal against its
 * tree as it is now — in a clean copy, with no model and no credentials — and prints a table (item, check,
 * result, time), or with `--json` one JSON object. Exit 0 only when every automated check passes; 1 when one
 * fails, is malformed, or there is no goal with checks to run. A failing verify marks the run's ACHIEVED
 * verdict stale, and the next `flower` in the folder says so.
 *
 * @module
 */
import { relative, resolve } from 'node:path';
import type { CheckOutcome } from '../../runtime/check-record.js';
import { displayWidth, renderWidth } from '../../render/display-width.js';
import { wrapText } from '../../render/wrap-text.js';
import { isVerified } from '../../workflow/goal-check-round.js';
import { verifyGoal } from '../../workflow/verify-goal.js';
import type { OutputStream } from '../cli-io.js';
import type { CommandContext } from '../command-context.js';
import type { GlobalOptions, VerifyOptions } from '../program.js';

/** Runs `flower verify`; returns the exit code. */
export async function verifyCommand(
  dir: string | undefined,
  options: VerifyOptions,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const workspace = resolve(io.cwd, dir ?? globals.workspace);
  const outcome = await verifyGoal({
    workspace,
    ...(globals.runDir === undefined ? {} : { runDir: resolve(io.cwd, globals.runDir) }),
  });
  const shown = relative(io.cwd, outcome.goalPath) || outcome.goalPath;
  if (outcome.kind !== 'checked') {
    const line =
      outcome.kind === 'no-goal'
        ? `No goal to verify: ${shown} is missing or incomplete. Run \`flower\` here first to set one.`
        : `The goal in ${shown} has no machine checks to run: add a \`\`\`check block under each item (docs/goal-checks.md).`;
    if (options.json === true) {
      io.stdout.write(
        `${JSON.stringify({ passed: false, problem: outcome.kind, goal: outcome.goalPath })}\n`,
      );
    }
    io.stderr.write(`${line}\n`);
    return 1;
  }
  const { record } = outcome;
  if (options.json === true) {
    io.stdout.write(
      `${JSON.stringify({
        passed: outcome.passed,
        summary: record.summary,
        goal: outcome.goalPath,
        host: record.host,
        tree: record.tree,
        items: record.items,
        failed: outcome.failed,
        stale_marked: !outcome.passed && outcome.markChanged,
      })}\n`,
    );
    return outcome.passed ? 0 : 1;
  }
  const notes: string[] = [];
  for (const item of record.items.filter((entry) => entry.why !== '' && entry.kind !== 'manual')) {
    notes.push(`x ${item.item.replace(/\s+/g, ' ')}: ${item.why}`);
  }
  notes.push(`${record.summary} (${record.host.os} ${record.host.arch}, ${record.tree}).`);
  if (outcome.markChanged) {
    notes.push(
      outcome.passed
        ? 'The stale mark on the last verdict is cleared.'
        : 'The last ACHIEVED verdict is now marked stale in the manifest; the next `flower` here will say so.',
    );
  }
  const lines = [...table(record.items, io.stdout), '', ...wrapped(notes, io.stdout)];
  io.stdout.write(`${lines.join('\n')}\n`);
  return outcome.passed ? 0 : 1;
}

const HEAD = ['item', 'check', 'result', 'time'] as const;

/**
 * The table. On a terminal the item and check columns are cut (with `…`) to fit its width; piped, rows are
 * whole, since a pipe has no width and a cut command cannot be copied.
 */
function table(items: readonly CheckOutcome[], stream: OutputStream): string[] {
  const rows = items.map((item) => [
    item.item.replace(/\s+/g, ' '),
    item.check,
    resultWord(item),
    time(item),
  ]);
  const widths = HEAD.map((head, column) =>
    Math.max(displayWidth(head), ...rows.map((row) => displayWidth(row[column] ?? ''))),
  );
  if (stream.isTTY === true) {
    // Three gaps of three spaces between the four columns.
    const room = renderWidth(stream.columns) - 3 * 3 - (widths[2] ?? 0) - (widths[3] ?? 0);
    let [item = 0, check = 0] = widths;
    while (item + check > room && (item > 12 || check > 12)) {
      if (item >= check) item--;
      else check--;
    }
    widths[0] = item;
    widths[1] = check;
  }
  const render = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => pad(cut(cell, widths[column] ?? 0), widths[column] ?? 0))
      .join('   ')
      .trimEnd();
  return [render(HEAD), ...rows.map(render)];
}

/** On a terminal, lines wrapped at word boundaries to its width; piped, whole. */
function wrapped(lines: readonly string[], stream: OutputStream): string[] {
  if (stream.isTTY !== true) return [...lines];
  const width = renderWidth(stream.columns);
  return lines.flatMap((line) => wrapText(line, width, { first: '', next: '  ', splitLongWords: false }));
}

function resultWord(item: CheckOutcome): string {
  if (item.kind === 'invalid') return 'MALFORMED';
  if (item.kind === 'manual') return item.needs === null ? 'MANUAL' : 'NOT HERE';
  return isVerified(item) ? 'PASS' : 'FAIL';
}

function time(item: CheckOutcome): string {
  return item.kind === 'command' ? `${(item.duration_ms / 1000).toFixed(1)} s` : '-';
}

function cut(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = '';
  for (const char of text) {
    if (displayWidth(`${kept}${char}…`) > width) break;
    kept += char;
  }
  return `${kept}…`;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}
