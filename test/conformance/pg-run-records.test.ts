// The run records' conformance suite against a real PostgreSQL server (the tables of pg-record-schema.ts),
// plus what only the server has: several runs in one schema, a stored row it cannot read, the location shown.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { PgRunRecords } from '../../src/runtime/pg-run-records.js';
import { runRecordsFor, writeRunRows } from '../../src/runtime/run-records.js';
import { newStepResult } from '../../src/runtime/step-result.js';
import {
  SECRET_PASSWORD,
  SECRET_USER,
  startPostgres,
  type PostgresServer,
} from '../support/postgres-server.js';
import { runRecordsSuite } from '../support/run-records-suite.js';

let server: PostgresServer;
let database: string;
let pool: pg.Pool;

beforeAll(async () => {
  server = await startPostgres();
  database = await server.createDatabase('records');
  pool = new pg.Pool({ connectionString: database, max: 8 });
}, 60_000);

afterAll(async () => {
  await pool.end();
  await server.stop();
});

// Every instance opens its own pool from the location (as a second process would), in schema `conformance`.
runRecordsSuite('PostgreSQL', {
  open: (run) =>
    runRecordsFor('/unused/run/dir', {
      location: `${database}?schema=conformance`,
      schema: 'conformance',
      run,
    }),
});

describe('PgRunRecords on the server', () => {
  test('a stored row it cannot read stops the change and is left as it is', async () => {
    const records = new PgRunRecords({ pool, schema: 'damaged', run: 'r' });
    await writeRunRows(records, 'id', [newStepResult('a', 1)]);
    await pool.query(`UPDATE damaged.flower_manifest_rows SET data = '{not json' WHERE run_name = 'r'`);
    await expect(writeRunRows(records, 'id', [newStepResult('b', 2)])).rejects.toMatchObject({
      code: 'STORE_UNREADABLE',
      message: expect.stringContaining('manifest row 0 is not a JSON object') as unknown,
    });
    const { rows } = await pool.query<{ data: string }>(`SELECT data FROM damaged.flower_manifest_rows`);
    expect(rows).toEqual([{ data: '{not json' }]);
    // Reading never fails on it: the row is left out.
    expect(await records.readRows()).toEqual([]);
  });

  test('rows are kept per run name and can be read in SQL', async () => {
    await writeRunRows(new PgRunRecords({ pool, schema: 'named', run: 'alpha' }), 'id-a', [
      newStepResult('work', 1),
    ]);
    await writeRunRows(new PgRunRecords({ pool, schema: 'named', run: 'beta' }), 'id-b', [
      newStepResult('goal', 1),
    ]);
    const { rows } = await pool.query(
      'SELECT run_name, position, run_id, step FROM named.flower_manifest_rows ORDER BY run_name',
    );
    expect(rows).toEqual([
      { run_name: 'alpha', position: 0, run_id: 'id-a', step: 'work' },
      { run_name: 'beta', position: 0, run_id: 'id-b', step: 'goal' },
    ]);
  });

  test('the location it shows never holds the password, also in a connection error', async () => {
    const url = new URL(server.url());
    url.username = SECRET_USER;
    url.password = SECRET_PASSWORD;
    const records = runRecordsFor('/unused', { location: url.toString(), schema: 'flower', run: 'r' });
    expect(records.location).not.toContain(SECRET_PASSWORD);
    expect(records.location).toContain('run r');
    const wrong = new URL(url);
    wrong.password = `${SECRET_PASSWORD}-wrong`;
    const failing = runRecordsFor('/unused', { location: wrong.toString(), schema: 'flower', run: 'r' });
    const error = (await Promise.resolve(failing.readRows()).catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({ code: 'STORE_UNREADABLE' });
    expect(error.message).not.toContain(SECRET_PASSWORD);
    await failing.close();
    await records.close();
  });
});
