/**
 * Starts Claude Code so that it cannot outlive flower. Measured on the bundled binary: after a `kill -9` of
 * flower its child sees stdin close but goes on with the turn — more requests, more tools, no budget, no
 * mirror — and one blocked on a hung request lives forever; the tools it started (Bash runs each command in
 * a session of its own) survive even a kill of the child's process group. Two ties, both on Linux:
 *
 * - the child is started through util-linux `setpriv --pdeathsig KILL`, so the kernel kills it the moment
 *   flower dies — before it can send one more request;
 * - every child carries {@link OWNER_TOKEN_VARIABLE} in its environment, which its tools inherit, and a
 *   small watchdog shell (one per flower process, in a session of its own so a kill of flower's group does
 *   not take it too) waits for flower's end of a pipe to close, then kills every process carrying the token.
 *
 * Where `setpriv` is missing the watchdog alone ends the child, a few milliseconds later; where there is no
 * `/proc` (macOS) neither tie works and the child ends as the SDK ends it.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { SpawnedProcess, SpawnOptions } from './claude-sdk.js';

/** The environment variable that marks a child (and its tools) as started by one flower process. */
export const OWNER_TOKEN_VARIABLE = 'FLOWER_OWNER_TOKEN';

/** util-linux's tool that sets the parent-death signal and then runs the command in the same process. */
const SETPRIV = '/usr/bin/setpriv';

// Runs until flower's end of the pipe on its stdin closes (flower exited or was killed), then kills every
// process whose environment carries the token, again while any is found (a dying shell may have forked).
const WATCHDOG_SCRIPT = [
  'cat >/dev/null',
  'for pass in 1 2 3; do',
  // grep exits 2 when some file was unreadable (another user's process) even after a match: test the list.
  `  found=$(grep -lsxzF "${OWNER_TOKEN_VARIABLE}=$1" /proc/[0-9]*/environ)`,
  '  [ -n "$found" ] || break',
  '  for file in $found; do pid=${file#/proc/}; kill -KILL "${pid%/environ}" 2>/dev/null; done',
  'done',
].join('\n');

/** What a tied spawn tells its owner. */
export interface SpawnTie {
  /** The token every child gets in {@link OWNER_TOKEN_VARIABLE}. */
  token: string;
  /** A child started (its pid is recorded so a later process can end it if it survives). */
  onSpawn?: (pid: number) => void;
  /** A child ended. */
  onExit?: (pid: number) => void;
}

const watchdogs = new Map<string, ChildProcess>();

/** A `spawnClaudeCodeProcess` for the SDK that ties each child's life to this process (see the module). */
export function tiedSpawn(tie: SpawnTie): (options: SpawnOptions) => SpawnedProcess {
  return (options) => {
    ensureWatchdog(tie.token);
    const env: Record<string, string | undefined> = { ...options.env, [OWNER_TOKEN_VARIABLE]: tie.token };
    // A command that cannot be found is spawned as is, so the error says so instead of naming setpriv.
    const tied = existsSync(SETPRIV) && findable(options.command, env['PATH']);
    const child = spawn(
      tied ? SETPRIV : options.command,
      tied ? ['--pdeathsig', 'KILL', '--', options.command, ...options.args] : options.args,
      {
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        env,
        signal: options.signal,
        // stderr is drained, never shown: the SDK's own spawn keeps it only for its error messages too.
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      },
    );
    child.stderr?.resume();
    const pid = child.pid;
    if (pid !== undefined) {
      tie.onSpawn?.(pid);
      child.once('exit', () => tie.onExit?.(pid));
    }
    return child;
  };
}

/** True when `command` names an existing file, directly or through `PATH`. */
function findable(command: string, path: string | undefined): boolean {
  if (isAbsolute(command) || command.includes('/')) return existsSync(command);
  return (path ?? '').split(delimiter).some((folder) => folder !== '' && existsSync(join(folder, command)));
}

/** Starts this process's watchdog for `token` once; it lives as long as this process holds the pipe. */
function ensureWatchdog(token: string): void {
  if (watchdogs.has(token) || !existsSync('/proc')) return;
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'flower-watchdog', token], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: '/usr/bin:/bin' },
  });
  watchdog.on('error', () => watchdogs.delete(token));
  // Neither the watchdog nor the pipe to it may keep a finished flower running.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  watchdogs.set(token, watchdog);
}
