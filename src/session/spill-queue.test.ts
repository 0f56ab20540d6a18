import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { blocksOf, type Entry } from './entry-content.js';
import { SpillQueue } from './spill-queue.js';
import { TrimmingSessionStore } from './trimming-session-store.js';
import { TrimPolicy } from './trim-policy.js';

let directory: string;
const stores: TrimmingSessionStore[] = [];
const main = { projectKey: '-workspace', sessionId: '00000000-0000-4000-8000-000000000001' };

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'flower-spill-queue-'));
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(directory, { recursive: true, force: true });
});

/** Forty large reads, each its own text. */
function session(): Entry[] {
  const transcript = new TranscriptBuilder();
  transcript.prompt('go');
  for (let index = 0; index < 40; index += 1) {
    transcript.read(`/w/${index}.txt`, `${index} `.repeat(1500));
  }
  return transcript.entries;
}

/** The path each pointer names, with the text it replaced. */
function pointers(stored: readonly Entry[], loaded: readonly Entry[]): Array<{ path: string; text: string }> {
  const found: Array<{ path: string; text: string }> = [];
  loaded.forEach((entry, position) => {
    (blocksOf(entry) ?? []).forEach((block, blockIndex) => {
      const content = block['content'];
      if (block.type !== 'tool_result' || typeof content !== 'string') return;
      const path = /(\/\S+\.txt)/.exec(content)?.[1];
      if (path === undefined || !content.startsWith('[Tool result archived')) return;
      const original = blocksOf(stored[position] as Entry)?.[blockIndex]?.['content'];
      found.push({ path, text: String(original) });
    });
  });
  return found;
}

describe('deferred spill files', () => {
  test('load() points at the same files as a synchronous store, and spillsWritten() puts each there whole', async () => {
    const stored = session();
    const deferred = new TrimmingSessionStore(join(directory, 'a.db'), join(directory, 'a'), {
      trim: new TrimPolicy({ keepRecent: 2 }),
      deferSpills: true,
    });
    const synchronous = new TrimmingSessionStore(join(directory, 'b.db'), join(directory, 'a'), {
      trim: new TrimPolicy({ keepRecent: 2 }),
    });
    stores.push(deferred, synchronous);
    await deferred.append(main, stored);
    await synchronous.append(main, stored);

    const loaded = (await deferred.load(main)) ?? [];
    const spilled = pointers(stored, loaded);
    expect(spilled).toHaveLength(38);
    await deferred.spillsWritten();
    for (const { path, text } of spilled) expect(readFileSync(path, 'utf8')).toBe(text);
    expect(deferred.reportFor(main)?.errors).toEqual([]);
    // No temp file left behind, and a synchronous store names every file the same.
    expect(
      readdirSync(join(directory, 'a', '.flower', 'spill')).filter((name) => !name.endsWith('.txt')),
    ).toEqual([]);
    expect(await synchronous.load(main)).toEqual(loaded);
  });

  test('a spill folder deleted between two loads is written again by the second', async () => {
    const stored = session();
    const store = new TrimmingSessionStore(join(directory, 'd.db'), join(directory, 'd'), {
      trim: new TrimPolicy({ keepRecent: 2 }),
      deferSpills: true,
    });
    stores.push(store);
    await store.append(main, stored);
    await store.load(main);
    await store.spillsWritten();
    rmSync(join(directory, 'd', '.flower'), { recursive: true, force: true });

    const spilled = pointers(stored, (await store.load(main)) ?? []);
    await store.spillsWritten();
    expect(spilled).toHaveLength(38);
    for (const { path, text } of spilled) expect(readFileSync(path, 'utf8')).toBe(text);
  });

  test('without deferSpills every file is there when load() returns', async () => {
    const stored = session();
    const store = new TrimmingSessionStore(join(directory, 'c.db'), join(directory, 'c'), {
      trim: new TrimPolicy({ keepRecent: 2 }),
    });
    stores.push(store);
    await store.append(main, stored);
    const spilled = pointers(stored, (await store.load(main)) ?? []);
    expect(spilled).toHaveLength(38);
    for (const { path } of spilled) expect(existsSync(path)).toBe(true);
  });
});

describe('SpillQueue', () => {
  test('reports a file it cannot write and still settles', async () => {
    const queue = new SpillQueue();
    const errors: string[] = [];
    const path = join(directory, 'no-such-folder', 'abc.txt');
    queue.add(path, 'text', (message) => errors.push(message));
    queue.add(join(directory, 'written.txt'), 'kept', (message) => errors.push(message));
    await queue.settled();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^trim: could not write the spill file .*abc\.txt/);
    expect(readFileSync(join(directory, 'written.txt'), 'utf8')).toBe('kept');
  });

  test('settles only once every file queued before the call is on disk', async () => {
    const queue = new SpillQueue();
    const paths = Array.from({ length: 50 }, (_, index) => join(directory, `${index}.txt`));
    for (const path of paths) queue.add(path, path, () => undefined);
    await queue.settled();
    for (const path of paths) expect(readFileSync(path, 'utf8')).toBe(path);
  });
});
