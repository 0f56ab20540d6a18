// A run on PostgreSQL is one place, and every command reads it there (issue 14): the closing line and the
// spent-budget check read the server's records, and `flower import --store` moves an exported SQLite run into
// a server, where `flower run --store` resumes the same session. The built CLI, the real SDK and its real
// Claude Code binary, flower's fake Messages API and a real PostgreSQL server started for this file; the
// location carries a password that no output and no file may hold.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { projectKey } from '../../src/agent/project-key.js';
import { PgRunRecords } from '../../src/runtime/pg-run-records.js';
import type { ManifestRow } from '../../src/runtime/manifest.js';
import { PgSessionStore } from '../../src/session/pg-session-store.js';
import { PgToolJournal } from '../../src/session/pg-tool-journal.js';
import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  message,
  scratchEnvironment,
  text,
  type FakeRequest,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import {
  SECRET_PASSWORD,
  secretLocation,
  startPostgres,
  type PostgresServer,
} from '../support/postgres-server.js';
import { flowerCli } from './support/flower-cli.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';
import { bashStep, nextStep, progressOf, UsageMeter } from './support/plan-model.js';
import { WORK_PROMPT, writeWorkflow } from './support/workflow-fixture.js';
import { filesHolding } from './support/files-holding.js';

let postgres: PostgresServer;

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  await killStrayFlowers();
  await postgres?.stop();
});

/** The location as flower may print it: the password replaced by `***`. */
function shown(location: string): string {
  return location.replace(`:${SECRET_PASSWORD}@`, ':***@');
}

/** The records of the run `run` on the server at `location`. */
function serverRecords(location: string, run: string): PgRunRecords {
  return new PgRunRecords({ location, schema: 'flower', run });
}

describe('the last lines of a run on PostgreSQL (e2e)', () => {
  test('the closing line names the records on the server, and a rerun after a budget stop reads that stop there', async () => {
    const cli = await flowerCli(() => message([text('noted')]));
    try {
      const { scratch } = cli;
      const location = await secretLocation(postgres, 'closing_line');
      const run = basename(scratch.workspace);

      const first = await cli.run(['once', '--store', location, 'note this']);
      expect(first.exitCode, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/Total cost \$\d+\.\d{4} · records in /);
      expect(first.stderr).toContain(`records in ${shown(location)} run ${run} · `);
      expect(first.stderr).not.toContain('manifest');

      // The run's budget stopped it: the row that says so exists on the server only.
      const records = serverRecords(location, run);
      try {
        const rows = await records.readRows();
        expect(rows).toHaveLength(1);
        const stop: ManifestRow = {
          ...rows[0]!,
          ok: false,
          error: 'error_max_budget_usd: run budget exhausted',
          budget_stop: { scope: 'run', cap_usd: 0.1, spent_usd: 0.09 },
        };
        await records.updateRows('test', (current) => [...current, stop]);
      } finally {
        await records.close();
      }
      const calls = cli.server.calls.length;
      const again = await cli.run(['once', '--store', location, '-b', '0.10', 'more']);
      expect(again.exitCode, again.stderr).toBe(1);
      expect(again.stderr.replace(/\s+/g, ' ')).toContain(
        'The run stopped at its budget of $0.10 ($0.0900 spent) and is not continued without a larger one',
      );
      expect(cli.server.calls.length).toBe(calls);
      const printed = [first, again].flatMap((result) => [result.stdout, result.stderr]).join('\n');
      expect(printed).not.toContain(SECRET_PASSWORD);
      expect(filesHolding(scratch.dir, SECRET_PASSWORD)).toEqual([]);
    } finally {
      await cli.close();
    }
  });
});

