/**
 * The workbench (docs/workbench.md): a shared shelf beside the code where agents keep reusable
 * scripts, long outputs and decision records, indexed in INDEX.md so each new session knows what exists.
 * The reference measured the payoff on a 10-hour run (HT001): 61 scripts written 95 times and run 331
 * times, 92% of runs reusing one. This class knows the layout and renders the index and the prompt block;
 * it never deletes a file.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

import { isPathInside } from './path-inside.js';
import { renderWorkbenchBlock } from './workbench-block.js';
import { renderIndex, workbenchSections } from './workbench-index.js';
import type { WorkbenchSection } from './workbench-index.js';
import { notesFile } from './notes-file.js';
import { NOTES, workbenchPath } from './workbench-path.js';

/** Options of {@link Workbench}. */
export interface WorkbenchOptions {
  /** Where the workbench lives (default {@link workbenchPath}`(workspace)`, i.e. `<workspace>/.flower`). */
  root?: string;
  /** Entries shown per section in {@link Workbench.promptBlock} (default 40). */
  maxIndexEntries?: number;
}

/** The notes that have a fixed name ({@link NOTES}). */
export type NotesFile = 'brief' | 'goal' | 'qaLog';

/** Characters a step name may not carry into a file name (Windows' reserved set plus both separators). */
const UNSAFE_IN_NAME = /[/\\:*?"<>|]/g;

/** The workbench of one workspace. Constructing it touches nothing on disk; {@link ensure} creates it. */
export class Workbench {
  /** The workspace (the agent's cwd), absolute. */
  readonly workspace: string;
  /** The workbench root, absolute. */
  readonly root: string;
  /** True when the root is outside the workspace: the model is then shown absolute paths. */
  readonly external: boolean;
  /** `<root>/notes`: one decision per file, plus the brief, goal, Q&A log and handoffs. */
  readonly notes: string;
  /** `<root>/scripts`: scripts worth running again. */
  readonly scripts: string;
  /** `<root>/artifacts`: outputs over 2000 characters. */
  readonly artifacts: string;
  /** `<root>/spill`: oversized tool results saved by the spill guard (not indexed). */
  readonly spill: string;
  /** `<root>/INDEX.md`. */
  readonly index: string;
  readonly #maxIndexEntries: number;

  constructor(workspace: string, options: WorkbenchOptions = {}) {
    this.workspace = resolve(workspace);
    this.root = resolve(options.root ?? workbenchPath(this.workspace));
    this.external = !isPathInside(this.root, this.workspace);
    this.notes = join(this.root, 'notes');
    this.scripts = join(this.root, 'scripts');
    this.artifacts = join(this.root, 'artifacts');
    this.spill = join(this.root, 'spill');
    this.index = join(this.root, 'INDEX.md');
    this.#maxIndexEntries = options.maxIndexEntries ?? 40;
  }

  /** Creates the root, its four directories and INDEX.md (existing files are kept). */
  ensure(): this {
    for (const directory of [this.root, this.notes, this.scripts, this.artifacts, this.spill]) {
      mkdirSync(directory, { recursive: true });
    }
    this.refresh();
    return this;
  }

  /**
   * Rewrites INDEX.md whole from what is on disk now. Written only when its text changes (an unchanged
   * index keeps its mtime), through a temp file and a rename, so a reader never sees half an index.
   */
  refresh(): void {
    const text = renderIndex(this.sections());
    if (readText(this.index) === text) return;
    mkdirSync(this.root, { recursive: true });
    // A dotfile, so a listing that races this write never shows it.
    const temporary = join(this.root, `.INDEX.md.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      writeFileSync(temporary, text);
      renameSync(temporary, this.index);
    } finally {
      rmSync(temporary, { force: true });
    }
  }

  /** The three indexed sections as they are on disk now. */
  sections(): WorkbenchSection[] {
    return workbenchSections(this);
  }

  /** The short block that tells the model what the workbench holds and how to use it (docs/workbench.md). */
  promptBlock(): string {
    return renderWorkbenchBlock({
      root: this.root,
      external: this.external,
      sections: this.sections(),
      maxEntries: this.#maxIndexEntries,
      scripts: this.scripts,
      artifacts: this.artifacts,
      notes: this.notes,
      display: (path) => this.display(path),
    });
  }

  /** `path` as shown to the model: relative to the workspace when inside it, else absolute. */
  display(path: string): string {
    const absolute = resolve(this.workspace, path);
    if (!isPathInside(absolute, this.workspace)) return absolute;
    const rest = relative(this.workspace, absolute);
    return rest === '' ? '.' : rest.split(sep).join('/');
  }

  /**
   * The handoff document of `step`: `notes/handoff-<step>.md`, the step name stripped of `/\:*?"<>|` and
   * trimmed (`step` when nothing is left).
   */
  handoffPath(step: string): string {
    const safe = step.replace(UNSAFE_IN_NAME, '').trim();
    return join(this.notes, `${NOTES.handoffPrefix}${safe === '' ? 'step' : safe}.md`);
  }

  /**
   * The path of a fixed note: the English name, or the Python flower's Chinese name when only that file
   * exists (decisions.md D1). New files are therefore always written under the English name.
   */
  notesFile(which: NotesFile): string {
    return notesFile(this.notes, which);
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
