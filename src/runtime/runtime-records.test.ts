import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { listPrice, pricedRuntimes, PRICED_SPEC } from '../../test/support/priced-runtimes.js';
import { sdk } from '../../test/support/sdk-like-backend.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { readManifest, type ManifestRow } from './manifest.js';
import { PROCESSES_FILE, processStartTime } from './run-processes.js';
import { COST_WRITE_INTERVAL_MS } from './step-run.js';

const spec = PRICED_SPEC;
const price = listPrice;
const runtimeWith = pricedRuntimes('flower-records-');

/** A record in `processes.json` of a live flower process (the test's parent) holding `sessions`. */
function holdSessions(runDir: string, sessions: string[]): void {
  const now = Math.floor(Date.now() / 1000);
  const record = {
    pid: process.ppid,
    started: processStartTime(process.ppid),
    host: hostname(),
    since: now,
    beat: now,
    token: 'another-process',
    go: false,
    sessions,
    children: [],
  };
  writeFileSync(join(runDir, PROCESSES_FILE), JSON.stringify([record]));
}

describe('Runtime manifest rows while a step runs', () => {
  test('writes the row as soon as the session is known and prices each stored response', async () => {
    const { runtime } = runtimeWith([
      [
        sdk.init(),
        sdk.text('one', { id: 'm1', tokens: 1000, output: 10 }),
        sdk.text('two', { id: 'm2', tokens: 2000, output: 20 }),
        sdk.result({ total_cost_usd: 0.123 }),
      ],
    ]);
    const seen: ManifestRow[][] = [];
    const step = await runtime.run(spec, 'x', {
      onEvent: (event) => {
        if (event.kind === 'text') seen.push(readManifest(runtime.runDir));
      },
    });
    // At the first text the session row exists, unfinished. Its cost follows within COST_WRITE_INTERVAL_MS
    // (cost-only writes are coalesced); the next test pins that.
    expect(seen[0]).toEqual([expect.objectContaining({ session_id: 'sess-1', ended_at: 0 })]);
    // The result's total is the truth in the finished row.
    expect(step.costUsd).toBeCloseTo(0.123, 12);
    expect(readManifest(runtime.runDir)).toEqual([
      expect.objectContaining({ cost_usd: step.costUsd, ended_at: step.endedAt, run: runtime.runId }),
    ]);
  });

  test('prices a stored response in the running row within the write interval', async () => {
    const { runtime } = runtimeWith([
      {
        messages: [
          sdk.init(),
          sdk.text('one', { id: 'm1', tokens: 1000, output: 10 }),
          sdk.text('two', { id: 'm2', tokens: 2000, output: 20 }),
        ],
        hang: true,
      },
    ]);
    const controller = new AbortController();
    const running = runtime.run(spec, 'x', { signal: controller.signal });
    // The step hangs after both responses; the coalesced cost write must still land while it runs.
    await vi.waitFor(
      () => {
        const row = readManifest(runtime.runDir)[0];
        expect(row).toMatchObject({
          ended_at: 0,
          cost_usd: expect.closeTo(price(1000, 10) + price(2000, 20), 12) as unknown,
        });
      },
      { timeout: COST_WRITE_INTERVAL_MS * 5, interval: 20 },
    );
    controller.abort();
    await running;
  });

  test('keeps the estimates of a step that ends without a result', async () => {
    const { runtime } = runtimeWith([[sdk.init(), sdk.text('one', { id: 'm1', tokens: 1000 })]]);
    const step = await runtime.run(spec, 'x');
    expect(step.ok).toBe(false);
    expect(step.costUsd).toBeCloseTo(price(1000), 12);
  });

  test('rescue() writes the running cost and checkpoints the store', async () => {
    const { runtime } = runtimeWith([
      [sdk.init(), sdk.text('one', { id: 'm1', tokens: 1000 }), sdk.result()],
    ]);
    let row: ManifestRow | undefined;
    await runtime.run(spec, 'x', {
      onEvent: (event) => {
        if (event.kind !== 'text') return;
        runtime.rescue();
        row = readManifest(runtime.runDir)[0];
      },
    });
    expect(row).toMatchObject({
      error: 'killed-by-signal',
      cost_usd: expect.closeTo(price(1000), 12) as unknown,
    });
    expect(row?.ended_at).toBeGreaterThan(0);
  });
});

