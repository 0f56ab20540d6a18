/**
 * Creates the runtime's directories (the workspace, the run directory and its `claude` and `tmp` folders)
 * and turns the ways that can fail into one line that names the directory and says what to do. Without it,
 * `-w notes.txt` surfaced as "Unexpected error: EEXIST: file already exists, mkdir …", and an unwritable run
 * directory only failed later, inside SQLite, where it read like a damaged session store.
 *
 * @module
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { uiText, type Lang } from '../config/ui-text.js';
import { FlowerError } from '../errors.js';

/** Which directory is being prepared; it names the option in the message. */
export type DirectoryRole = 'workspace' | 'runDir';

/**
 * Makes `path` (and its parents) when missing and checks that it is a directory flower may write in.
 *
 * @throws FlowerError (`CONFIG_INVALID`) when a file is in the way or the directory cannot be written.
 */
export function prepareDirectory(path: string, role: DirectoryRole, lang: Lang): void {
  const what = uiText(role === 'workspace' ? 'dir.workspace' : 'dir.runDir', {}, lang);
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    // EEXIST: `path` itself is a file; ENOTDIR: one of its parents is.
    const key = code === 'EEXIST' || code === 'ENOTDIR' ? 'err.dirIsFile' : 'err.dirUnwritable';
    throw new FlowerError('CONFIG_INVALID', uiText(key, { what, path, reason: code }, lang), {
      cause: error,
    });
  }
  if (!statSync(path).isDirectory()) {
    throw new FlowerError('CONFIG_INVALID', uiText('err.dirIsFile', { what, path, reason: 'EEXIST' }, lang));
  }
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new FlowerError('CONFIG_INVALID', uiText('err.dirUnwritable', { what, path, reason }, lang), {
      cause: error,
    });
  }
}
