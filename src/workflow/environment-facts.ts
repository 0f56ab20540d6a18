/**
 * The environment fact sheet of the set-goal prompt (decisions.md D102). The judge's rules tell the
 * goal setter to establish where the work runs first — operating system, architecture, toolchains — but the
 * default judge cannot run a command, so it could not obey. flower looks instead and hands it the facts, so a
 * checklist item like "runs in a macOS terminal" is written knowing the run lives in a Linux container.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { arch, platform, release, type } from 'node:os';

/** One toolchain to look for: the label shown and the command that prints its version. */
interface Probe {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
}

/** What the fact sheet asks PATH about; the first program found per label wins. */
const PROBES: readonly (readonly Probe[])[] = [
  [{ label: 'node', command: 'node', args: ['--version'] }],
  [{ label: 'git', command: 'git', args: ['--version'] }],
  [
    { label: 'python', command: 'python3', args: ['--version'] },
    { label: 'python', command: 'python', args: ['--version'] },
  ],
  [
    { label: 'cc', command: 'cc', args: ['--version'] },
    { label: 'cc', command: 'gcc', args: ['--version'] },
    { label: 'cc', command: 'clang', args: ['--version'] },
  ],
];

/** Runs a program and returns its first output line, or null when it is missing, fails or takes too long. */
export type VersionReader = (command: string, args: readonly string[], timeoutMs: number) => string | null;

/** Options of {@link environmentFacts}. */
export interface EnvironmentFactsOptions {
  /** Longest wait for one program, in milliseconds; 3000 by default. */
  timeoutMs?: number;
  /** How a version is read; a child process by default (tests pass their own). */
  readVersion?: VersionReader;
}

/**
 * A short Markdown fact sheet: OS, architecture and the versions of node, git, python and a C compiler found
 * on PATH (or "not found"). Never throws: a program that is missing, hangs or fails counts as not found.
 * Gathered once per process unless a `readVersion` is given.
 */
export function environmentFacts(options: EnvironmentFactsOptions = {}): string {
  if (options.readVersion !== undefined) return gather(options.readVersion, options.timeoutMs ?? 3000);
  // The machine does not change while a process runs; spawning five programs once is enough.
  cached ??= gather(childVersion, options.timeoutMs ?? 3000);
  return cached;
}

let cached: string | undefined;

function gather(readVersion: VersionReader, timeoutMs: number): string {
  const lines = [
    `- Operating system: ${safely(() => `${type()} ${release()} (${platform()})`) ?? 'unknown'}`,
    `- Architecture: ${safely(() => arch()) ?? 'unknown'}`,
  ];
  for (const candidates of PROBES) {
    const label = candidates[0]?.label ?? '';
    let found: string | null = null;
    for (const probe of candidates) {
      found = safely(() => readVersion(probe.command, probe.args, timeoutMs));
      if (found !== null) break;
    }
    lines.push(`- ${label}: ${found ?? 'not found on PATH'}`);
  }
  return ['## Where this runs (gathered by flower just now)', ...lines].join('\n');
}

/**
 * The first non-empty line a program prints for its version, stdout first, then stderr (Python 2 printed
 * its version to stderr); null on any failure. No shell, so nothing in a name is interpreted.
 */
function childVersion(command: string, args: readonly string[], timeoutMs: number): string | null {
  const child = spawnSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
    windowsHide: true,
  });
  if (child.error !== undefined || child.status !== 0) return null;
  return firstLine(child.stdout) ?? firstLine(child.stderr);
}

function firstLine(text: string | null | undefined): string | null {
  const line = (text ?? '')
    .split(/\r?\n/)
    .map((candidate) => candidate.trim())
    .find((candidate) => candidate !== '');
  if (line === undefined) return null;
  // One line is a fact; a banner would crowd the prompt.
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

function safely<T>(read: () => T | null): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}
