// `flower doctor --fix` on a run whose transcripts are on a real PostgreSQL server (issue 14): the server holds
// broken copies of the transcript Claude Code 2.1.334 recorded (the shared corpus), one named by the server's
// lineage. While another host holds the run's lease on the server, --fix refuses and writes nothing. Then the
// built CLI repairs each broken session into a new session on the server and points the server's lineage at
// it; the originals stay as stored. The fake Messages API, applying the real API's structural rules, answers
// 400 to each original's request and 200 to its copy's; the real CLI resumes the copy from the server. The
// location carries a password that no output and no file may hold.
import { execa } from 'execa';
import { mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { projectKey } from '../../src/agent/project-key.js';
import { Lineage } from '../../src/runtime/lineage.js';
import { PgRunRecords } from '../../src/runtime/pg-run-records.js';
import type { Entry } from '../../src/session/entry-content.js';
import { PgLeaseStore } from '../../src/session/pg-lease-store.js';
import { PgSessionStore } from '../../src/session/pg-session-store.js';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  text,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { corpus, recorded, requestOf } from '../fixtures/transcripts/broken-corpus.js';
import {
  SECRET_PASSWORD,
  secretLocation,
  startPostgres,
  type PostgresServer,
} from '../support/postgres-server.js';
import { FLOWER_CLI } from './support/flower-process.js';
import { filesHolding } from './support/files-holding.js';

const WORK = '22222222-2222-4222-8222-222222222222';
const LOOSE = '33333333-3333-4333-8333-333333333333';

let postgres: PostgresServer;
let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await scratch?.cleanup();
  await postgres?.stop();
});

/** The transcript stored at `key` on the server, as stored. */
async function load(location: string, key: { projectKey: string; sessionId: string }): Promise<Entry[]> {
  const store = new PgSessionStore(location);
  try {
    return (await store.load(key)) ?? [];
  } finally {
    await store.close();
  }
}

