/**
 * The words of flower's goal-check results: the judge's request section, the next round's feedback to the
 * work session, and `notes/checks.md` for a person and the workers (docs/goal-checks.md).
 *
 * @module
 */
import { dirname, join } from 'node:path';
import type { CheckOutcome, CheckRecord } from '../runtime/check-record.js';
import { isFailing, isVerified } from './check-verdict.js';
import { freezeDocument } from './freeze-document.js';

/** The section of the judge's request that carries flower's results and what they mean for the verdict. */
export function checksForJudge(record: CheckRecord): string {
  const lines = [
    `flower ran the goal's checks itself on a clean copy of this round's tree (${record.host.os} ${record.host.arch}), and each once on the tree before the work began (the negative control). ${record.summary}.`,
    '',
    ...record.items.map(resultLine),
  ];
  const failing = record.items.filter((outcome) => isFailing(outcome) && outcome.kind === 'command');
  for (const outcome of failing) {
    const output = outputTails(outcome);
    if (output !== '') lines.push('', `Output of "${outcome.item}":`, output);
  }
  lines.push(
    '',
    'These results bind the verdict: while any check above fails, is malformed or passes on the base tree, flower records NOT_YET whatever you conclude, and an item that needs another environment is never ACHIEVED here. A check that passes on the base tree tests nothing; flower asks for a replacement. Judge the items the checks do not cover yourself.',
  );
  return lines.join('\n');
}

/** What the work session is told next round about the checks that failed: why, and their output. */
export function checksFeedback(record: CheckRecord): string {
  const failing = record.items.filter((outcome) => isFailing(outcome) && outcome.kind === 'command');
  if (failing.length === 0) return '';
  const parts = ["flower ran the goal's checks on a clean copy of your tree; these did not pass:"];
  for (const outcome of failing) {
    parts.push(`- ${outcome.item}: \`${outcome.check}\` — ${outcome.why}`);
    const output = outputTails(outcome);
    if (output !== '') parts.push(output);
  }
  return parts.join('\n');
}

/** `notes/checks.md` beside the goal: the latest results, for a person and for the workers. */
export function writeChecksNote(goalPath: string, record: CheckRecord, label: string): string {
  const path = join(dirname(goalPath), 'checks.md');
  const lines = [
    '# Goal checks',
    '',
    `> Written by flower after ${label}: it ran each check itself on a clean copy of the tree (${record.tree || 'no tree'}) on ${record.host.os} ${record.host.arch}, and on the base tree (${record.base || 'none recorded'}). Rewritten every round.`,
    '',
    `${record.summary}.`,
    '',
    ...record.items.map(resultLine),
  ];
  for (const outcome of record.items.filter((item) => isFailing(item) && item.kind === 'command')) {
    const output = outputTails(outcome);
    if (output !== '') lines.push('', `## ${outcome.item}`, '', output);
  }
  freezeDocument(path, `${lines.join('\n')}\n`);
  return path;
}

function resultLine(outcome: CheckOutcome): string {
  const status =
    outcome.kind === 'invalid'
      ? 'MALFORMED'
      : outcome.kind === 'manual'
        ? outcome.needs === null
          ? 'MANUAL'
          : 'NOT HERE'
        : isVerified(outcome)
          ? 'PASS'
          : outcome.passes_on_round === true
            ? 'BLIND'
            : 'FAIL';
  const base =
    outcome.kind !== 'command'
      ? ''
      : ` · round ${cell(outcome.passes_on_round)}, base ${cell(outcome.passes_on_base)}`;
  const why = outcome.why === '' ? '' : ` — ${outcome.why}`;
  return `- [${status}] ${outcome.item} · \`${outcome.check}\`${base}${why}`;
}

function cell(value: boolean | null): string {
  return value === null ? 'not run' : value ? 'pass' : 'fail';
}

function outputTails(outcome: CheckOutcome): string {
  const parts: string[] = [];
  const shown = (text: string): string => (text.length > 1000 ? `…${text.slice(-1000)}` : text).trimEnd();
  if (outcome.stdout_tail.trim() !== '') parts.push(`stdout:\n\`\`\`\n${shown(outcome.stdout_tail)}\n\`\`\``);
  if (outcome.stderr_tail.trim() !== '') parts.push(`stderr:\n\`\`\`\n${shown(outcome.stderr_tail)}\n\`\`\``);
  return parts.join('\n');
}
