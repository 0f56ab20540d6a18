/**
 * The conformance suite of a run's records (`RunRecords`): the same tests against the files in a run
 * directory and against the tables in PostgreSQL, so both stores keep one behaviour. Each test opens its
 * records through `open(scope)`: the same scope is the same run (two instances = two processes), another
 * scope another run.
 *
 * @module
 */
import { describe, expect, test } from 'vitest';

import type { ManifestRow } from '../../src/runtime/manifest.js';
import { readRunRecords, writeRunRows, type RunRecords } from '../../src/runtime/run-records.js';
import { newStepResult, type StepResult } from '../../src/runtime/step-result.js';

/** How the suite reaches the store under test. */
export interface RunRecordsHarness {
  /** Fresh records of the run `scope` (a new instance each call: another process's view of the same run). */
  open(scope: string): RunRecords;
}

function result(step: string, text = `${step} done`): StepResult {
  return { ...newStepResult(step, 1_700_000_000), ok: true, attempts: 1, text, endedAt: 1_700_000_060 };
}

async function opened<T>(
  harness: RunRecordsHarness,
  scope: string,
  use: (records: RunRecords) => Promise<T>,
): Promise<T> {
  const records = harness.open(scope);
  try {
    return await use(records);
  } finally {
    await records.close();
  }
}

/** Registers the suite for the store `name`. */
export function runRecordsSuite(name: string, harness: RunRecordsHarness): void {
  let scopes = 0;
  const scope = (): string => `run-${name.toLowerCase().replace(/[^a-z]/g, '')}-${++scopes}`;

  describe(`${name} run records`, () => {
    test('a new run has no rows and no lineage', async () => {
      await opened(harness, scope(), async (records) => {
        expect(await records.readRows()).toEqual([]);
        expect(await records.readLineage()).toEqual({ kind: 'missing' });
        expect(await readRunRecords(records)).toEqual({ rows: [], lineage: null });
      });
    });

    test('rows come back in order, exactly as written, to another instance', async () => {
      const run = scope();
      const rows = [
        result('clarify'),
        result('work', 'ünïcödé — 完成 \u0001 "quoted"'),
        result('work/verdict#1'),
      ];
      const written = await opened(harness, run, async (records) => await writeRunRows(records, 'r1', rows));
      expect(written.written?.map((row) => row.step)).toEqual(['clarify', 'work', 'work/verdict#1']);
      const read = await opened(harness, run, async (records) => await records.readRows());
      expect(read).toEqual(written.written);
      expect(read[1]!.text).toBe('ünïcödé — 完成 \u0001 "quoted"');
      expect(JSON.stringify(read)).toBe(JSON.stringify(written.written));
    });

    test("a run's rows replace its earlier rows; other runs' rows keep their place and order", async () => {
      const run = scope();
      await opened(harness, run, async (records) => {
        await writeRunRows(records, 'first', [result('a')]);
        await writeRunRows(records, 'second', [result('b')]);
        await writeRunRows(records, 'first', [result('a'), result('c')]);
        const rows = await records.readRows();
        expect(rows.map((row) => `${row.run}:${row.step}`)).toEqual(['second:b', 'first:a', 'first:c']);
        await writeRunRows(records, 'second', [result('b', 'changed')]);
        expect((await records.readRows()).map((row) => `${row.run}:${row.step}:${row.text}`)).toEqual([
          'first:a:a done',
          'first:c:c done',
          'second:b:changed',
        ]);
      });
    });

    test('a change sees the current rows, and one that returns nothing writes nothing', async () => {
      const run = scope();
      await opened(harness, run, async (records) => {
        await writeRunRows(records, 'r', [result('a'), result('b')]);
        let seen: string[] = [];
        const outcome = await records.updateRows('r', (rows) => {
          seen = rows.map((row) => row.step);
          return undefined;
        });
        expect(seen).toEqual(['a', 'b']);
        expect(outcome.written).toBeUndefined();
        const marked = await records.updateRows('r', (rows) =>
          rows.map((row): ManifestRow => (row.step === 'a' ? { ...row, ok: false, error: 'marked' } : row)),
        );
        expect(marked.written?.[0]?.error).toBe('marked');
        expect((await records.readRows()).map((row) => row.error)).toEqual(['marked', null]);
      });
    });

    test('runs are kept apart', async () => {
      const [one, two] = [scope(), scope()];
      await opened(harness, one, async (records) => await writeRunRows(records, 'x', [result('only-one')]));
      await opened(harness, one, async (records) => await records.updateLineage('x', () => ({ woke: 1 })));
      await opened(harness, two, async (records) => {
        expect(await records.readRows()).toEqual([]);
        expect(await records.readLineage()).toEqual({ kind: 'missing' });
      });
    });

    test('the lineage document round-trips, and a change sees the stored one', async () => {
      const run = scope();
      const document = { workspace: '/w', woke: 2, steps: { work: 'session-1' }, extra_key: ['kept'] };
      await opened(harness, run, async (records) => {
        let before: unknown = 'not called';
        await records.updateLineage('r', (current) => {
          before = current;
          return document;
        });
        expect(before).toBeUndefined();
      });
      await opened(harness, run, async (records) => {
        expect(await records.readLineage()).toEqual({ kind: 'parsed', value: document });
        const outcome = await records.updateLineage('r', (current) => ({
          ...(current as Record<string, unknown>),
          woke: 3,
        }));
        expect(outcome.written).toEqual({ ...document, woke: 3 });
        expect(await records.updateLineage('r', () => undefined)).toEqual({
          written: undefined,
          quarantined: null,
        });
        expect(await readRunRecords(records)).toEqual({
          rows: [],
          lineage: { ...document, woke: 3 },
        });
      });
    });

    test('changes from many instances at once lose nothing', async () => {
      const run = scope();
      const writers = Array.from({ length: 6 }, () => harness.open(run));
      try {
        await Promise.all(
          writers.map(async (records, writer) => {
            const results: StepResult[] = [];
            for (let step = 0; step < 5; step++) {
              results.push(result(`w${writer}-${step}`));
              await writeRunRows(records, `writer-${writer}`, results);
              await records.updateLineage(`writer-${writer}`, (current) => {
                const steps = {
                  ...((current as { steps?: Record<string, string> } | undefined)?.steps ?? {}),
                };
                steps[`w${writer}-${step}`] = `session-${writer}-${step}`;
                return { steps };
              });
            }
          }),
        );
      } finally {
        for (const records of writers) await records.close();
      }
      await opened(harness, run, async (records) => {
        const rows = await records.readRows();
        expect(rows).toHaveLength(30);
        for (let writer = 0; writer < 6; writer++) {
          expect(rows.filter((row) => row.run === `writer-${writer}`).map((row) => row.step)).toEqual(
            Array.from({ length: 5 }, (_, step) => `w${writer}-${step}`),
          );
        }
        const lineage = await records.readLineage();
        expect(lineage.kind).toBe('parsed');
        expect(Object.keys((lineage as { value: { steps: object } }).value.steps)).toHaveLength(30);
      });
    });
  });
}
