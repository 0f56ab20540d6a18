/**
 * The workbench block (docs/workbench.md): a short model-facing text, sent in the first user
 * message of a new session (decisions.md D20), that says where the workbench is, what it holds, and the three
 * rules for using it. English literals kept next to the code: the model reads it, not the user.
 *
 * @module
 */
import type { WorkbenchEntry, WorkbenchSection } from './workbench-index.js';

/** What {@link renderWorkbenchBlock} needs from a workbench. */
export interface BlockSource {
  /** Absolute paths of the root and the three indexed directories. */
  root: string;
  external: boolean;
  sections: readonly WorkbenchSection[];
  /** Entries shown per section before "…N more". */
  maxEntries: number;
  scripts: string;
  artifacts: string;
  notes: string;
  /** How a path is shown to the model (relative inside the workspace, else absolute). */
  display(path: string): string;
}

/** Renders the block. A section with more than `maxEntries` files ends with "…N more, list the directory". */
export function renderWorkbenchBlock(source: BlockSource): string {
  const folder = (path: string): string => `\`${withSlash(source.display(path))}\``;
  const lines = [`## Workbench: ${folder(source.root)}`, ''];
  if (source.external) {
    lines.push(
      'It lives outside the repository on purpose, so that every worktree shares it: always use the absolute ' +
        'paths shown here.',
    );
  }
  lines.push('Use what exists here; do not rewrite what is already there.', '');
  for (const section of source.sections) {
    if (section.entries.length === 0) {
      lines.push(`${section.title} in ${folder(section.directory)}: (currently empty)`);
      continue;
    }
    lines.push(`${section.title} in ${folder(section.directory)} (${section.entries.length}):`);
    const shown = section.entries.slice(0, Math.max(0, source.maxEntries));
    for (const entry of shown) lines.push(`- ${blockEntry(entry, (path) => source.display(path))}`);
    const more = section.entries.length - shown.length;
    if (more > 0) lines.push(`- …${more} more, list the directory`);
  }
  lines.push(
    '',
    'Rules:',
    `1. A script you run a second time goes to ${folder(source.scripts)} under a descriptive name, with a ` +
      '`desc:` line at the top.',
    `2. Output over 2000 characters goes to ${folder(source.artifacts)}; in the conversation give only its path ` +
      'and your conclusion.',
    `3. Each decision, with its reasons, goes to ${folder(source.notes)}, one file per decision.`,
  );
  return lines.join('\n');
}

function blockEntry(entry: WorkbenchEntry, display: (path: string) => string): string {
  const path = `\`${display(entry.path)}\``;
  return entry.description === null ? path : `${path} — ${entry.description}`;
}

function withSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}