describe('Runtime completing what a killed process left', () => {
  test('prices the stored responses after an unfinished row of another run before resuming its session', async () => {
    const { runtime } = runtimeWith([
      [
        sdk.init('old'),
        sdk.text('again', { sessionId: 'old', id: 'm9' }),
        sdk.result({ session_id: 'old', total_cost_usd: 0.01 }),
      ],
    ]);
    const started = Date.now() / 1000 - 60;
    const at = (offsetS: number): string => new Date((started + offsetS) * 1000).toISOString();
    await runtime.store.append({ projectKey: runtime.projectKey, sessionId: 'old' }, [
      {
        type: 'assistant',
        uuid: 'a0',
        timestamp: at(-30),
        message: { id: 'before', model: 'claude-opus-5-5', usage: { input_tokens: 9999 } },
      },
      {
        type: 'assistant',
        uuid: 'a1',
        timestamp: at(5),
        message: { id: 'k1', model: 'claude-opus-5-5', usage: { input_tokens: 1000 } },
      },
      {
        type: 'assistant',
        uuid: 'a2',
        timestamp: at(9),
        message: { id: 'k2', model: 'claude-opus-5-5', usage: { input_tokens: 3000 } },
      },
    ]);
    await runtime.store.append(
      { projectKey: runtime.projectKey, sessionId: 'old', subpath: 'subagents/agent-x' },
      [
        {
          type: 'assistant',
          uuid: 'a3',
          timestamp: at(7),
          message: { id: 'k3', model: 'claude-opus-5-5', usage: { input_tokens: 500 } },
        },
      ],
    );
    const dead = {
      step: 'work',
      session_id: 'old',
      ok: false,
      cost_usd: 0.001,
      num_turns: 0,
      text: '',
      error: null,
      started_at: started,
      ended_at: 0,
      attempts: 1,
      errors: [],
      resumed: false,
      retired: [],
      context: 0,
      duration_s: 0,
      run: 'dead-run',
    };
    // Another process's row, of a session that process (alive: the test's parent) still holds.
    const other = { ...dead, session_id: 'elsewhere', run: 'other-run' };
    writeFileSync(runtime.manifestPath, JSON.stringify([dead, other]));
    holdSessions(runtime.runDir, ['elsewhere']);

    await runtime.run(spec, 'continue', { resume: 'old', stepName: 'work' });
    const rows = readManifest(runtime.runDir);
    expect(rows[0]).toMatchObject({
      run: 'dead-run',
      ended_at: expect.closeTo(started + 9, 3) as unknown,
      duration_s: 9,
      error: 'killed-by-signal',
      cost_usd: expect.closeTo(price(1000) + price(3000) + price(500), 12) as unknown,
    });
    expect(rows[1]).toEqual(other);
    expect(rows[2]).toMatchObject({ run: runtime.runId, session_id: 'old' });
  });

  test("completes a dead process's row of a session nobody resumes (a killed judge's) from the store and the child's file", async () => {
    const { runtime } = runtimeWith([[sdk.init('work'), sdk.result({ session_id: 'work' })]]);
    const started = Date.now() / 1000 - 60;
    const at = (offsetS: number): string => new Date((started + offsetS) * 1000).toISOString();
    const response = (uuid: string, id: string, input: number, offsetS: number) => ({
      type: 'assistant',
      uuid,
      timestamp: at(offsetS),
      message: { id, model: 'claude-opus-5-5', usage: { input_tokens: input } },
    });
    // The judge's first response reached the store (and its row) before the kill; its second only the
    // child's own transcript file.
    await runtime.store.append({ projectKey: runtime.projectKey, sessionId: 'judge' }, [
      response('j1', 'k1', 1000, 2),
    ]);
    const folder = join(runtime.runDir, 'claude', 'projects', runtime.projectKey);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'judge.jsonl'),
      [response('j1', 'k1', 1000, 2), response('j2', 'k2', 3000, 6)]
        .map((entry) => JSON.stringify(entry))
        .join('\n'),
    );
    const judge: ManifestRow = {
      step: 'work/verdict#1',
      session_id: 'judge',
      ok: false,
      cost_usd: price(1000),
      num_turns: 0,
      text: '',
      error: null,
      started_at: started,
      ended_at: 0,
      attempts: 1,
      errors: [],
      resumed: false,
      retired: [],
      context: 0,
      duration_s: 0,
      run: 'dead-run',
    };
    writeFileSync(runtime.manifestPath, JSON.stringify([judge]));

    // The wake works another session; the judge's is never resumed.
    await runtime.run(spec, 'go on', { stepName: 'work' });
    const rows = readManifest(runtime.runDir);
    expect(rows[0]).toMatchObject({
      run: 'dead-run',
      error: 'killed-by-signal',
      ended_at: expect.closeTo(started + 6, 3) as unknown,
      cost_usd: expect.closeTo(price(1000) + price(3000), 12) as unknown,
    });
    expect(rows[1]).toMatchObject({ run: runtime.runId, session_id: 'work' });
  });
});

