/**
 * Where flower keeps per-user files: `CFG` = `$XDG_CONFIG_HOME/flower`, else `~/.config/flower`, the same on
 * every operating system so the folder can be copied between machines.
 *
 * @module
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { processEnvironment, type Env } from './process-environment.js';

/** The user's home directory: `$HOME` when set and non-empty, else the operating system's answer. */
export function homeDirectory(env: Env = processEnvironment()): string {
  const home = env['HOME'];
  return home ? resolve(home) : homedir();
}

/** `CFG`: `$XDG_CONFIG_HOME/flower` when that variable is set and non-empty, else `~/.config/flower`. */
export function configDir(env: Env = processEnvironment()): string {
  const xdg = env['XDG_CONFIG_HOME'];
  return xdg ? join(resolve(xdg), 'flower') : join(homeDirectory(env), '.config', 'flower');
}

/** `CFG/.env`, the file `flower setup` writes. */
export function userEnvFile(env: Env = processEnvironment()): string {
  return join(configDir(env), '.env');
}

/** A path for display: the home directory replaced by `~`. */
export function displayPath(path: string, env: Env = processEnvironment()): string {
  const home = homeDirectory(env);
  if (path === home) return '~';
  if (path.startsWith(home + '/') || path.startsWith(home + '\\')) return '~' + path.slice(home.length);
  return path;
}
