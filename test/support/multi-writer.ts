/**
 * The multi-process append test, for any store: {@link runWriters} starts writer processes
 * (`test/fixtures/session-store-writer.ts`) on one store location and lets them append at once;
 * {@link checkWrites} then checks, through a {@link StoredRows} view of the store's tables, that nothing was
 * lost or duplicated. The SQLite and PostgreSQL tests differ only in the location and the view.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { expect } from 'vitest';

import { foldSessionSummary } from '../../src/agent/claude-sdk.js';
import type { SessionStoreEntry } from '../../src/agent/claude-sdk.js';
import { ownEntries, writerBatches } from '../fixtures/session-store-batches.js';

const register = fileURLToPath(new URL('../fixtures/register-typescript.mjs', import.meta.url));
const writerScript = fileURLToPath(new URL('../fixtures/session-store-writer.ts', import.meta.url));

/** The store's rows, read directly from its tables (not through the store under test). */
export interface StoredRows {
  /** The rows of `entries` for one store key, in `seq` order. */
  entries(storeKey: string): Promise<Array<{ seq: number; uid: string | null; payload: string }>>;
  /** `meta.next_seq` of one store key. */
  nextSeq(storeKey: string): Promise<number>;
  /** `summaries.data` of every row. */
  summaries(): Promise<string[]>;
}

interface Writer {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
  stderr: string[];
}

function startWriter(location: string, index: number, batches: number, writers: number): Writer {
  const child = spawn(
    process.execPath,
    ['--import', register, writerScript, location, String(index), String(batches), String(writers)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr };
}

async function expectLine(writer: Writer, expected: string): Promise<void> {
  const next = await writer.lines.next();
  if (next.done === true || next.value !== expected) {
    throw new Error(
      `writer said ${JSON.stringify(next.value)} instead of ${expected}:\n${writer.stderr.join('')}`,
    );
  }
}

function exited(writer: Writer): Promise<number | null> {
  if (writer.child.exitCode !== null) return Promise.resolve(writer.child.exitCode);
  return new Promise((resolve) => writer.child.once('exit', (code) => resolve(code)));
}

/** Starts `writers` processes on `location`, lets them all append `batches` batches at once, waits for them. */
export async function runWriters(location: string, writers: number, batches: number): Promise<void> {
  // The first writer alone first: it fills the compile cache the others then read (typescript-hooks.mjs).
  const first = startWriter(location, 0, batches, writers);
  await expectLine(first, 'ready');
  const started = [
    first,
    ...Array.from({ length: writers - 1 }, (_, index) => startWriter(location, index + 1, batches, writers)),
  ];
  // Everyone opens first, then all start appending together, so the batches really interleave.
  await Promise.all(started.slice(1).map((writer) => expectLine(writer, 'ready')));
  for (const writer of started) writer.child.stdin.end('go\n');
  await Promise.all(started.map((writer) => expectLine(writer, 'done')));
  expect(await Promise.all(started.map(exited))).toEqual(started.map(() => 0));
}

/** Checks what {@link runWriters} left in the store: every entry exactly once, in a consistent order. */
export async function checkWrites(stored: StoredRows, writers: number, batches: number): Promise<void> {
  const rows = await stored.entries('-shared-ws/session-1');
  const entries = rows.map((row) => JSON.parse(row.payload) as SessionStoreEntry);

  // Exactly: every distinct uuid once, every uuid-less marker of every writer.
  const all = Array.from({ length: writers }, (_, writer) => writerBatches(writer, batches, writers));
  const distinctUuids = new Set(
    all.flat(2).flatMap((entry) => (entry.uuid === undefined ? [] : [entry.uuid])),
  );
  const markers = writers * batches;
  expect(distinctUuids.size).toBe(3 * batches + batches + writers * batches);
  expect(rows).toHaveLength(distinctUuids.size + markers);
  expect(new Set(rows.flatMap((row) => (row.uid === null ? [] : [row.uid]))).size).toBe(distinctUuids.size);
  expect(rows.filter((row) => row.uid === null)).toHaveLength(markers);
  expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => index));

  // The writers really overlapped: each one's own entries are interleaved with the others'.
  const byWriter = entries.flatMap((entry) => (typeof entry['writer'] === 'number' ? [entry['writer']] : []));
  const switches = byWriter.filter((writer, index) => index > 0 && writer !== byWriter[index - 1]).length;
  expect(switches).toBeGreaterThan(writers);

  // Each writer's own entries appear in the order that writer appended them.
  for (let writer = 0; writer < writers; writer += 1) {
    const steps = entries.filter((entry) => entry['writer'] === writer).map((entry) => entry['step']);
    const expected = Array.from({ length: batches }, (_, step) => [step, step]).flat();
    expect(steps).toEqual(expected);
  }

  expect(await stored.nextSeq('-shared-ws/session-1')).toBe(rows.length);

  // The summary was folded under the same lock as each insert: it equals one fold over the final order.
  const summaries = await stored.summaries();
  expect(summaries).toHaveLength(1);
  const key = { projectKey: '-shared-ws', sessionId: 'session-1' };
  expect((JSON.parse(summaries[0]!) as { data: unknown }).data).toEqual(
    foldSessionSummary(undefined, key, entries).data,
  );

  for (let writer = 0; writer < writers; writer += 1) {
    const own = await stored.entries(`-shared-ws/session-1/subagents/agent-w${writer}`);
    expect(own.map((row): unknown => JSON.parse(row.payload))).toEqual(all[writer]!.flatMap(ownEntries));
  }
}
