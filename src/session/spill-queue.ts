/**
 * Spill files a load has already pointed at, written after the load returned. The first trimmed resume of
 * a long run spills thousands of results; writing them one by one before `load()` returns put seconds on
 * the resume's critical path. The model can only reach a spill file through a tool call, and the runtime's
 * permission gate awaits {@link SpillQueue.settled} before any tool runs, so every file is on disk, with
 * the name and contents the pointer gives, before anything can read it.
 *
 * @module
 */
import { rename, writeFile } from 'node:fs/promises';

/** Files written at once: the size of libuv's default thread pool, which runs the writes. */
const PARALLEL_WRITES = 4;

interface Pending {
  path: string;
  text: string;
  onError: (message: string) => void;
}

/** A queue of content-addressed spill files to write in the background. */
export class SpillQueue {
  /**
   * Paths queued and not yet written: a name two loads point at before it is on disk is written once. A
   * written path leaves the set, so a file deleted since is written again when a load points at it again.
   */
  readonly #known = new Set<string>();
  #pending: Pending[] = [];
  #writing: Promise<void> = Promise.resolve();

  /**
   * Queues `text` for `path` unless this queue already has that path. `onError` hears a one-line message
   * when the file cannot be written (the pointer was already handed out; the load report carries it).
   */
  add(path: string, text: string, onError: (message: string) => void): void {
    if (this.#known.has(path)) return;
    this.#known.add(path);
    this.#pending.push({ path, text, onError });
  }

  /** Starts writing everything queued so far, after whatever is being written already. */
  flush(): void {
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    this.#writing = this.#writing
      .then(() => writeAll(batch))
      .then(() => {
        for (const file of batch) this.#known.delete(file.path);
      });
  }

  /** Resolves once every file queued before the call is on disk or has reported its error; never rejects. */
  settled(): Promise<void> {
    this.flush();
    return this.#writing;
  }
}

async function writeAll(batch: readonly Pending[]): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batch.length) {
      const file = batch[next] as Pending;
      next += 1;
      await writeOne(file);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_WRITES, batch.length) }, worker));
}

/** Numbers this process's temp files, so two queues writing one name never share a temp file. */
let temporaries = 0;

async function writeOne(file: Pending): Promise<void> {
  // Temp file + rename, as for a synchronous spill: a kill mid-write never leaves a truncated file under the
  // final name, which a later load's existence check would trust forever.
  temporaries += 1;
  const temporary = `${file.path}.${process.pid}-${temporaries}.tmp`;
  try {
    await writeFile(temporary, file.text, 'utf8');
    await rename(temporary, file.path);
  } catch (error) {
    file.onError(`trim: could not write the spill file ${file.path}: ${(error as Error).message}`);
  }
}