describe('Runtime events', () => {
  test('warns once when the API serves another model than configured', async () => {
    const { runtime } = runtimeWith([
      [
        sdk.init(),
        sdk.assistant([{ type: 'text', text: 'a' }], { id: 'm1', tokens: 10, model: 'claude-sonnet-4-5' }),
        sdk.assistant([{ type: 'text', text: 'b' }], { id: 'm2', tokens: 10, model: 'claude-sonnet-4-5' }),
        sdk.result(),
      ],
    ]);
    const events: FlowerEvent[] = [];
    await runtime.run(spec, 'x', { onEvent: (event) => events.push(event) });
    const warnings = events.filter((event) => event.kind === 'warning');
    expect(warnings).toEqual([expect.objectContaining({ code: 'model_mismatch', step: 'worker' })]);
    expect(warnings[0]?.text).toContain('claude-opus-5-5');
  });

  test('reports what the store did to the transcript it loaded for a resume', async () => {
    const { runtime } = runtimeWith([[sdk.init('old'), sdk.result({ session_id: 'old' })]]);
    await runtime.store.append({ projectKey: runtime.projectKey, sessionId: 'old' }, [
      { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'hi' } },
      {
        type: 'assistant',
        uuid: 'e1',
        parentUuid: 'u1',
        isApiErrorMessage: true,
        message: {
          id: 'x',
          model: '<synthetic>',
          role: 'assistant',
          content: [{ type: 'text', text: 'API Error: 529' }],
        },
      },
    ]);
    const events: FlowerEvent[] = [];
    await runtime.run(spec, 'x', { resume: 'old', onEvent: (event) => events.push(event) });
    const trim = events.find((event) => event.kind === 'trim');
    expect(trim).toMatchObject({
      sessionId: 'old',
      report: expect.objectContaining({ pruned: 1 }) as unknown,
    });
    expect(trim?.text).not.toBe('');
  });

  test('runStream yields the events and then settles the result', async () => {
    const { runtime } = runtimeWith([[sdk.init(), sdk.text('hello', { id: 'm1' }), sdk.result()]]);
    const { events, result } = runtime.runStream(spec, 'x');
    const kinds: string[] = [];
    for await (const event of events) kinds.push(event.kind);
    expect(kinds).toEqual(['system', 'text', 'cost', 'result']);
    expect((await result).text).toBe('hello');
  });
});
