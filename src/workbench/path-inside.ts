/**
 * The one containment test for paths (decisions.md D114, D115): the reference tested substrings,
 * so `/srv/app-old` counted as inside `/srv/app` and a relative path never matched at all.
 *
 * @module
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * True when `path` is `directory` or lies below it, comparing resolved paths component by component (a
 * prefix test, not a substring test). Nothing is read from disk.
 */
export function isPathInside(path: string, directory: string): boolean {
  const rest = relative(resolve(directory), resolve(path));
  if (rest === '') return true;
  return rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest);
}

/**
 * {@link isPathInside} that also sees through symbolic links: true when `path` is inside any of
 * `directories` as written or with both sides resolved to their real paths (where they exist).
 */
export function isPathInsideAny(path: string, directories: readonly string[]): boolean {
  const candidates = withRealPath(path);
  return directories
    .flatMap(withRealPath)
    .some((directory) => candidates.some((candidate) => isPathInside(candidate, directory)));
}

function withRealPath(path: string): string[] {
  const resolved = resolve(path);
  const real = realPath(resolved);
  return real === resolved ? [resolved] : [resolved, real];
}

/** The real path of `path`, or of its nearest existing ancestor with the rest appended (a file not made yet). */
function realPath(path: string): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}
