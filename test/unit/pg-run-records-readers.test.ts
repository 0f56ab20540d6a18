/**
 * A run whose records live in PostgreSQL: the Runtime writes its manifest rows to the server (no
 * manifest.json beside it), and `flower status` (`runStatus`), `flower analyze` and the dashboard's report
 * (`analyzeRun`) and the wake state read the rows and the lineage from there — also rows another host wrote
 * from another run directory under the same run name.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import { analyzeRun } from '../../src/analyze/analyze-run.js';
import type { CommandContext } from '../../src/cli/command-context.js';
import { openDashboard } from '../../src/cli/commands/dashboard.js';
import { loadConfig } from '../../src/config/load-config.js';
import { PgRunRecords } from '../../src/runtime/pg-run-records.js';
import { readRunRecords } from '../../src/runtime/run-records.js';
import { runStatus } from '../../src/runtime/run-status.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { wakeState } from '../../src/runtime/wake-state.js';
import { PRICED_CONFIG, PRICED_SPEC } from '../support/priced-runtimes.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { sdk, SdkLikeBackend } from '../support/sdk-like-backend.js';

let server: PostgresServer;
let pool: pg.Pool;
let dir: string;
let runs = 0;

beforeAll(async () => {
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: await server.createDatabase('readers'), max: 4 });
  pool.on('error', () => undefined);
}, 60_000);

afterAll(async () => {
  await pool.end();
  await server.stop();
});

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-pg-readers-')));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** One step on a Runtime whose records are the run `run` on the server; the Runtime is closed after. */
async function runStep(workspace: string, run: string, sessionId: string): Promise<Runtime> {
  const backend = new SdkLikeBackend([
    [
      sdk.init(sessionId),
      sdk.text('done', { sessionId, id: `m-${sessionId}`, tokens: 1000, output: 10 }),
      sdk.result({ session_id: sessionId, total_cost_usd: 0.25 }),
    ],
  ]);
  const runtime = new Runtime({
    workspace,
    config: PRICED_CONFIG,
    backend,
    resilience: false,
    records: new PgRunRecords({ pool, schema: 'flower', run }),
  });
  try {
    await runtime.run(PRICED_SPEC, 'x');
    await runtime.recordsWritten();
  } finally {
    await runtime.close();
  }
  expect(runtime.uiErrors).toEqual([]);
  return runtime;
}

