/**
 * Running one machine check (docs/goal-checks.md): flower itself runs the command with `sh -c` in the given
 * copy of the tree, kills its whole process group when the timeout is reached, and decides pass or fail from
 * the exit code, stdout and the file the check names — no model reads the output first.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandCheck } from '../roles/goal-checks.js';

/** What one run of a check showed. */
export interface CheckRun {
  readonly passed: boolean;
  /** The exit code; null when the command was killed or could not start. */
  readonly exit: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** The last {@link TAIL_CHARS} characters of stdout and stderr. */
  readonly stdoutTail: string;
  readonly stderrTail: string;
  /** Why it failed, in one line; '' when it passed. */
  readonly why: string;
}

/** How much of each stream a record keeps. */
export const TAIL_CHARS = 2000;
/** How much stdout is kept for the `stdout` pattern; more is cut from the front. */
const STDOUT_LIMIT = 1024 * 1024;

/** Runs `check` with `workspace` as the workspace (its `cwd` is relative to it). Never rejects. */
export async function runCheck(check: CommandCheck, workspace: string): Promise<CheckRun> {
  const cwd = join(workspace, check.cwd);
  const started = Date.now();
  if (!isDirectory(cwd)) {
    return failed(started, `the folder ${check.cwd} does not exist in this tree`);
  }
  const ran = check.run === '' ? null : await runCommand(check.run, cwd, check.timeoutS);
  const durationMs = Date.now() - started;
  const stdout = ran?.stdout ?? '';
  const base = {
    exit: ran?.exit ?? null,
    timedOut: ran?.timedOut ?? false,
    durationMs,
    stdoutTail: tail(stdout),
    stderrTail: tail(ran?.stderr ?? ''),
  };
  const why =
    ran === null ? fileProblem(check, cwd) : (commandProblem(check, ran) ?? fileProblem(check, cwd));
  return { ...base, passed: why === '', why };
}

interface CommandRun {
  exit: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  error: string | null;
}

function runCommand(command: string, cwd: string, timeoutS: number): Promise<CommandRun> {
  return new Promise((done) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let error: string | null = null;
    // Its own process group, so a timeout kills what the command started too, not only the shell.
    const child = spawn('sh', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutS * 1000);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout = (stdout + chunk).slice(-STDOUT_LIMIT);
    });
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-TAIL_CHARS * 4);
    });
    child.on('error', (failure) => {
      error = failure.message;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // Whatever the command left running in its group goes with it.
      killGroup(child.pid);
      done({ exit: timedOut ? null : code, timedOut, stdout, stderr, error });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

function commandProblem(check: CommandCheck, ran: CommandRun): string | null {
  if (ran.error !== null) return `could not start: ${ran.error}`;
  if (ran.timedOut) return `timed out after ${check.timeoutS} s`;
  if (ran.exit !== check.exit) return `exit ${String(ran.exit)}, expected ${check.exit}`;
  if (check.stdout !== null && !new RegExp(check.stdout, 'm').test(ran.stdout)) {
    return `stdout does not match /${check.stdout}/`;
  }
  return null;
}

function fileProblem(check: CommandCheck, cwd: string): string {
  if (check.file === null) return '';
  const path = join(cwd, check.file);
  if (!existsSync(path) || !statSync(path).isFile()) return `${check.file} does not exist`;
  const content = readFileSync(path);
  if (check.sha256 !== null) {
    const actual = createHash('sha256').update(content).digest('hex');
    if (actual !== check.sha256)
      return `${check.file} has SHA-256 ${actual.slice(0, 12)}…, expected ${check.sha256.slice(0, 12)}…`;
  }
  if (check.contains !== null && !new RegExp(check.contains, 'm').test(content.toString('utf8'))) {
    return `${check.file} does not match /${check.contains}/`;
  }
  return '';
}

function failed(started: number, why: string): CheckRun {
  return {
    passed: false,
    exit: null,
    timedOut: false,
    durationMs: Date.now() - started,
    stdoutTail: '',
    stderrTail: '',
    why,
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function tail(text: string): string {
  return text.length <= TAIL_CHARS ? text : `…${text.slice(-TAIL_CHARS)}`;
}
