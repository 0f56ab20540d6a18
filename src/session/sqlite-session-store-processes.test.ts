import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { foldSessionSummary } from '../agent/claude-sdk.js';
import type { SessionStoreEntry } from '../agent/claude-sdk.js';
import { ownEntries, writerBatches } from '../../test/fixtures/session-store-batches.js';

const register = fileURLToPath(new URL('../../test/fixtures/register-typescript.mjs', import.meta.url));
const writerScript = fileURLToPath(new URL('../../test/fixtures/session-store-writer.ts', import.meta.url));

const WRITERS = 4;
const BATCHES = 150;

interface Writer {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
  stderr: string[];
}

function startWriter(path: string, index: number): Writer {
  const child = spawn(
    process.execPath,
    ['--import', register, writerScript, path, String(index), String(BATCHES), String(WRITERS)],
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

describe('SqliteSessionStore across processes', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'flower-store-processes-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  test(
    'four processes appending to one file at once lose and duplicate nothing',
    { timeout: 90_000 },
    async () => {
      const path = join(directory, 'sessions.db');
      const writers = Array.from({ length: WRITERS }, (_, index) => startWriter(path, index));
      // Everyone opens first, then all start appending together, so the batches really interleave.
      await Promise.all(writers.map((writer) => expectLine(writer, 'ready')));
      for (const writer of writers) writer.child.stdin.end('go\n');
      await Promise.all(writers.map((writer) => expectLine(writer, 'done')));
      expect(await Promise.all(writers.map(exited))).toEqual([0, 0, 0, 0]);

      const database = new Database(path, { readonly: true });
      try {
        const rows = database
          .prepare(
            "SELECT seq, uid, payload FROM entries WHERE store_key = '-shared-ws/session-1' ORDER BY seq",
          )
          .all() as Array<{ seq: number; uid: string | null; payload: string }>;
        const entries = rows.map((row) => JSON.parse(row.payload) as SessionStoreEntry);

        // Exactly: every distinct uuid once, every uuid-less marker of every writer.
        const batches = Array.from({ length: WRITERS }, (_, writer) =>
          writerBatches(writer, BATCHES, WRITERS),
        );
        const distinctUuids = new Set(
          batches.flat(2).flatMap((entry) => (entry.uuid === undefined ? [] : [entry.uuid])),
        );
        const markers = WRITERS * BATCHES;
        expect(distinctUuids.size).toBe(3 * BATCHES + BATCHES + WRITERS * BATCHES);
        expect(rows).toHaveLength(distinctUuids.size + markers);
        expect(new Set(rows.flatMap((row) => (row.uid === null ? [] : [row.uid]))).size).toBe(
          distinctUuids.size,
        );
        expect(rows.filter((row) => row.uid === null)).toHaveLength(markers);
        expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => index));

        // The writers really overlapped: each one's own entries are interleaved with the others'.
        const byWriter = entries.flatMap((entry) =>
          typeof entry['writer'] === 'number' ? [entry['writer']] : [],
        );
        const switches = byWriter.filter(
          (writer, index) => index > 0 && writer !== byWriter[index - 1],
        ).length;
        expect(switches).toBeGreaterThan(WRITERS);

        // Each writer's own entries appear in the order that writer appended them.
        for (let writer = 0; writer < WRITERS; writer += 1) {
          const steps = entries.filter((entry) => entry['writer'] === writer).map((entry) => entry['step']);
          const expected = Array.from({ length: BATCHES }, (_, step) => [step, step]).flat();
          expect(steps).toEqual(expected);
        }

        const meta = database
          .prepare("SELECT next_seq FROM meta WHERE store_key = '-shared-ws/session-1'")
          .get() as { next_seq: number };
        expect(meta.next_seq).toBe(rows.length);

        // The summary was folded under the same lock as each insert: it equals one fold over the final order.
        const summary = database.prepare('SELECT data FROM summaries').all() as Array<{ data: string }>;
        expect(summary).toHaveLength(1);
        const key = { projectKey: '-shared-ws', sessionId: 'session-1' };
        expect((JSON.parse(summary[0]!.data) as { data: unknown }).data).toEqual(
          foldSessionSummary(undefined, key, entries).data,
        );

        for (let writer = 0; writer < WRITERS; writer += 1) {
          const own = database
            .prepare('SELECT payload FROM entries WHERE store_key = ? ORDER BY seq')
            .all(`-shared-ws/session-1/subagents/agent-w${writer}`) as Array<{ payload: string }>;
          expect(own.map((row): unknown => JSON.parse(row.payload))).toEqual(
            batches[writer]!.flatMap(ownEntries),
          );
        }
      } finally {
        database.close();
      }
    },
  );
});
