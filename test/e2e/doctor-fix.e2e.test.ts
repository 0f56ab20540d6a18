// `flower doctor --fix` end to end: a run directory holding broken copies of the transcript Claude Code
// 2.1.334 recorded (the shared corpus), one of them named by the lineage. The built CLI repairs each into a
// new session and points the lineage at it; the originals stay byte for byte. The fake Messages API, applying
// the real API's structural rules, answers 400 to a resume of each original as stored and 200 to its copy;
// the real CLI then resumes each copy (`flower once --resume`) against it, with its history whole.
//
// Claude Code 2.1.334 repairs these shapes itself before it sends a resumed conversation (it drops empty
// messages, answers or drops unpaired blocks, turns a reused call id into text), so a resume of an original
// through the real CLI is not rejected: the 400 on the originals is shown by posting their request bodies.
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import { projectKey } from '../../src/agent/project-key.js';
import { Lineage } from '../../src/runtime/lineage.js';
import type { Entry } from '../../src/session/entry-content.js';
import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  text,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { corpus, recorded, requestOf } from '../fixtures/transcripts/broken-corpus.js';
import { FLOWER_CLI } from './support/flower-process.js';

const WORK = '22222222-2222-4222-8222-222222222222';
const LOOSE = '33333333-3333-4333-8333-333333333333';

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await server?.close();
  await scratch?.cleanup();
  server = null;
  scratch = null;
});

function broken(name: string): Entry[] {
  const found = corpus.find((item) => item.name === name);
  if (found === undefined) throw new Error(`no corpus case ${name}`);
  return found.breakIt(recorded());
}

async function load(path: string, key: { projectKey: string; sessionId: string }): Promise<Entry[]> {
  const store = new SqliteSessionStore(path, { readonly: true });
  try {
    return (await store.load(key)) ?? [];
  } finally {
    store.close();
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

describe('flower doctor --fix (e2e)', () => {
  test('repairs each broken session into a new one the real CLI resumes; the originals stay', async () => {
    server = await FakeAnthropicServer.start(() => message([text('Resumed.')]), { enforceToolPairs: true });
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const workspace = realpathSync(scratch.workspace);
    const runDir = join(workspace, 'runs');
    mkdirSync(runDir, { recursive: true });
    const path = join(runDir, 'sessions.db');
    const key = projectKey(workspace);
    // A result two turns late with the last reply emptied; and a call reused by a later one.
    const late = broken('reordered: a result moved two turns later');
    (late.findLast((entry) => entry.type === 'assistant')!['message'] as { content: unknown }).content = [];
    const reused = broken('duplicated: a tool_use id reused by a later call');
    const store = new SqliteSessionStore(path);
    await store.append({ projectKey: key, sessionId: WORK }, late);
    await store.append({ projectKey: key, sessionId: LOOSE }, reused);
    store.close();
    Lineage.open(runDir, workspace).remember('work', WORK);
    const stored = {
      work: JSON.stringify(await load(path, { projectKey: key, sessionId: WORK })),
      loose: JSON.stringify(await load(path, { projectKey: key, sessionId: LOOSE })),
    };
    const env = { ...scratch.env };
    const flower = (...args: string[]) =>
      execa('node', [FLOWER_CLI, ...args], {
        env,
        extendEnv: false,
        cwd: workspace,
        reject: false,
        timeout: 60_000,
      });

    const before = await flower('doctor', '--json');
    expect(before.exitCode).toBe(1);
    expect(await statusOf(late)).toBe(400);
    expect(await statusOf(reused)).toBe(400);

    const fixed = await flower('doctor', '--fix', '--json');
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    const report = JSON.parse(fixed.stdout) as {
      counts: Record<string, number>;
      fix: {
        fixed: Array<{
          sessionId: string;
          newSessionId: string;
          steps: string[];
          repairs: Array<{ kind: string }>;
        }>;
      };
      findings: Array<{ sessionId: string; rule: string; severity: string; detail: string }>;
    };
    expect(report.counts['error']).toBe(0);
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
    const workCopy = byOriginal.get(WORK)?.newSessionId as string;
    const looseCopy = byOriginal.get(LOOSE)?.newSessionId as string;
    expect(new Set([workCopy, looseCopy, WORK, LOOSE]).size).toBe(4);
    // The originals' problems stay on record as one note each, naming the copy.
    expect(report.findings.filter((finding) => finding.sessionId === WORK)).toEqual([
      expect.objectContaining({
        rule: 'session-repaired',
        severity: 'info',
        detail: `repaired into session ${workCopy}; as stored it still has unanswered-tool-use, result-out-of-place, empty-content`,
      }),
    ]);
    // The originals are as they were stored; the lineage resumes the copy; the copies pass the API's rules.
    expect(JSON.stringify(await load(path, { projectKey: key, sessionId: WORK }))).toBe(stored.work);
    expect(JSON.stringify(await load(path, { projectKey: key, sessionId: LOOSE }))).toBe(stored.loose);
    const lineage = JSON.parse(readFileSync(join(runDir, 'lineage.json'), 'utf8')) as { steps: unknown };
    expect(lineage.steps).toEqual({ work: workCopy });
    const workEntries = await load(path, { projectKey: key, sessionId: workCopy });
    expect(
      workEntries.every((entry) => entry['sessionId'] === undefined || entry['sessionId'] === workCopy),
    ).toBe(true);
    expect(await statusOf(workEntries)).toBe(200);
    expect(await statusOf(await load(path, { projectKey: key, sessionId: looseCopy }))).toBe(200);

    // The real CLI resumes each copy; the request carries the first prompt and the result that was moved.
    for (const copy of [workCopy, looseCopy]) {
      const calls = server.calls.length;
      const resumed = await flower('once', '--resume', copy, 'go on');
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
    }
    // The two rejections are the originals' requests posted above; the CLI's requests were all accepted.
    expect(server.rejectedCalls).toHaveLength(2);

    // Nothing left to repair: a second --fix writes nothing, and the plain doctor exits 0.
    const again = await flower('doctor', '--fix');
    expect(again.exitCode, again.stdout).toBe(0);
    expect(again.stdout.split('\n')[0]).toBe('flower doctor --fix: nothing to repair.');
  }, 120_000);
});