/** What the fake answers to the request a resume of `entries` sends without Claude Code's own repairs. */
async function statusOf(entries: readonly Entry[]): Promise<number> {
  const response = await fetch(`${server?.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-test-1', max_tokens: 100, ...requestOf(entries, 'go on') }),
  });
  await response.body?.cancel();
  return response.status;
}

function broken(name: string): Entry[] {
  const found = corpus.find((item) => item.name === name);
  if (found === undefined) throw new Error(`no corpus case ${name}`);
  return found.breakIt(recorded());
}

describe('flower doctor --fix on a run on PostgreSQL (e2e)', () => {
  test('repairs each broken session into a new one on the server, points the server lineage at it; the real CLI resumes it', async () => {
    server = await FakeAnthropicServer.start(() => message([text('Resumed.')]), { enforceToolPairs: true });
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const location = await secretLocation(postgres, 'doctor_fix');
    const workspace = realpathSync(scratch.workspace);
    const runDir = join(workspace, 'runs');
    mkdirSync(runDir, { recursive: true });
    const key = projectKey(workspace);
    const run = basename(workspace);
    // A result two turns late with the last reply emptied; and a call reused by a later one.
    const late = broken('reordered: a result moved two turns later');
    (late.findLast((entry) => entry.type === 'assistant')!['message'] as { content: unknown }).content = [];
    const reused = broken('duplicated: a tool_use id reused by a later call');
    const sessions = new PgSessionStore(location);
    const records = new PgRunRecords({ location, schema: 'flower', run });
    try {
      await sessions.append({ projectKey: key, sessionId: WORK }, late);
      await sessions.append({ projectKey: key, sessionId: LOOSE }, reused);
      const lineage = await Lineage.openRecords(records, runDir, workspace);
      lineage.remember('work', WORK);
      await lineage.settled();
    } finally {
      await Promise.all([sessions.close(), records.close()]);
    }
    const stored = {
      work: JSON.stringify(await load(location, { projectKey: key, sessionId: WORK })),
      loose: JSON.stringify(await load(location, { projectKey: key, sessionId: LOOSE })),
    };
    const env = { ...scratch.env, FLOWER_STORE: location };
    const flower = (...args: string[]) =>
      execa('node', [FLOWER_CLI, ...args], {
        env,
        extendEnv: false,
        cwd: workspace,
        reject: false,
        timeout: 60_000,
      });

    // doctor names each problem on the server; the API rejects each original.
    const before = await flower('doctor', '--json');
    expect(before.exitCode, before.stderr).toBe(1);
    const found = JSON.parse(before.stdout) as {
      findings: Array<{ sessionId: string | null; rule: string; severity: string }>;
    };
    const errorsOf = (id: string) =>
      [
        ...new Set(
          found.findings
            .filter((finding) => finding.sessionId === id && finding.severity === 'error')
            .map((finding) => finding.rule),
        ),
      ].sort();
    expect(errorsOf(WORK)).toEqual(['empty-content', 'result-out-of-place']);
    expect(errorsOf(LOOSE)).toEqual(['duplicate-tool-result', 'duplicate-tool-use-id']);
    expect(await statusOf(late)).toBe(400);
    expect(await statusOf(reused)).toBe(400);

    // Another host drives the run (its lease on the server is fresh): --fix refuses and writes nothing.
    const leases = new PgLeaseStore({ location, run });
    const holder = { host: 'host-b', pid: 4242, started: null, token: 'held-by-b', since: 0, beat: 0 };
    try {
      expect(await leases.acquire('go', holder, () => true)).toBeNull();
      const refused = await flower('doctor', '--fix');
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr.trim()).toBe(
        `Not fixing ${location.replace(`:${SECRET_PASSWORD}@`, ':***@')} run ${run}: a flower is running there (pid 4242 on host-b holds its lease). Stop it, then run --fix again.`,
      );
      const listing = new PgSessionStore(location);
      try {
        expect((await listing.listSessions(key)).map((item) => item.sessionId).sort()).toEqual([WORK, LOOSE]);
      } finally {
        await listing.close();
      }
    } finally {
      await leases.release('go', holder.token);
      await leases.close();
    }

    const fixed = await flower('doctor', '--fix', '--json');
    expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
    const report = JSON.parse(fixed.stdout) as {
      counts: Record<string, number>;
      fix: {
        fixed: Array<{
          sessionId: string;
          newSessionId: string;
          steps: string[];
          repairs: Array<{ kind: string }>;
        }>;
        lineageProblem: string | null;
      };
      findings: Array<{ sessionId: string; rule: string; severity: string }>;
    };
    expect(report.counts['error']).toBe(0);
    expect(report.fix.lineageProblem).toBeNull();
    const byOriginal = new Map(report.fix.fixed.map((item) => [item.sessionId, item]));
    expect(byOriginal.get(WORK)?.repairs.map((repair) => repair.kind)).toEqual([
      'dropped-empty-message',
      'moved-result',
    ]);
    expect(byOriginal.get(WORK)?.steps).toEqual(['work']);
    expect(byOriginal.get(LOOSE)?.repairs.map((repair) => repair.kind)).toEqual([
      'renamed-duplicate-tool-use-id',
    ]);
    expect(byOriginal.get(LOOSE)?.steps).toEqual([]);
    const workCopy = byOriginal.get(WORK)!.newSessionId;
    const looseCopy = byOriginal.get(LOOSE)!.newSessionId;
    expect(new Set([workCopy, looseCopy, WORK, LOOSE]).size).toBe(4);
    // The original's problems stay on record as one note naming the copy (the server holds no manifest row
    // of these sessions, a note of its own).
    expect(
      report.findings.filter((finding) => finding.sessionId === WORK).map((finding) => finding.rule),
    ).toEqual(['session-repaired', 'session-without-row']);

    // On the server: the originals as stored, the lineage resuming the copy, the copies passing the API's rules.
    expect(JSON.stringify(await load(location, { projectKey: key, sessionId: WORK }))).toBe(stored.work);
    expect(JSON.stringify(await load(location, { projectKey: key, sessionId: LOOSE }))).toBe(stored.loose);
    const after = new PgRunRecords({ location, schema: 'flower', run });
    try {
      const state = await after.readLineage();
      expect(state.kind === 'parsed' ? (state.value as { steps: unknown }).steps : state).toEqual({
        work: workCopy,
      });
    } finally {
      await after.close();
    }
    const workEntries = await load(location, { projectKey: key, sessionId: workCopy });
    expect(
      workEntries.every((entry) => entry['sessionId'] === undefined || entry['sessionId'] === workCopy),
    ).toBe(true);
    expect(await statusOf(workEntries)).toBe(200);
    expect(await statusOf(await load(location, { projectKey: key, sessionId: looseCopy }))).toBe(200);

    // The real CLI resumes the copy from the server; its request carries the first prompt and the moved result.
    const calls = server.calls.length;
    const resumed = await flower('once', '--resume', workCopy, 'go on');
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('Resumed.');
    const sent = JSON.stringify(
      server.calls
        .slice(calls)
        .findLast((call) => call.path === '/v1/messages' && JSON.stringify(call.body).includes('go on'))
        ?.body,
    );
    expect(sent).toContain('first prompt');
    expect(sent).toContain('1\\n2\\n3\\n4\\n5');
    // The two rejections are the originals' requests posted above; the CLI's requests were all accepted.
    expect(server.rejectedCalls).toHaveLength(2);
    expect(readdirSync(runDir)).not.toContain('sessions.db');

    // Nothing left to repair: a second --fix writes nothing and exits 0.
    const again = await flower('doctor', '--fix');
    expect(again.exitCode, again.stdout).toBe(0);
    expect(again.stdout.split('\n')[0]).toBe('flower doctor --fix: nothing to repair.');

    const printed = [before, fixed, resumed, again].flatMap((item) => [item.stdout, item.stderr]).join('\n');
    expect(printed).not.toContain(SECRET_PASSWORD);
    expect(filesHolding(scratch.dir, SECRET_PASSWORD)).toEqual([]);
  }, 120_000);
});