describe('flower ask on a run on PostgreSQL (e2e)', () => {
  test('from a host with no event log of the run, ask reads the steps on the server; the answer stays out of them', async () => {
    const cli = await flowerCli(() => message([text('noted')]));
    try {
      const { scratch } = cli;
      const location = await secretLocation(postgres, 'ask_reads');
      const run = basename(scratch.workspace);
      const first = await cli.run(['once', '--store', location, 'note this']);
      expect(first.exitCode, first.stderr).toBe(0);

      // Another host: its own run directory, which holds no event log of the run; the location from its
      // configuration this time, as a team would set it.
      const calls = cli.server.calls.length;
      const asked = await cli.run(['-r', join(scratch.dir, 'host-b-runs'), 'ask', 'what happened?'], {
        env: { FLOWER_STORE: location },
      });
      expect(asked.exitCode, asked.stderr).toBe(0);
      expect(asked.stdout).toContain('noted');
      const question = JSON.stringify(cli.server.calls.slice(calls).map((call) => call.body));
      expect(question).toMatch(/\[step [^\]]+ · done\] noted/);
      // The oracle's own row is in its aside folder, not among the run's rows on the server.
      const records = serverRecords(location, run);
      try {
        expect((await records.readRows()).map((row) => row.step)).toEqual(['ad-hoc']);
      } finally {
        await records.close();
      }
      expect(asked.stderr).not.toContain(SECRET_PASSWORD);

      // No run under that name on the server: one line, exit 1, nothing asked.
      const before = cli.server.calls.length;
      const none = await cli.run([
        '-r',
        join(scratch.dir, 'host-b-runs'),
        'ask',
        '--store',
        `${location}?run=nothing-here`,
        'what happened?',
      ]);
      expect(none.exitCode).toBe(1);
      expect(none.stderr).toContain('No run is recorded in');
      expect(none.stderr).not.toContain(SECRET_PASSWORD);
      expect(cli.server.calls.length).toBe(before);
    } finally {
      await cli.close();
    }
  });
});

describe('analyze and doctor read a run on PostgreSQL there (e2e)', () => {
  test('analyze counts the transcripts on the server; doctor checks them, the journal, the rows and the lineage there', async () => {
    const cli = await flowerCli(() => message([text('noted')]));
    try {
      const { scratch } = cli;
      const location = await secretLocation(postgres, 'reads');
      const run = basename(scratch.workspace);
      const first = await cli.run(['once', '--store', location, 'note this']);
      expect(first.exitCode, first.stderr).toBe(0);
      const sessions = new PgSessionStore(location);
      let sessionId: string;
      try {
        const listed = await sessions.listSessions(projectKey(scratch.workspace));
        expect(listed).toHaveLength(1);
        sessionId = listed[0]!.sessionId;
      } finally {
        await sessions.close();
      }

      // analyze: the transcript figures come from the server (the run directory holds no sessions.db).
      expect(existsSync(join(scratch.workspace, 'runs', 'sessions.db'))).toBe(false);
      const analyzed = await cli.run(['analyze', '--json', '--store', location]);
      expect(analyzed.exitCode, analyzed.stderr).toBe(0);
      const analysis = JSON.parse(analyzed.stdout) as {
        sources: { sessions: boolean };
        economics: { main: { transcripts: number; modelTurns: number } };
        spend: { sessions: Array<{ sessionId: string }> };
      };
      expect(analysis.sources.sessions).toBe(true);
      expect(analysis.economics.main).toMatchObject({ transcripts: 1, modelTurns: 1 });
      expect(analysis.spend.sessions.map((item) => item.sessionId)).toEqual([sessionId]);

      // doctor: a clean run on the server is clean; then a journalled call no transcript holds (a warning)
      // and a lineage step naming a session the server does not hold (an error) are found there.
      const clean = await cli.run(['doctor', '--store', location]);
      expect(clean.exitCode, clean.stdout + clean.stderr).toBe(0);
      expect(clean.stdout).toContain(`flower doctor: ${shown(location)} run ${run}`);
      expect(clean.stdout).toContain('1 transcript checked');
      expect(clean.stdout).toContain('No problem found.');
      const journal = new PgToolJournal(location);
      const records = serverRecords(location, run);
      try {
        await journal.record({
          sessionId,
          toolUseId: 'toolu_ghost',
          agentId: null,
          toolName: 'Bash',
          input: { command: 'true' },
          startedAt: Date.now(),
        });
        await records.updateLineage('test', (current) => ({
          ...(current as Record<string, unknown>),
          steps: { 'ad-hoc': sessionId, later: 'no-such-session' },
        }));
      } finally {
        await Promise.all([journal.close(), records.close()]);
      }
      const broken = await cli.run(['doctor', '--json', '--store', location]);
      expect(broken.exitCode, broken.stderr).toBe(1);
      const report = JSON.parse(broken.stdout) as { transcripts: number; findings: Array<{ rule: string }> };
      expect(report.transcripts).toBe(1);
      expect(report.findings.map((finding) => finding.rule).sort()).toEqual([
        'journal-call-not-in-transcript',
        'lineage-session-missing',
      ]);
      // --fix repairs transcripts only (pg-doctor-fix.e2e.test.ts): none is broken, the lineage error stays.
      const fix = await cli.run(['doctor', '--fix', '--store', location]);
      expect(fix.exitCode, fix.stderr).toBe(1);
      expect(fix.stdout.split('\n')[0]).toBe('flower doctor --fix: nothing to repair.');
      expect(fix.stdout).toContain(`flower doctor: ${shown(location)} run ${run}`);
      const printed = [first, analyzed, clean, broken, fix]
        .flatMap((item) => [item.stdout, item.stderr])
        .join('\n');
      expect(printed).not.toContain(SECRET_PASSWORD);
      expect(filesHolding(scratch.dir, SECRET_PASSWORD)).toEqual([]);
    } finally {
      await cli.close();
    }
  });
});

