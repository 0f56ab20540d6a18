/**
 * The workbench where the run really kept it, its folder sizes, and how often its scripts were written and
 * run. The location follows the one rule the run used (`workbenchPath`): `-W` puts it in the run directory,
 * `--isolate` beside the workspace, the default inside it — analyze looks in that order and takes the first
 * that exists, instead of assuming `<runDir>/../.flower` as the reference did.
 *
 * @module
 */
import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { workbenchPath } from '../workbench/workbench-path.js';
import type { FolderSize, ScriptReuse, WorkbenchUse } from './run-analysis.js';
import type { ToolCall } from './transcript-stats.js';

/** Where trim archives old large results, relative to the workspace (its default `spillDirname`). */
const TRIM_ARCHIVES = join('.flower', 'spill');

/** The workbench root and the rule that placed it, or `null` when none exists. */
export function locateWorkbench(
  runDir: string,
  workspace: string,
): { path: string; placement: NonNullable<WorkbenchUse['placement']> } | null {
  const candidates = [
    { path: workbenchPath(workspace, { runDir }), placement: 'run-dir' as const },
    { path: workbenchPath(workspace, { isolate: true }), placement: 'isolated' as const },
    { path: workbenchPath(workspace), placement: 'workspace' as const },
  ];
  return candidates.find((candidate) => isDirectory(candidate.path)) ?? null;
}

/** Folder sizes of the workbench at `root` and of trim's archives in `workspace`. */
export function workbenchUse(located: ReturnType<typeof locateWorkbench>, workspace: string): WorkbenchUse {
  const root = located?.path ?? null;
  const spill = root === null ? null : folderSize(join(root, 'spill'));
  const archives = folderSize(join(workspace, TRIM_ARCHIVES));
  const sameFolder =
    archives !== null && spill !== null && realOrSame(archives.path) === realOrSame(spill.path);
  return {
    path: root,
    placement: located?.placement ?? null,
    spill,
    trimArchives: sameFolder ? null : archives,
    scripts: root === null ? null : folderSize(join(root, 'scripts')),
    artifacts: root === null ? null : folderSize(join(root, 'artifacts')),
    notes: root === null ? null : folderSize(join(root, 'notes')),
  };
}

/** Recursive file count and total bytes of `path`, or `null` when it is not a directory. */
export function folderSize(path: string): FolderSize | null {
  if (!isDirectory(path)) return null;
  const size: FolderSize = { path, files: 0, bytes: 0 };
  const walk = (directory: string): void => {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      return;
    }
    for (const name of names) {
      const child = join(directory, name);
      let stat;
      try {
        stat = lstatSync(child);
      } catch {
        continue;
      }
      if (stat.isDirectory()) walk(child);
      else if (stat.isFile()) {
        size.files += 1;
        size.bytes += stat.size;
      }
    }
  };
  walk(path);
  return size;
}

/** The tools that write a file through `input.file_path`. */
const WRITING_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/**
 * Script reuse: each Write/Edit of a file under `<workbench>/scripts/` is a write; each Bash command naming
 * `<workbench folder>/scripts/<name>` runs that script once. Only scripts that were written or are still in
 * the folder count as runs.
 */
export function scriptReuse(
  calls: readonly ToolCall[],
  workbench: string | null,
  workspace: string,
  present: readonly string[],
): ScriptReuse {
  const writes = new Map<string, number>();
  const runs = new Map<string, number>();
  if (workbench !== null) {
    const scriptsDir = join(workbench, 'scripts');
    for (const call of calls) {
      if (!WRITING_TOOLS.has(call.tool) || !isObject(call.input)) continue;
      const file = call.input['file_path'] ?? call.input['notebook_path'];
      if (typeof file !== 'string') continue;
      const absolute = isAbsolute(file) ? file : resolve(workspace, file);
      const inside = relative(scriptsDir, absolute);
      if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
      writes.set(inside, (writes.get(inside) ?? 0) + 1);
    }
    const known = new Set([...writes.keys(), ...present]);
    const folder = escapeRegExp(basename(workbench));
    const mention = new RegExp(`${folder}/scripts/([\\w.@+-]+(?:/[\\w.@+-]+)*)`, 'g');
    for (const call of calls) {
      if (call.tool !== 'Bash' || !isObject(call.input)) continue;
      const command = call.input['command'];
      if (typeof command !== 'string') continue;
      const named = new Set<string>();
      for (const match of command.matchAll(mention)) {
        const name = match[1] ?? '';
        if (known.has(name)) named.add(name);
      }
      for (const name of named) runs.set(name, (runs.get(name) ?? 0) + 1);
    }
  }
  const scripts = writes.size;
  const totalWrites = sum(writes.values());
  const totalRuns = sum(runs.values());
  const reused = [...writes.keys()].filter((name) => (runs.get(name) ?? 0) >= 2).length;
  const neverRun = [...writes.keys()].filter((name) => (runs.get(name) ?? 0) === 0).length;
  const names = new Set([...writes.keys(), ...runs.keys()]);
  const top = [...names]
    .map((script) => ({ script, writes: writes.get(script) ?? 0, runs: runs.get(script) ?? 0 }))
    .sort((a, b) => b.runs - a.runs || b.writes - a.writes || a.script.localeCompare(b.script))
    .slice(0, 10);
  return {
    scripts,
    writes: totalWrites,
    runs: totalRuns,
    reusedShare: scripts === 0 ? null : reused / scripts,
    neverRun,
    ratio: totalWrites === 0 ? null : totalRuns / totalWrites,
    top,
  };
}

/** Relative paths of the files under `<workbench>/scripts/`. */
export function presentScripts(workbench: string | null): string[] {
  if (workbench === null) return [];
  const root = join(workbench, 'scripts');
  if (!isDirectory(root)) return [];
  const found: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const child = join(directory, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(relative(root, child).split(sep).join('/'));
    }
  };
  walk(root);
  return found;
}

function isDirectory(path: string): boolean {
  try {
    return existsSync(path) && lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