describe('run records in PostgreSQL', () => {
  test('the Runtime writes its rows to the server and no manifest.json', async () => {
    const run = `app-${++runs}`;
    const runtime = await runStep(join(dir, 'ws'), run, 'sess-a');
    expect(existsSync(join(runtime.runDir, 'manifest.json'))).toBe(false);
    const { rows } = await pool.query<{ run_id: string; step: string; data: string }>(
      'SELECT run_id, step, data FROM flower.flower_manifest_rows WHERE run_name = $1 ORDER BY position',
      [run],
    );
    expect(rows.map((row) => [row.run_id, row.step])).toEqual([[runtime.runId, 'worker']]);
    expect(JSON.parse(rows[0]!.data)).toMatchObject({ session_id: 'sess-a', ok: true, cost_usd: 0.25 });
  });

  test('status, analyze and the wake state read the rows and the lineage from the server', async () => {
    const run = `app-${++runs}`;
    const here = join(dir, 'host-a', 'ws');
    const first = await runStep(here, run, 'sess-a');
    // Another host: another run directory, the same run on the server.
    await runStep(join(dir, 'host-b', 'ws'), run, 'sess-b');
    const records = new PgRunRecords({ pool, schema: 'flower', run });
    await records.updateLineage('test', () => ({
      workspace: first.workspace,
      workspace_rel: '..',
      lineage_id: '0123456789abcdef',
      woke: 3,
      steps: { work: 'sess-b' },
    }));
    const snapshot = await readRunRecords(records);

    const status = runStatus(first.workspace, first.runDir, { records: snapshot });
    expect(status.steps.map((step) => [step.sessionId, step.state])).toEqual([
      ['sess-a', 'ok'],
      ['sess-b', 'ok'],
    ]);
    expect(status.costUsd).toBeCloseTo(0.5, 12);
    expect(status.wakes).toBe(3);
    // The files of this host alone know one step and no wake.
    const local = runStatus(first.workspace, first.runDir);
    expect([local.steps.length, local.wakes]).toEqual([0, 0]);

    expect(wakeState(first.workspace, { runDir: first.runDir, lineage: snapshot.lineage }).steps).toEqual({
      work: 'sess-b',
    });

    const analysis = analyzeRun(first.runDir, { records: snapshot });
    expect(analysis.sources.manifest).toBe(true);
    expect(analysis.ledger.stepCount).toBe(2);
    expect(analysis.ledger.costUsd).toBeCloseTo(0.5, 12);
    expect(analysis.workspace).toBe(first.workspace);
  });

  test('analyze finds a run whose only records are on the server', async () => {
    const run = `app-${++runs}`;
    const runtime = await runStep(join(dir, 'ws'), run, 'sess-c');
    const empty = join(dir, 'elsewhere', 'runs');
    expect(() => analyzeRun(empty)).toThrow(/No run in/);
    const snapshot = await readRunRecords(new PgRunRecords({ pool, schema: 'flower', run }));
    const analysis = analyzeRun(empty, { records: snapshot });
    expect(analysis.ledger.steps.map((step) => step.sessionId)).toEqual(['sess-c']);
    expect(runStatus(runtime.workspace, empty, { records: snapshot }).found).toBe(true);
  });

  test("the dashboard's report and spenders read the rows from the server", async () => {
    const run = `app-${++runs}`;
    const runtime = await runStep(join(dir, 'ws'), run, 'sess-d');
    const records = new PgRunRecords({ pool, schema: 'flower', run });
    // This host's files know nothing: the step is only on the server.
    expect(existsSync(join(runtime.runDir, 'manifest.json'))).toBe(false);
    const dashboard = await openDashboard(
      {
        workspace: runtime.workspace,
        runDir: runtime.runDir,
        workbench: () => null,
        config: loadConfig({ env: PRICED_CONFIG.env, cwd: dir }),
        budgetUsd: null,
        records,
      },
      { io: {} } as CommandContext,
    );
    try {
      const report = await fetch(new URL('report', dashboard.url));
      expect(report.status).toBe(200);
      const html = await report.text();
      // The ledger's one step, in one run: from the server's row.
      expect(html).toMatch(/1 in 1 run\b/);
      const page = (await (await fetch(new URL('api/run', dashboard.url))).json()) as {
        spenders: Array<{ label: string; usd: number }>;
      };
      // The session's main thread is named by the step the server's row gives it.
      expect(page.spenders.map((spender) => spender.label)).toEqual(['worker · main thread']);
    } finally {
      await dashboard.close();
    }
  });
});

describe('a Runtime whose configuration names a PostgreSQL store', () => {
  test('keeps its rows and lineage on the server (no files) and writes them before close() settles', async () => {
    const location = await server.createDatabase('configured');
    const workspace = join(dir, 'configured-app');
    mkdirSync(workspace);
    const runtime = new Runtime({
      workspace,
      config: { env: { ...PRICED_CONFIG.env, FLOWER_STORE: location } },
      backend: new SdkLikeBackend([
        [sdk.init('s-conf'), sdk.text('done', { sessionId: 's-conf', id: 'm-conf' }), sdk.result()],
      ]),
      resilience: false,
    });
    try {
      await runtime.run(PRICED_SPEC, 'x');
    } finally {
      // No recordsWritten(): closing is what must wait for the rows still on their way.
      await runtime.close();
    }
    expect(runtime.uiErrors).toEqual([]);
    expect(existsSync(join(runtime.runDir, 'manifest.json'))).toBe(false);
    const records = new PgRunRecords({ location, schema: 'flower', run: 'configured-app' });
    try {
      expect(await records.readRows()).toEqual([expect.objectContaining({ step: 'worker', ok: true })]);
    } finally {
      await records.close();
    }
  });
});