describe('flower import --store postgres://… (e2e)', () => {
  const STEPS = 3;
  const FINAL = 'All 3 steps are done.';
  let server: FakeAnthropicServer;
  let scratch: ScratchEnvironment;
  let phase: 'first' | 'finish' = 'first';
  let killPoint: () => void = () => undefined;
  const meter = new UsageMeter();

  beforeAll(async () => {
    server = await FakeAnthropicServer.start((request: FakeRequest) => {
      if (request.thread !== MAIN_THREAD) return meter.say('unused');
      const progress = progressOf(request);
      const step = nextStep(progress, STEPS);
      if (step > STEPS) return meter.say(FINAL);
      if (step === 2 && phase === 'first') {
        killPoint();
        return { kind: 'hang' };
      }
      return meter.answer([bashStep(step, progress)]);
    });
    scratch = await scratchEnvironment({ baseUrl: server.url });
  });

  afterAll(async () => {
    await killStrayFlowers();
    await server?.close();
    await scratch?.cleanup();
  });

  test('a SQLite run exported and imported into a server resumes the same session id there and finishes', async () => {
    const target = writeWorkflow(scratch.dir);
    const location = await secretLocation(postgres, 'imported_run');
    const first = join(scratch.dir, 'first-place');
    const second = join(scratch.dir, 'elsewhere', 'second-place');
    const options = { cwd: scratch.dir, env: scratch.env };

    // 1. On SQLite: step 1 runs, then flower dies (SIGKILL) while step 2 is asked for.
    const reached = new Promise<void>((resolve) => (killPoint = resolve));
    const doomed = new FlowerProcess(['-w', first, 'run', target], options);
    await reached;
    const database = join(first, 'runs', 'sessions.db');
    await until(async () => {
      if (!existsSync(database)) return false;
      const store = new SqliteSessionStore(database, { readonly: true });
      try {
        const [session] = await store.listSessions(projectKey(first));
        if (session === undefined) return false;
        const entries = await store.load({ projectKey: projectKey(first), sessionId: session.sessionId });
        return JSON.stringify(entries).includes('"tool_use_id":"toolu_s1_1"');
      } finally {
        store.close();
      }
    }, "step 1's result in the store");
    expect(await doomed.crash()).toEqual({ code: null, signal: 'SIGKILL' });

    // 2. Export, then import into another path and into the server.
    const archive = join(scratch.dir, 'run.tar.gz');
    const exported = await new FlowerProcess(['export', first, '-o', archive], options).exited;
    expect(exported).toEqual({ code: 0, signal: null });
    const importing = new FlowerProcess(['import', archive, '-w', second, '--store', location], options);
    expect(await importing.exited, importing.stderr).toEqual({ code: 0, signal: null });
    expect(importing.stdout.join('')).toContain(
      `Transcripts and records in ${shown(location)} run second-place.`,
    );
    expect(importing.stdout.join('')).toContain(`${projectKey(first)} → ${projectKey(second)}`);
    // The run directory keeps the event log only: transcripts, manifest and lineage are on the server.
    expect(readdirSync(join(second, 'runs')).sort()).toEqual(['events.jsonl']);
    const store = new PgSessionStore(location);
    let sessionId: string;
    try {
      const sessions = await store.listSessions(projectKey(second));
      expect(sessions).toHaveLength(1);
      sessionId = sessions[0]!.sessionId;
      expect(await store.listSessions(projectKey(first))).toEqual([]);
    } finally {
      await store.close();
    }
    expect(importing.stdout.join('')).toContain(`work: session ${sessionId}`);

    // Again into another folder of the same name (the same run on the server): refused, nothing changed.
    const twin = join(scratch.dir, 'twin', 'second-place');
    const refused = new FlowerProcess(['import', archive, '-w', twin, '--store', location], options);
    expect(await refused.exited).toEqual({ code: 1, signal: null });
    expect(refused.stderr).toContain(`Not imported: ${shown(location)} run second-place already holds a run`);
    expect(readdirSync(twin)).toEqual([]);

    // 3. flower in the new place, with the store, resumes the same session from the server and finishes.
    phase = 'finish';
    const resumed = new FlowerProcess(['-w', second, 'run', target, '--store', location], options);
    expect(await resumed.exited, resumed.stderr).toEqual({ code: 0, signal: null });
    expect(resumed.stderr).toContain('+ done');
    expect(resumed.stderr).toContain(`records in ${shown(location)} run second-place`);
    expect(resumed.stderr).not.toContain('manifest.json');
    const calls = server.calls.filter(
      (call) => call.path === '/v1/messages' && call.body.messages !== undefined,
    );
    expect(new Set(calls.map((call) => call.headers['x-claude-code-session-id']))).toEqual(
      new Set([sessionId]),
    );
    expect(JSON.stringify(calls.at(-1)?.body.messages)).toContain(WORK_PROMPT);
    expect(JSON.stringify(calls.at(-1)?.body.messages)).toContain('toolu_s1_1');
    expect(readFileSync(join(second, 'ran.log'), 'utf8').trim().split('\n')).toEqual(['step-02', 'step-03']);
    const records = serverRecords(location, 'second-place');
    try {
      expect((await records.readRows()).at(-1)).toMatchObject({
        ok: true,
        session_id: sessionId,
        text: FINAL,
      });
    } finally {
      await records.close();
    }
    expect(
      ['sessions.db', 'manifest.json', 'lineage.json'].filter((name) =>
        existsSync(join(second, 'runs', name)),
      ),
    ).toEqual([]);
    // dashboard: the page's spenders and report read the transcripts on the server.
    const dashboard = new FlowerProcess(['-w', second, 'dashboard', '--store', location], options);
    let url = '';
    await until(() => {
      if (dashboard.child.exitCode !== null) throw new Error(dashboard.stderr);
      url = /http:\/\/127\.0\.0\.1:\d+\//.exec(dashboard.stdout.join(''))?.[0] ?? '';
      return url !== '';
    }, "the dashboard's address");
    const state = (await (await fetch(new URL('/api/run', url))).json()) as {
      spenders: Array<{ label: string; usd: number }>;
    };
    const page = await (await fetch(new URL('/report', url))).text();
    process.kill(dashboard.child.pid!, 'SIGINT');
    expect((await dashboard.exited).code).toBe(130);
    expect(state.spenders.map((spender) => spender.label)).toEqual(['work · main thread']);
    expect(state.spenders[0]!.usd).toBeGreaterThan(0);
    expect(page).toContain('flower analyze');

    const printed = [importing, refused, resumed].flatMap((run) => [...run.stdout, run.stderr]).join('\n');
    expect(printed).not.toContain(SECRET_PASSWORD);
    expect(filesHolding(scratch.dir, SECRET_PASSWORD)).toEqual([]);
  });
});
