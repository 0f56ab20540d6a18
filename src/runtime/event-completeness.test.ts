import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { ScriptedBackend } from '../testing/scripted-backend.js';
import { busyTurn } from '../../test/support/busy-turn.js';
import { HandoffPolicy } from './handoff-policy.js';
import { Runtime } from './runtime.js';

// Window 100K → threshold 50K, "near" at 30K: a 35K turn gives context events with figures and a notice.
const policy = new HandoffPolicy({ window: 100_000 });
const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const spec = agentSpec({ name: 'work', instructions: '' });

let dir = '';
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-complete-')));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The event as the sink saw it, without `raw` (the SDK message the test itself wrote). */
function snapshot(event: FlowerEvent): unknown {
  const { raw: _raw, ...rest } = event;
  return structuredClone(rest);
}

describe('events leave the runtime complete', () => {
  test('every event reaches the sink whole and is never changed after it was emitted', async () => {
    const runtime = new Runtime({
      workspace: join(dir, 'ws'),
      config,
      backend: new ScriptedBackend([busyTurn('s1', 35_000)]),
      resilience: false,
      handoff: policy,
      workbench: false,
    });
    const seen: Array<{ event: FlowerEvent; then: unknown }> = [];
    try {
      const result = await runtime.run(spec, 'Build it.', {
        stepName: 'build',
        onEvent: (event) => {
          // A write after this point throws (modules are strict), and the copy shows any write that did not.
          seen.push({ event: Object.freeze(event), then: snapshot(event) });
        },
      });
      expect(result.ok).toBe(true);
    } finally {
      void runtime.close();
    }
    expect(runtime.uiErrors).toEqual([]);

    const kinds = seen.map(({ event }) => event.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['context', 'handoff', 'tool_call', 'text', 'result', 'cost']),
    );
    for (const { event, then } of seen) {
      expect(event.step).toBe('build');
      expect(snapshot(event)).toEqual(then);
    }
    const context = seen.find(({ event }) => event.kind === 'context')?.event;
    expect(context).toMatchObject({
      tokens: 35_000,
      window: 100_000,
      threshold: 50_000,
      messageId: 'm-s1-1',
    });
  });
});
