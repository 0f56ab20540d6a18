/**
 * A snapshot of the workspace's tree that the goal's checks run against (docs/goal-checks.md), and a clean
 * copy of it to run them in. In a git repository the snapshot is a commit flower makes on a ref of its own
 * (`refs/flower/…`) through a temporary index, so the user's branch, index and working tree are never touched,
 * and the clean copy is a detached git worktree of that commit. Elsewhere the snapshot is a copied folder.
 * Either way the run directory and the workbench are left out: they are flower's, not the work's.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { processEnvironment } from '../config/process-environment.js';

/** Where a snapshot lives. */
export interface TreeSnapshot {
  /** `git`: a commit on {@link TreeSnapshot.ref}; `copy`: the folder {@link TreeSnapshot.path}. */
  readonly kind: 'git' | 'copy';
  /** The repository's top folder (git) or '' (copy). */
  readonly root: string;
  /** The workspace relative to the repository's top ('' when they are the same, and for a copy). */
  readonly prefix: string;
  /** The ref the commit is kept on (git), or ''. */
  readonly ref: string;
  /** The commit (git), or ''. */
  readonly commit: string;
  /** The copied folder (copy), or ''. */
  readonly path: string;
}

/** A clean copy of a snapshot: checks run in `workspace`; `remove()` takes it away. */
export interface CleanCopy {
  /** The workspace inside the copy. */
  readonly workspace: string;
  remove(): void;
}

/** Options of {@link snapshotTree}. */
export interface SnapshotOptions {
  /** The git ref to keep the commit on, such as `refs/flower/rounds/3`. */
  ref: string;
  /** Where to copy the tree when the workspace is not in a git repository. */
  copyTo: string;
  /** Folders left out of the snapshot (the run directory, the workbench). */
  exclude: readonly string[];
  /** The commit message. */
  message: string;
}

const IDENTITY = {
  GIT_AUTHOR_NAME: 'flower',
  GIT_AUTHOR_EMAIL: 'flower@localhost',
  GIT_COMMITTER_NAME: 'flower',
  GIT_COMMITTER_EMAIL: 'flower@localhost',
};

/** The top folder of the git repository holding `workspace`, or null when it is in none. */
export function gitTop(workspace: string): string | null {
  try {
    const top = git(workspace, ['rev-parse', '--show-toplevel']).trim();
    return top === '' ? null : top;
  } catch {
    return null;
  }
}

/**
 * Takes a snapshot of `workspace` as it is now, uncommitted and untracked files included (what `git add -A`
 * would stage; ignored files are left out). Throws when git or the copy fails.
 */
export function snapshotTree(workspace: string, options: SnapshotOptions): TreeSnapshot {
  const top = gitTop(workspace);
  if (top === null) return copySnapshot(workspace, options);
  const root = realpathSync(top);
  const prefix = relative(root, realpathSync(workspace));
  const index = join(tmpdir(), `flower-index-${process.pid}-${randomBytes(4).toString('hex')}`);
  const env = { ...processEnvironment(), GIT_INDEX_FILE: index, ...IDENTITY };
  try {
    // Starting from HEAD keeps tracked files that a .gitignore pattern would otherwise leave out.
    if (hasHead(root)) git(root, ['read-tree', 'HEAD'], env);
    git(root, ['add', '-A', '--', '.'], env);
    const excluded = options.exclude
      .map((path) => relative(root, existsSync(path) ? realpathSync(path) : resolve(path)))
      .filter((path) => path !== '' && !path.startsWith('..') && !isAbsolute(path));
    if (excluded.length > 0) {
      git(root, ['rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', ...excluded], env);
    }
    const tree = git(root, ['write-tree'], env).trim();
    const commit = git(root, ['commit-tree', tree, '-m', options.message], env).trim();
    git(root, ['update-ref', options.ref, commit], env);
    return { kind: 'git', root, prefix, ref: options.ref, commit, path: '' };
  } finally {
    rmSync(index, { force: true });
  }
}

/** A clean copy of `snapshot` in a new temporary folder. Throws when git or the copy fails. */
export function cleanCopy(snapshot: TreeSnapshot): CleanCopy {
  const folder = mkdtempSync(join(tmpdir(), 'flower-check-'));
  if (snapshot.kind === 'copy') {
    cpSync(snapshot.path, folder, { recursive: true, verbatimSymlinks: true });
    return { workspace: folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
  }
  rmSync(folder, { recursive: true, force: true });
  git(snapshot.root, ['worktree', 'add', '--detach', '--quiet', folder, snapshot.commit]);
  return {
    workspace: snapshot.prefix === '' ? folder : join(folder, snapshot.prefix),
    remove: () => {
      try {
        git(snapshot.root, ['worktree', 'remove', '--force', folder]);
      } catch {
        rmSync(folder, { recursive: true, force: true });
        try {
          git(snapshot.root, ['worktree', 'prune']);
        } catch {
          // Nothing more to do: the folder is gone and git forgets it at its next prune.
        }
      }
    },
  };
}

/** True when the commit of a git snapshot still exists (a ref can be deleted by hand). */
export function snapshotExists(snapshot: TreeSnapshot): boolean {
  if (snapshot.kind === 'copy') return existsSync(snapshot.path);
  try {
    git(snapshot.root, ['cat-file', '-e', `${snapshot.commit}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** A one-line name of the snapshot for records: the ref and short commit, or the folder. */
export function snapshotName(snapshot: TreeSnapshot): string {
  return snapshot.kind === 'git' ? `${snapshot.ref} (${snapshot.commit.slice(0, 12)})` : snapshot.path;
}

function copySnapshot(workspace: string, options: SnapshotOptions): TreeSnapshot {
  const source = resolve(workspace);
  const skipped = options.exclude.map((path) => resolve(path));
  rmSync(options.copyTo, { recursive: true, force: true });
  mkdirSync(options.copyTo, { recursive: true });
  const target = resolve(options.copyTo);
  // A walk of its own: `cpSync` refuses a target inside the source, which a base kept in the run directory is.
  copyFolder(source, target, (full) => {
    if (full === target || full.startsWith(`${target}${sep}`)) return false;
    if (basename(full) === '.git') return false;
    return !skipped.some((skip) => full === skip || full.startsWith(`${skip}${sep}`));
  });
  return { kind: 'copy', root: '', prefix: '', ref: '', commit: '', path: target };
}

/** Copies the folder `from` into `to` (which exists), entry by entry, keeping symbolic links as links. */
function copyFolder(from: string, to: string, keep: (path: string) => boolean): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (!keep(source)) continue;
    const target = join(to, entry.name);
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (entry.isDirectory()) {
      mkdirSync(target);
      copyFolder(source, target, keep);
    } else if (entry.isFile()) copyFileSync(source, target);
  }
}

function hasHead(root: string): boolean {
  try {
    git(root, ['rev-parse', '--verify', '-q', 'HEAD']);
    return true;
  } catch {
    return false;
  }
}

function git(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env === undefined ? {} : { env }),
    maxBuffer: 16 * 1024 * 1024,
  });
}
