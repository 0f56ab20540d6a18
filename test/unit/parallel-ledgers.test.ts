/**
 * Acceptance "parallel ledgers": eight real processes record steps into one run directory at once while a
 * reader keeps reading the manifest. Every row must arrive exactly once, and every read must parse.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import type { ManifestRow } from '../../src/runtime/manifest.js';

const register = fileURLToPath(new URL('../fixtures/register-typescript.mjs', import.meta.url));
const writerScript = fileURLToPath(new URL('../fixtures/manifest-writer.ts', import.meta.url));

const WRITERS = 8;
const STEPS = 15;

interface Writer {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
  stderr: string[];
}

function startWriter(runDir: string, index: number): Writer {
  const child = spawn(
    process.execPath,
    ['--import', register, writerScript, runDir, String(index), String(STEPS)],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
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

/** What the concurrent reader saw. */
interface ReaderLog {
  reads: number;
  failures: string[];
  partialStates: number;
}

/**
 * Reads the manifest every couple of milliseconds until `stop` settles. Each read must parse, and a
 * run's rows must only ever grow as an in-order prefix of its steps: a lost row would show as a run whose
 * rows shrank or skipped a step.
 */
async function readUntil(path: string, stop: Promise<unknown>): Promise<ReaderLog> {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const log: ReaderLog = { reads: 0, failures: [], partialStates: 0 };
  const seen = new Map<string, number>();
  while (!stopped) {
    if (existsSync(path)) {
      let rows: ManifestRow[] | null = null;
      try {
        rows = JSON.parse(readFileSync(path, 'utf8')) as ManifestRow[];
      } catch (error) {
        log.failures.push(`unparseable read: ${String(error)}`);
      }
      if (rows !== null) {
        log.reads += 1;
        if (rows.length < WRITERS * STEPS) log.partialStates += 1;
        const byRun = new Map<string, string[]>();
        for (const row of rows) byRun.set(row.run, [...(byRun.get(row.run) ?? []), row.step]);
        for (const [run, steps] of byRun) {
          const writer = steps[0]?.split('-')[0] ?? '?';
          const expected = steps.map((_, index) => `${writer}-step${index}`);
          if (steps.join() !== expected.join()) log.failures.push(`run ${run} has ${steps.join()}`);
          if (steps.length < (seen.get(run) ?? 0)) log.failures.push(`run ${run} lost rows`);
          seen.set(run, steps.length);
        }
        for (const run of seen.keys()) {
          if (!byRun.has(run)) log.failures.push(`run ${run} disappeared`);
        }
      }
    }
    // Leave the two cores to the writers most of the time; a read every few milliseconds is plenty.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return log;
}

describe('parallel ledgers', () => {
  let runDir: string;

  beforeEach(() => {
    runDir = mkdtempSync(join(tmpdir(), 'flower-ledgers-'));
  });

  afterEach(() => {
    rmSync(runDir, { recursive: true, force: true });
  });

  test(
    'eight processes recording steps into one run directory lose, duplicate and corrupt nothing',
    { timeout: 90_000 },
    async () => {
      const writers = Array.from({ length: WRITERS }, (_, index) => startWriter(runDir, index));
      const runIds = await Promise.all(
        writers.map(async (writer) => {
          const line = await nextLine(writer);
          expect(line).toMatch(/^ready \d{8}-\d{6}-[0-9a-f]{6}$/);
          return line.slice('ready '.length);
        }),
      );
      expect(new Set(runIds).size).toBe(WRITERS);

      const finished = Promise.all(
        writers.map(async (writer) => {
          expect(await nextLine(writer)).toBe('done');
          return exited(writer);
        }),
      );
      const reading = readUntil(join(runDir, 'manifest.json'), finished);
      for (const writer of writers) writer.child.stdin.end('go\n');
      expect(await finished).toEqual(Array<number>(WRITERS).fill(0));
      const log = await reading;

      expect(log.failures).toEqual([]);
      expect(log.reads).toBeGreaterThan(10);
      expect(log.partialStates).toBeGreaterThan(0);

      const rows = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as ManifestRow[];
      expect(rows).toHaveLength(WRITERS * STEPS);
      runIds.forEach((runId, writer) => {
        expect(rows.filter((row) => row.run === runId).map((row) => row.step)).toEqual(
          Array.from({ length: STEPS }, (_, step) => `w${writer}-step${step}`),
        );
      });
      expect(new Set(rows.map((row) => row.session_id)).size).toBe(WRITERS * STEPS);
      expect(readdirSync(runDir)).toEqual(['manifest.json']);
    },
  );
});
