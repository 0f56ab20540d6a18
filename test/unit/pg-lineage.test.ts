/**
 * The lineage kept in PostgreSQL (`Lineage.openRecords` on `PgRunRecords`): a continuous workflow records
 * each step's session on the server, not in `lineage.json`, and a process on another host — another run
 * directory, the same run name — resumes those sessions. `--new`'s archive copies the server's document
 * into the archive folder and starts a new lineage there.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import { agentSpec } from '../../src/agent/agent-spec.js';
import { projectKey } from '../../src/agent/project-key.js';
import { Lineage } from '../../src/runtime/lineage.js';
import { PgRunRecords } from '../../src/runtime/pg-run-records.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { ScriptedBackend, type ScriptedStep } from '../../src/testing/scripted-backend.js';
import { scriptedTurn as turn } from '../../src/testing/scripted-turn.js';
import { step } from '../../src/workflow/step.js';
import { Workflow } from '../../src/workflow/workflow.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const worker = agentSpec({ name: 'worker', instructions: 'do the work' });

let server: PostgresServer;
let pool: pg.Pool;
let dir: string;
let runs = 0;
const runtimes: Runtime[] = [];

beforeAll(async () => {
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: await server.createDatabase('lineage'), max: 4 });
  pool.on('error', () => undefined);
}, 60_000);

afterAll(async () => {
  await pool.end();
  await server.stop();
});

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-pg-lineage-')));
});

afterEach(() => {
  for (const rt of runtimes.splice(0)) void rt.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One flower process on `host`'s copy of the workspace, its records the run `run` on the server. */
function startProcess(
  host: string,
  run: string,
  steps: ScriptedStep[],
): { rt: Runtime; backend: ScriptedBackend } {
  const backend = new ScriptedBackend(steps);
  const rt = new Runtime({
    workspace: join(dir, host, 'ws'),
    config,
    backend,
    resilience: false,
    records: new PgRunRecords({ pool, schema: 'flower', run }),
  });
  runtimes.push(rt);
  // The transcripts would be in the shared PostgreSQL session store; this test is about the lineage, so every
  // remembered session counts as resumable.
  Object.assign(rt, { hasSession: () => true });
  return { rt, backend };
}

async function storedLineage(run: string): Promise<Record<string, unknown> | null> {
  const { rows } = await pool.query<{ data: string | null }>(
    'SELECT data FROM flower.flower_lineage WHERE run_name = $1',
    [run],
  );
  const data = rows[0]?.data ?? null;
  return data === null ? null : (JSON.parse(data) as Record<string, unknown>);
}

const flowSteps = () => [
  step('clarify', worker, 'clarify the request', { resumePrompt: 'continue the clarification' }),
  step('work', worker, 'do it'),
];

describe('lineage in PostgreSQL', () => {
  test('a process on another host resumes the sessions the first one recorded on the server', async () => {
    const run = `app-${++runs}`;
    const first = startProcess('host-a', run, [turn('s-clarify', 'the brief'), turn('s-work', 'done')]);
    const one = await new Workflow(flowSteps()).run(first.rt);
    expect(one._woke).toBe(1);
    expect(existsSync(join(first.rt.runDir, 'lineage.json'))).toBe(false);
    expect(await storedLineage(run)).toMatchObject({
      woke: 1,
      steps: { clarify: 's-clarify', work: 's-work' },
      workspace: first.rt.workspace,
    });

    const second = startProcess('host-b', run, [turn('s-clarify', 'again'), turn('s-work', 'done again')]);
    const events: string[] = [];
    const two = await new Workflow(flowSteps()).run(second.rt, {
      onEvent: (event) => {
        if (event.kind === 'warning') events.push(event.code);
      },
    });
    expect(two._woke).toBe(2);
    expect(second.backend.requests.map((request) => request.options.resume ?? null)).toEqual([
      's-clarify',
      's-work',
    ]);
    // The workspace moved (another host's path, the same place relative to its run directory).
    expect(events).toEqual(['lineage_moved']);
    expect(existsSync(join(second.rt.runDir, 'lineage.json'))).toBe(false);
    expect(await storedLineage(run)).toMatchObject({ woke: 2, workspace: second.rt.workspace });
  });

  test('archive copies the stored lineage into the folder and starts a new one on the server', async () => {
    const run = `app-${++runs}`;
    const records = new PgRunRecords({ pool, schema: 'flower', run });
    const workspace = join(dir, 'ws');
    const lineage = await Lineage.openRecords(records, join(workspace, 'runs'), workspace);
    lineage.remember('work', 's-1');
    lineage.bump();
    await lineage.settled();
    const before = await storedLineage(run);
    expect(before).toMatchObject({ woke: 1, steps: { work: 's-1' } });

    const folder = lineage.archive(join(dir, 'archive'));
    await lineage.settled();
    expect(JSON.parse(readFileSync(join(folder, 'lineage.json'), 'utf8'))).toEqual(before);
    const after = await storedLineage(run);
    expect(after).toMatchObject({ woke: 0, steps: {} });
    expect(after?.['lineage_id']).not.toBe(before?.['lineage_id']);
    expect(lineage.steps).toEqual({});

    // A readonly open looks only.
    const look = await Lineage.openRecords(records, join(workspace, 'runs'), workspace, { readonly: true });
    look.remember('goal', 's-2');
    await look.settled();
    expect(await storedLineage(run)).toEqual(after);
  });

  test("another workspace's lineage under the same run name is reported and never overwritten", async () => {
    const run = `app-${++runs}`;
    const records = new PgRunRecords({ pool, schema: 'flower', run });
    const foreign = {
      workspace: '/elsewhere/app',
      workspace_rel: '../../else',
      woke: 4,
      steps: { work: 's-x' },
    };
    await records.updateLineage('test', () => foreign);
    const workspace = join(dir, 'ws');
    const lineage = await Lineage.openRecords(records, join(workspace, 'runs'), workspace);
    expect(lineage.notices.map((notice) => notice.code)).toEqual(['lineage_reset']);
    expect(lineage.steps).toEqual({});
    lineage.remember('work', 's-mine');
    await lineage.settled();
    expect(lineage.steps).toEqual({ work: 's-mine' });
    expect(await storedLineage(run)).toEqual(foreign);
  });

  test('a named run is its name: a workspace at another path (and run directory) is the run moved, re-keyed', async () => {
    const run = `app-${++runs}`;
    const records = new PgRunRecords({ pool, schema: 'flower', run, named: true });
    const elsewhere = {
      workspace: '/elsewhere/app',
      workspace_rel: '../../else',
      project_key: '-elsewhere-app',
      woke: 4,
      steps: { work: 's-x' },
    };
    await records.updateLineage('test', () => elsewhere);
    const workspace = join(dir, 'ws');
    const rekeys: Array<[string, string]> = [];
    const lineage = await Lineage.openRecords(records, join(dir, 'host-b-runs'), workspace, {
      rekeyStore: (from, to) => rekeys.push([from, to]),
    });
    expect(lineage.notices.map((notice) => notice.code)).toEqual(['lineage_moved']);
    expect(lineage.steps).toEqual({ work: 's-x' });
    expect(rekeys).toEqual([['-elsewhere-app', projectKey(workspace)]]);
    expect(await storedLineage(run)).toMatchObject({
      workspace,
      project_key: projectKey(workspace),
      steps: { work: 's-x' },
    });
  });
});
