/**
 * The doctor's checks of the files a run's transcripts and agents rely on: the workbench's INDEX.md against
 * the files it lists, and the spill files the stored tool results point at (docs/doctor.md). Read-only.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { blocksOf, isToolResult, resultText, type Entry } from '../session/entry-content.js';
import { Workbench } from '../workbench/workbench.js';
import type { DoctorFinding } from './run-doctor.js';

/** One stored transcript, as the doctor read it. */
export interface CheckedTranscript {
  sessionId: string;
  subpath: string | null;
  entries: readonly Entry[];
}

/**
 * The path in a pointer left in place of a tool result: the spill guard's (`… characters spilled to <path>
 * — Read it …`, relative to the workspace when inside it) and trim's (`The full text is in <path>; Read it
 * …`, absolute).
 */
const POINTERS = [/characters spilled to (.+?) — Read it/g, /The full text is in (.+?); Read it/g];

const NONE = { sessionId: null, subpath: null, index: null, uuid: null };

/**
 * Every pointer in a stored tool result whose spill file is not there. A relative path is read against the
 * entry's own `cwd` (the workspace it was written in), else `workspace`.
 */
export function checkSpillPointers(
  transcripts: readonly CheckedTranscript[],
  workspace: string,
): DoctorFinding[] {
  const findings: DoctorFinding[] = [];
  for (const transcript of transcripts) {
    transcript.entries.forEach((entry, index) => {
      if (entry.type !== 'user') return;
      for (const block of blocksOf(entry) ?? []) {
        if (!isToolResult(block)) continue;
        const text = resultText(block['content']);
        if (text === null || !text.includes(' Read it')) continue;
        const base = typeof entry['cwd'] === 'string' ? entry['cwd'] : workspace;
        for (const pattern of POINTERS) {
          for (const match of text.matchAll(pattern)) {
            const shown = match[1] as string;
            const path = isAbsolute(shown) ? shown : resolve(base, shown);
            if (existsSync(path)) continue;
            findings.push({
              area: 'files',
              rule: 'spill-file-missing',
              severity: 'warning',
              sessionId: transcript.sessionId,
              subpath: transcript.subpath,
              index,
              uuid: typeof entry.uuid === 'string' ? entry.uuid : null,
              detail: `the result of ${block.tool_use_id} points at ${path}, which is not there`,
            });
          }
        }
      }
    });
  }
  return findings;
}

/**
 * The workbenches this run may have — `<runDir>/workbench` (`-W`), `<workspace>/.flower` and
 * `.flower-<name>` beside the workspace (`--isolate`) — each with an INDEX.md compared to the files it
 * indexes: a file listed that is gone, or a file there that is not listed.
 */
export function checkWorkbenchIndexes(runDir: string, workspace: string): DoctorFinding[] {
  const roots = new Set([
    join(runDir, 'workbench'),
    join(workspace, '.flower'),
    join(dirname(workspace), `.flower-${basename(workspace)}`),
  ]);
  const findings: DoctorFinding[] = [];
  for (const root of roots) {
    const workbench = new Workbench(workspace, { root });
    if (!existsSync(workbench.index)) continue;
    const listed = new Set<string>();
    for (const line of readFileSync(workbench.index, 'utf8').split('\n')) {
      const name = /^- `(.+?)` — /.exec(line)?.[1];
      if (name !== undefined) listed.add(name);
    }
    const present = new Set(
      workbench.sections().flatMap((section) => section.entries.map((entry) => entry.name)),
    );
    const add = (detail: string): void => {
      findings.push({ area: 'files', rule: 'workbench-index-stale', severity: 'warning', ...NONE, detail });
    };
    for (const name of listed)
      if (!present.has(name)) add(`${workbench.index} lists ${name}, which is not there`);
    for (const name of present)
      if (!listed.has(name)) add(`${join(root, name)} is not in ${workbench.index}`);
  }
  return findings;
}
