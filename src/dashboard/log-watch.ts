/**
 * One watch of a run directory for the dashboard's streams (docs/dashboard.md): every open stream waits on it
 * for "the event log may have grown", so a hundred open tabs cost one watcher, not a hundred. Change notices
 * (`fs.watch`) make new events show within milliseconds; a poll every {@link POLL_MS} covers filesystems that
 * send none, and a log created after the dashboard started.
 *
 * @module
 */
import { watch, type FSWatcher } from 'node:fs';

/** How often the watch wakes its waiters when no change notice came. */
export const POLL_MS = 1_000;

/** Wakes waiters when a file in a directory may have changed. */
export class LogWatch {
  readonly #waiters = new Set<() => void>();
  readonly #watcher: FSWatcher | null;
  readonly #timer: NodeJS.Timeout;
  #version = 0;
  #closed = false;

  /** Watches `directory` for changes of the file named `fileName`. */
  constructor(directory: string, fileName: string) {
    let watcher: FSWatcher | null = null;
    try {
      watcher = watch(directory, { persistent: false }, (_type, name) => {
        if (name === null || name === fileName) this.#wake();
      });
      watcher.on('error', () => watcher?.close());
    } catch {
      // The directory cannot be watched (or does not exist yet): the poll alone keeps the page current.
    }
    this.#watcher = watcher;
    this.#timer = setInterval(() => this.#wake(), POLL_MS);
    this.#timer.unref();
  }

  /** Counts change notices and polls: read it before reading the file, pass it to {@link changed}. */
  get version(): number {
    return this.#version;
  }

  /** True once {@link close} ran. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Resolves at the next change notice or poll after `seen` (at once when one came since — so a change
   * between reading the file and waiting is never slept through), or at once when `signal` aborts.
   */
  changed(seen: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (seen !== this.#version || this.#closed || signal?.aborted === true) {
        resolve();
        return;
      }
      const done = (): void => {
        this.#waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.#waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Stops watching and releases every waiter. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#watcher?.close();
    this.#wake();
  }

  #wake(): void {
    this.#version++;
    for (const waiter of [...this.#waiters]) waiter();
  }
}
