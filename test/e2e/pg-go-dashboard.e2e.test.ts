// `flower go --dashboard` on a run whose store is a real PostgreSQL server (issue 14): the page served from the
// run itself prices its spenders and builds its report from the server's rows, lineage and transcripts, as
// `flower dashboard --store` does (docs/decisions.md D453); the run directory holds none of them. The demo's
// scripted model on flower's fake Messages API drives the built CLI with the real SDK and Claude Code binary.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';

import { demoScenario } from '../../src/demo/demo-scenario.js';
import { DEMO_REQUEST } from '../../src/demo/demo-replies.js';
import { FakeAnthropicServer, scratchEnvironment } from '../../src/testing/index.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';

let postgres: PostgresServer;

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  await killStrayFlowers();
  await postgres?.stop();
});

/** The `ask` events the run has logged so far (none before it opens its log). */
function asks(runDir: string): Array<{ id: string }> {
  try {
    return readFileSync(join(runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"kind":"ask"'))
      .map((line) => JSON.parse(line) as { id: string });
  } catch {
    return [];
  }
}

test('go --dashboard on a PostgreSQL run: the page prices spenders and reports from the server', async () => {
  const server = await FakeAnthropicServer.start(demoScenario());
  const scratch = await scratchEnvironment({ baseUrl: server.url });
  try {
    const location = await postgres.createDatabase('go_dashboard');
    const runDir = join(scratch.workspace, 'runs');
    const go = new FlowerProcess(
      ['go', '--dashboard', '--store', location, '--rounds', '1', '--timeout', '90', DEMO_REQUEST],
      { cwd: scratch.workspace, env: scratch.env },
    );
    const line = await go.waitForLine(/#token=/);
    const [, base] = /(http:\/\/127\.0\.0\.1:\d+\/)#token=/.exec(line)!;

    // While the clarifier waits for its answer, its session is on the server only, and the page prices it.
    await until(() => asks(runDir).length > 0, 'the clarifier to ask its question');
    let spenders: Array<{ label: string; usd: number }> = [];
    await until(async () => {
      const state = (await (await fetch(`${base}api/run`)).json()) as { spenders: typeof spenders };
      spenders = state.spenders;
      return spenders.length > 0;
    }, "the clarifier's spend on the page");
    expect(spenders.map((spender) => spender.label)).toEqual(['clarify · main thread']);
    expect(spenders[0]!.usd).toBeGreaterThan(0);
    const report = await fetch(`${base}report`);
    expect(report.status).toBe(200);
    expect(await report.text()).toContain('flower analyze');
    expect(
      ['sessions.db', 'manifest.json', 'lineage.json'].filter((name) => existsSync(join(runDir, name))),
    ).toEqual([]);

    // Ctrl-C stops the run like every other Ctrl-C stop, and the page goes with it (the answer posted through
    // the page is dashboard.e2e.test.ts's).
    process.kill(go.child.pid!, 'SIGINT');
    expect((await go.exited).code).toBe(130);
    // The page went with the run.
    await expect(fetch(base!)).rejects.toThrow();
  } finally {
    await server.close();
    await scratch.cleanup();
  }
}, 120_000);
