/**
 * "Parallel ledgers" with the run's records on a PostgreSQL server: eight real processes record steps into
 * one run at once (each its own connection, as on separate hosts) while a reader keeps reading the rows.
 * Every row and every lineage entry must arrive exactly once, and a run's rows must only ever grow.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import type { ManifestRow } from '../../src/runtime/manifest.js';
import { runRecordsFor, type RunRecords } from '../../src/runtime/run-records.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

const register = fileURLToPath(new URL('../fixtures/register-typescript.mjs', import.meta.url));
const writerScript = fileURLToPath(new URL('../fixtures/run-records-writer.ts', import.meta.url));

const WRITERS = 8;
const STEPS = 5;
const RUN = 'shared-run';

interface Writer {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
  stderr: string[];
}

function startWriter(location: string, index: number): Writer {
  const child = spawn(
    process.execPath,
    ['--import', register, writerScript, location, RUN, String(index), String(STEPS)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr };
}

async function nextLine(writer: Writer): Promise<string> {
  const next = await writer.lines.next();
  if (next.done === true) throw new Error(`writer ended early:\n${writer.stderr.join('')}`);
  return next.value;
}

function exited(writer: Writer): Promise<number | null> {
  if (writer.child.exitCode !== null) return Promise.resolve(writer.child.exitCode);
  return new Promise((resolve) => writer.child.once('exit', (code) => resolve(code)));
}

/** Reads the rows until `stop` settles: a run's rows must only ever grow as an in-order prefix of its steps. */
async function readUntil(
  records: RunRecords,
  stop: Promise<unknown>,
): Promise<{ reads: number; failures: string[] }> {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const log = { reads: 0, failures: [] as string[] };
  const seen = new Map<string, number>();
  while (!stopped) {
    const rows: ManifestRow[] = await records.readRows();
    log.reads += 1;
    const byRun = new Map<string, string[]>();
    for (const row of rows) byRun.set(row.run, [...(byRun.get(row.run) ?? []), row.step]);
    for (const [run, steps] of byRun) {
      const writer = steps[0]?.split('-')[0] ?? '?';
      const expected = steps.map((_, index) => `${writer}-step${index}`);
      if (steps.join() !== expected.join()) log.failures.push(`run ${run} has ${steps.join()}`);
      if (steps.length < (seen.get(run) ?? 0)) log.failures.push(`run ${run} lost rows`);
      seen.set(run, steps.length);
    }
    for (const run of seen.keys()) if (!byRun.has(run)) log.failures.push(`run ${run} disappeared`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return log;
}

let server: PostgresServer;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(async () => {
  await server.stop();
});

describe('parallel ledgers on PostgreSQL', () => {
  test(
    'eight processes recording steps into one run on the server lose, duplicate and corrupt nothing',
    { timeout: 240_000 },
    async () => {
      // A fresh database: the writers race to create the tables too.
      const location = await server.createDatabase('ledgers');
      // The first writer alone first: it fills the compile cache the others then read.
      const first = startWriter(location, 0);
      const firstReady = await nextLine(first);
      const others = Array.from({ length: WRITERS - 1 }, (_, index) => startWriter(location, index + 1));
      const writers = [first, ...others];
      const runIds = [firstReady, ...(await Promise.all(others.map((writer) => nextLine(writer))))].map(
        (line) => {
          expect(line).toMatch(/^ready \d{8}-\d{6}-[0-9a-f]{6}$/);
          return line.slice('ready '.length);
        },
      );
      expect(new Set(runIds).size).toBe(WRITERS);

      const reader = runRecordsFor('/unused', { location, schema: 'flower', run: RUN });
      try {
        const finished = Promise.all(
          writers.map(async (writer) => {
            expect(await nextLine(writer)).toBe('done');
            return exited(writer);
          }),
        );
        const reading = readUntil(reader, finished);
        for (const writer of writers) writer.child.stdin.end('go\n');
        expect(await finished).toEqual(Array<number>(WRITERS).fill(0));
        const log = await reading;
        expect(log.failures).toEqual([]);
        expect(log.reads).toBeGreaterThan(3);

        const rows = await reader.readRows();
        expect(rows).toHaveLength(WRITERS * STEPS);
        runIds.forEach((runId, writer) => {
          expect(rows.filter((row) => row.run === runId).map((row) => row.step)).toEqual(
            Array.from({ length: STEPS }, (_, step) => `w${writer}-step${step}`),
          );
        });
        expect(new Set(rows.map((row) => row.session_id)).size).toBe(WRITERS * STEPS);
        const lineage = await reader.readLineage();
        expect(lineage.kind).toBe('parsed');
        const steps = (lineage as { value: { steps: Record<string, string> } }).value.steps;
        expect(Object.keys(steps)).toHaveLength(WRITERS * STEPS);
        expect(steps['w7-step4']).toBe('session-7-4');
      } finally {
        await reader.close();
        for (const writer of writers) if (writer.child.exitCode === null) writer.child.kill('SIGKILL');
      }
    },
  );
});
