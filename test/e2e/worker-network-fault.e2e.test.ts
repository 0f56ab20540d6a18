// A worker cut off by the network (issue 16, the `refuse` fault at a worker's boundary, docs/decisions.md D344):
// the demo's go path runs as `flower go` against the fake Messages API, and when the `coder` worker
// sends its second request the fake's port closes for 3 s. Claude Code gives the worker's request up after
// its own two retries and answers the dispatch with "API Error: Connection refused"; flower must hold that
// back from the coordinator, wait for the endpoint, and resume the coordinator's session — which looks at the
// disk and goes on — in the same process, with nothing repeated and the cost as served.
// Real SDK, real Claude Code binary, flower's fake Messages API.
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { DEMO_CHAOS_SCENARIO } from '../../src/chaos/chaos-scenario.js';
import {
  costMatches,
  finalFiles,
  noApiErrorFedBack,
  noEntryLost,
  noRepeatedEffect,
} from '../../src/chaos/chaos-checks.js';
import { readManifest } from '../../src/runtime/manifest.js';
import { PLACEHOLDER_TEXT } from '../../src/session/placeholder-text.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  scratchEnvironment,
  type FakeRequest,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FlowerProcess, killStrayFlowers } from './support/flower-process.js';

const REFUSE_MS = 3_000;

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
});

describe('a worker whose request is refused (e2e)', () => {
  test('is waited out and the coordinator resumed, never shown the API error', async () => {
    const script = DEMO_CHAOS_SCENARIO.script();
    const requests: FakeRequest[] = [];
    let workerCalls = 0;
    let refused = false;
    server = await FakeAnthropicServer.start((request) => {
      requests.push(request);
      if (request.thread !== MAIN_THREAD && ++workerCalls === 2 && !refused) {
        // The worker's request after its writes: the port closes, this call and every new one are refused.
        refused = true;
        const fake = server!;
        void fake.goOffline();
        setTimeout(() => void fake.goOnline(), REFUSE_MS);
        return { kind: 'destroy' };
      }
      return script(request);
    });
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const { workspace } = scratch;
    const run = new FlowerProcess(DEMO_CHAOS_SCENARIO.args(workspace), {
      cwd: scratch.dir,
      env: { ...scratch.env, ...DEMO_CHAOS_SCENARIO.env },
    });
    const exit = await run.exited;
    expect(refused).toBe(true);
    expect(exit, run.stderr).toEqual({ code: 0, signal: null });

    const messages = requests.filter((request) => request.path === '/v1/messages');

    expect(noApiErrorFedBack(messages)).toBeNull();
    // The resumed coordinator was told the worker may have done its job, and looked before going on.
    const told = messages.filter((request) =>
      JSON.stringify(request.body).includes(PLACEHOLDER_TEXT.journalled),
    );
    expect(told.length).toBeGreaterThan(0);
    expect(
      run.lines.filter((line) => line.includes('Attempt 1 failed (transient): a worker was cut off')),
    ).toHaveLength(1);

    const runDir = join(workspace, 'runs');
    const rows = readManifest(runDir);
    expect(rows.find((row) => row.step === 'work')).toMatchObject({ ok: true, attempts: 2, resumed: true });
    expect([...finalFiles(workspace).keys()].sort()).toEqual([
      'AGENTS.md',
      'CLAUDE.md',
      'README.md',
      'wc.js',
      'wc.test.js',
    ]);
    expect(noRepeatedEffect(messages, DEMO_CHAOS_SCENARIO.effects)).toBeNull();
    expect(noEntryLost(messages, runDir)).toBeNull();
    expect(costMatches(runDir, server.served)).toBeNull();
  });
});
