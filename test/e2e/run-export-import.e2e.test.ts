// Moving a run (docs/scaling.md): `flower run` is killed with SIGKILL mid-plan in workspace A, `flower export A`
// packs it, `flower import -w B` unpacks it into another path, and `flower run` in B resumes the same session
// id and finishes — no completed step runs again. The same CLI refuses to pack a credential. Real CLI, real
// SDK and Claude Code binary, flower's fake Messages API.
import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readManifest } from '../../src/runtime/manifest.js';
import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import { projectKey } from '../../src/agent/project-key.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  scratchEnvironment,
  type FakeRequest,
  type FakeResponse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FLOWER_CLI, FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';
import { bashStep, nextStep, progressOf, UsageMeter } from './support/plan-model.js';
import { WORK_PROMPT, writeWorkflow } from './support/workflow-fixture.js';

const STEPS = 3;
const FINAL = 'All 3 steps are done.';
const BRIEF = '# Brief\n\nThe note that travels with the run.\n';

let server: FakeAnthropicServer;
let scratch: ScratchEnvironment;
let target = '';
let phase: 'first' | 'finish' = 'first';
let killPoint: () => void = () => undefined;
const meter = new UsageMeter();

function main(request: FakeRequest): FakeResponse {
  const progress = progressOf(request);
  const step = nextStep(progress, STEPS);
  if (step > STEPS) return meter.say(FINAL);
  if (step === 2 && phase === 'first') {
    killPoint();
    return { kind: 'hang' };
  }
  return meter.answer([bashStep(step, progress)]);
}

const flower = (args: string[], cwd = scratch.dir) =>
  execa('node', [FLOWER_CLI, ...args], { cwd, env: scratch.env, extendEnv: false, reject: false });

beforeAll(async () => {
  server = await FakeAnthropicServer.start((request) =>
    request.thread === MAIN_THREAD ? main(request) : meter.say('unused'),
  );
  scratch = await scratchEnvironment({ baseUrl: server.url });
  target = writeWorkflow(scratch.dir);
});

afterAll(async () => {
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
});

async function storedResult(database: string, toolId: string): Promise<boolean> {
  if (!existsSync(database)) return false;
  const store = new SqliteSessionStore(database, { readonly: true });
  try {
    for (const key of store.projects()) {
      for (const { sessionId } of await store.listSessions(key)) {
        const entries = JSON.stringify(await store.load({ projectKey: key, sessionId }));
        if (entries.includes(`"tool_use_id":"${toolId}"`)) return true;
      }
    }
    return false;
  } finally {
    store.close();
  }
}

describe('flower export and flower import (e2e)', () => {
  test('a run exported from one path and imported on another resumes the same session id and finishes', async () => {
    const first = join(scratch.dir, 'first-place');
    const second = join(scratch.dir, 'elsewhere', 'second-place');
    mkdirSync(join(first, '.flower', 'notes'), { recursive: true });
    writeFileSync(join(first, '.flower', 'notes', 'brief.md'), BRIEF);

    // 1. In the first place: step 1 runs, then flower dies (SIGKILL) while step 2 is being asked for.
    const reached = new Promise<void>((resolve) => (killPoint = resolve));
    const run = new FlowerProcess(['-w', first, 'run', target], { cwd: scratch.dir, env: scratch.env });
    await reached;
    const firstDatabase = join(first, 'runs', 'sessions.db');
    await until(() => storedResult(firstDatabase, 'toolu_s1_1'), "step 1's result in the store");
    expect(await run.crash()).toEqual({ code: null, signal: 'SIGKILL' });

    // 2. Export (the killed run left its newest lines in the -wal file: the snapshot must hold them).
    const archive = join(scratch.dir, 'run.tar.gz');
    const exported = await flower(['export', first, '-o', archive]);
    expect(exported.stderr).toBe('');
    expect(exported.exitCode).toBe(0);
    expect(exported.stdout).toContain(`to ${archive}`);

    // 3. Import into another path.
    const imported = await flower(['import', archive, '-w', second]);
    expect(imported.stderr).toBe('');
    expect(imported.exitCode).toBe(0);
    expect(imported.stdout).toContain(`${projectKey(first)} → ${projectKey(second)}`);
    expect(readFileSync(join(second, '.flower', 'notes', 'brief.md'), 'utf8')).toBe(BRIEF);
    expect(existsSync(join(second, 'runs', 'claude'))).toBe(false);

    // 4. flower in the new place resumes and finishes.
    phase = 'finish';
    const resumed = new FlowerProcess(['-w', second, 'run', target], { cwd: scratch.dir, env: scratch.env });
    const exit = await resumed.exited;
    expect(exit, resumed.stderr).toEqual({ code: 0, signal: null });
    expect(resumed.stderr).toContain('+ done');

    const calls = server.calls.filter(
      (call) => call.path === '/v1/messages' && call.body.messages !== undefined,
    );
    const sessions = new Set(calls.map((call) => call.headers['x-claude-code-session-id']));
    expect(sessions.size).toBe(1);
    const [sessionId] = sessions;
    const rows = readManifest(join(second, 'runs'));
    expect(rows.at(-1)).toMatchObject({ ok: true, session_id: sessionId, text: FINAL });
    // The resumed conversation already held step 1: it was not run again in the new place.
    expect(readFileSync(join(first, 'ran.log'), 'utf8').trim().split('\n')).toEqual(['step-01']);
    expect(readFileSync(join(second, 'ran.log'), 'utf8').trim().split('\n')).toEqual(['step-02', 'step-03']);
    expect(JSON.stringify(calls.at(-1)?.body.messages)).toContain(WORK_PROMPT);
    expect(JSON.stringify(calls.at(-1)?.body.messages)).toContain('toolu_s1_1');
    expect(server.unexpectedCalls).toEqual([]);
  });

  test('refuses to pack a credential, names the file, writes nothing; one destination only', async () => {
    const place = join(scratch.dir, 'with-secret');
    mkdirSync(join(place, 'runs'), { recursive: true });
    writeFileSync(join(place, 'runs', 'manifest.json'), '[]\n');
    mkdirSync(join(place, '.flower', 'scripts'), { recursive: true });
    writeFileSync(
      join(place, '.flower', 'scripts', 'deploy.sh'),
      'curl -H "x-api-key: $KEY" https://example\n',
    );
    writeFileSync(join(place, '.flower', 'scripts', '.env'), 'DEPLOY_TOKEN=abc\n');
    const archive = join(scratch.dir, 'secret.tar.gz');
    const refused = await flower(['export', place, '-o', archive]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(
      'Not exported: workspace/.flower/scripts/.env (the file) holds a credentials file',
    );
    expect(refused.stderr).not.toContain('abc');
    expect(existsSync(archive)).toBe(false);

    const both = await flower(['export', place, '-o', archive, '--to', 'postgres://user:hunter22@db/flower']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('flower export needs one destination');
    expect(both.stderr).not.toContain('hunter22');
    expect(existsSync(archive)).toBe(false);
  });
});
