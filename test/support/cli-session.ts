/**
 * Runs the `flower` CLI in-process for command tests: stdin, stderr and the signal target are the test's, and
 * a {@link Screen} lets a test wait for a line to appear before it types or sends a signal (no sleeps).
 *
 * @module
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { AgentBackend } from '../../src/agent/agent-backend.js';
import type { CommandContext } from '../../src/cli/command-context.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { SignalTarget } from '../../src/cli/signals.js';
import { Resilience } from '../../src/runtime/resilience.js';
import { SdkLikeBackend, type LikeStep } from './sdk-like-backend.js';

/** Everything written to stderr so far, with a way to wait for a piece of text. */
export class Screen {
  text = '';
  #waiters: Array<{ needle: string; resolve: () => void }> = [];

  constructor(stream: PassThrough) {
    stream.on('data', (chunk: Buffer) => {
      this.text += chunk.toString();
      this.#waiters = this.#waiters.filter((waiter) => {
        if (!this.text.includes(waiter.needle)) return true;
        waiter.resolve();
        return false;
      });
    });
  }

  /** Resolves once `needle` has been written. */
  waitFor(needle: string): Promise<void> {
    if (this.text.includes(needle)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ needle, resolve }));
  }
}

/** A signal target that records exits; `emit('SIGINT')` sends a signal. */
export type FakeSignals = SignalTarget & EventEmitter & { exits: number[] };

/** A fresh fake signal target. */
export function fakeSignals(): FakeSignals {
  const target = new EventEmitter() as FakeSignals;
  Object.assign(target, {
    pid: 42,
    platform: 'linux',
    exits: [] as number[],
    kill: () => undefined,
    exit: (code: number) => target.exits.push(code),
  });
  return target;
}

/** How a finished command ended and what it wrote. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command in progress. */
export interface Session {
  /** The command's exit code, once it has finished. */
  done: Promise<Outcome>;
  screen: Screen;
  stdin: PassThrough;
  signals: FakeSignals;
}

/** Options of {@link startCli}. */
export interface StartOptions {
  backend?: AgentBackend;
  /** Written to stdin, which then ends; absent: stdin stays open for the test to write to. */
  input?: string;
  tty?: boolean;
  /** Added to (or replacing) the command's environment. */
  env?: Record<string, string>;
}

/**
 * Starts `flower <argv>` in-process in `dir` (the cwd, with a scratch HOME under it), with stdin, stderr and
 * the signal target under the test's control.
 */
export function startCli(dir: string, argv: string[], options: StartOptions = {}): Session {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  const out: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  const screen = new Screen(stderr);
  const signals = fakeSignals();
  if (options.input !== undefined) stdin.end(options.input);
  const context: CommandContext = {
    io: {
      stdout,
      stderr,
      stdin,
      stdinIsTty: options.tty ?? false,
      env: {
        PATH: '/usr/bin',
        HOME: join(dir, 'home'),
        ANTHROPIC_API_KEY: 'sk-test',
        NO_COLOR: '1',
        FLOWER_NO_PROBE: '1',
        ...options.env,
      },
      cwd: dir,
    },
    backend: options.backend ?? new SdkLikeBackend([]),
    resilience: new Resilience({ enabled: false }),
    signals,
  };
  const done = runCli(argv, context).then(async (code) => {
    await new Promise((resolve) => setImmediate(resolve));
    return { code, stdout: out.join(''), stderr: screen.text };
  });
  return { done, screen, stdin, signals };
}

/** Runs `flower <argv>` in `dir` to the end with the scripted steps and the given stdin (empty by default). */
export async function runCliScripted(
  dir: string,
  argv: string[],
  steps: LikeStep[] = [],
  options: Omit<StartOptions, 'backend'> = {},
): Promise<Outcome & { backend: SdkLikeBackend }> {
  const backend = new SdkLikeBackend(steps);
  const outcome = await startCli(dir, argv, { input: '', ...options, backend }).done;
  return { ...outcome, backend };
}
