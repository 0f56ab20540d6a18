/**
 * A real full disk for one folder, without root (docs/decisions.md D340): a small tmpfs mounted over the
 * folder inside a user and mount namespace of its own (`unshare --user --map-root-user --mount`), kept
 * alive by a holder process for as long as a chaos case lasts, so the run directory survives from the
 * faulted run to the rerun. flower runs inside that namespace (`nsenter`), and sees the tmpfs where the
 * folder is; `flower chaos` reaches the same tmpfs from outside through `/proc/<holder>/root`, fills it
 * with a filler file when the fault's boundary comes (every later write that needs a new block gets the
 * kernel's ENOSPC) and deletes the filler before the rerun (space returns).
 *
 * @module
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { closeSync, cpSync, lstatSync, openSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** Size of the tmpfs; the demo's run directory needs a few MiB, and filling more memory is slower. */
export const FULL_DISK_MIB = 32;

/** The file that takes the last free block. */
const FILLER = '.chaos-disk-filler';

/** A tmpfs over one folder in a namespace of its own, that can be filled and emptied again. */
export class FullDisk {
  /** The folder, as every process outside the namespace sees it (the empty folder under the mount). */
  readonly directory: string;
  readonly #holder: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly #inside: string;

  private constructor(directory: string, holder: ChildProcessByStdio<Writable, Readable, Readable>) {
    this.directory = directory;
    this.#holder = holder;
    this.#inside = `/proc/${holder.pid}/root${directory}`;
  }

  /**
   * Mounts a {@link FULL_DISK_MIB} MiB tmpfs over `directory` (which must exist) in a new namespace.
   *
   * @throws when this machine allows no unprivileged user namespace (or lacks `unshare`), with its reason.
   */
  static async mount(directory: string): Promise<FullDisk> {
    const real = realpathSync(directory);
    // The holder lives until its standard input closes: `close()`, or this process dying, ends it.
    const holder = spawn(
      'unshare',
      [
        '--user',
        '--map-root-user',
        '--mount',
        '--propagation',
        'private',
        'sh',
        '-c',
        `mount -t tmpfs -o size=${FULL_DISK_MIB}m flower-chaos-disk "$0" && echo mounted && exec cat >/dev/null`,
        real,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string): void =>
        reject(new Error(`cannot make a small file system for ${real} (unshare --user --mount): ${why}`));
      holder.once('error', (error) => fail(error.message));
      holder.once('exit', (code) => fail(output.trim().split('\n').at(-1) ?? `exit ${code}`));
      holder.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      holder.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('mounted')) resolve();
      });
    });
    holder.removeAllListeners('exit');
    return new FullDisk(real, holder);
  }

  /**
   * The command line that runs `command args` inside the namespace, in `cwd`. `sh` changes to `cwd` there
   * (a working folder given from outside would resolve through the outer mounts) and execs, so the pid is
   * the command's own and a signal to its process group reaches it.
   */
  wrap(command: string, args: readonly string[], cwd: string): { command: string; args: string[] } {
    return {
      command: 'nsenter',
      args: [
        '--target',
        String(this.#holder.pid),
        '--user',
        '--mount',
        '--preserve-credentials',
        'sh',
        '-c',
        'cd "$0" && exec "$@"',
        cwd,
        command,
        ...args,
      ],
    };
  }

  /** Fills the file system: every later write that needs a new block fails with ENOSPC. */
  fill(): void {
    const descriptor = openSync(join(this.#inside, FILLER), 'w');
    try {
      // Large blocks first, then pages, so not even one page is left.
      for (const size of [1 << 20, 4_096]) {
        const block = Buffer.alloc(size);
        try {
          for (;;) writeSync(descriptor, block);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        }
      }
    } finally {
      closeSync(descriptor);
    }
  }

  /** Deletes the filler: the space returns. */
  free(): void {
    rmSync(join(this.#inside, FILLER), { force: true });
  }

  /**
   * Copies what the file system holds into the folder as seen from outside, so the checks (and a kept
   * case) read it after the namespace is gone. Sockets and the like are left out: only files, folders and
   * links are a run's data.
   */
  copyOut(): void {
    cpSync(this.#inside, this.directory, {
      recursive: true,
      filter: (source) => {
        const kind = lstatSync(source);
        return kind.isDirectory() || kind.isFile() || kind.isSymbolicLink();
      },
    });
  }

  /** Ends the holder; the namespace and its tmpfs go with the last process in it. */
  async close(): Promise<void> {
    if (this.#holder.exitCode !== null || this.#holder.signalCode !== null) return;
    const ended = new Promise<void>((resolve) => this.#holder.once('exit', () => resolve()));
    this.#holder.stdin.end();
    await ended;
  }
}
