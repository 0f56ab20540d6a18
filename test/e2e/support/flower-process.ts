/**
 * The built `flower` CLI (`node dist/cli/main.js`) as a child process in its own process group, so a
 * SIGKILL can take down flower, the Claude Code binary it runs and the tools that binary started — a
 * whole-machine crash, as far as the run is concerned. Its stderr lines can be awaited.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** `dist/cli/main.js`, built by `npm test` before the e2e project runs. */
export const FLOWER_CLI = resolve(fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url)));

/** How a child ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const running = new Set<FlowerProcess>();

/** Kills every `flower` process a test started that is still running (call it in `afterEach`). */
export async function killStrayFlowers(): Promise<void> {
  await Promise.all([...running].map((flower) => flower.crash()));
}

/** One `flower` process. */
export class FlowerProcess {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly stdout: string[] = [];
  readonly exited: Promise<Exit>;
  #waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];

  constructor(args: string[], options: { cwd: string; env: Record<string, string> }) {
    this.child = spawn(process.execPath, [FLOWER_CLI, ...args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => this.stdout.push(chunk.toString()));
    createInterface({ input: this.child.stderr! }).on('line', (line) => {
      this.lines.push(line);
      this.#waiters = this.#waiters.filter((waiter) => {
        if (!waiter.match(line)) return true;
        waiter.resolve(line);
        return false;
      });
    });
    this.exited = new Promise((done) =>
      this.child.once('exit', (code, signal) => {
        running.delete(this);
        done({ code, signal });
      }),
    );
    running.add(this);
  }

  /** Everything written to stderr so far. */
  get stderr(): string {
    return this.lines.join('\n');
  }

  /** The first stderr line (seen or to come) matching `pattern`; rejects if the process exits first. */
  waitForLine(pattern: RegExp): Promise<string> {
    const seen = this.lines.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      this.#waiters.push({ match: (line) => pattern.test(line), resolve });
      void this.exited.then((exit) =>
        reject(new Error(`flower exited (${exit.code ?? exit.signal}) before ${pattern}:\n${this.stderr}`)),
      );
    });
  }

  /** SIGKILL to the whole process group; resolves when flower is gone. */
  async crash(): Promise<Exit> {
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
    return this.exited;
  }
}

/** Waits until `condition()` holds, checking every 50 ms (for state another process writes to disk). */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    // Polling a file another process writes: there is no event to await across processes.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
