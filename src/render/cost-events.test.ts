import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { listPrice, pricedRuntimes, PRICED_SPEC } from '../../test/support/priced-runtimes.js';
import { sdk, type LikeStep } from '../../test/support/sdk-like-backend.js';
import type { AgentMessage } from '../agent/agent-backend.js';
import type { CostEvent, FlowerEvent } from '../events/flower-event.js';
import { readManifest } from '../runtime/manifest.js';
import type { Runtime } from '../runtime/runtime.js';
import { sdkAssistantText } from '../testing/sdk-messages.js';
import { createTerminalRenderer } from './terminal-renderer.js';

const spec = PRICED_SPEC;
const price = listPrice;
const runtimes = pricedRuntimes('flower-cost-events-');
const runtimeWith = (steps: LikeStep[]): Runtime => runtimes(steps).runtime;

/** A response of a subagent started by the Agent call `toolu_1`. */
function subagentText(text: string, id: string, tokens: number): AgentMessage {
  const session = { sessionId: 'sess-1', parentToolUseId: 'toolu_1' };
  return sdkAssistantText(text, { ...session, id, model: 'claude-opus-5-5', inputTokens: tokens });
}

describe('cost events', () => {
  test('one follows every stored response, main thread and subagent, and the figure only rises', async () => {
    const runtime = runtimeWith([
      [
        sdk.init(),
        sdk.text('one', { id: 'm1', tokens: 1000 }),
        subagentText('helping', 'm2', 2000),
        sdk.text('three', { id: 'm3', tokens: 3000 }),
        sdk.result({ total_cost_usd: 0.5 }),
      ],
    ]);
    const events: FlowerEvent[] = [];
    const step = await runtime.run(spec, 'x', { onEvent: (event) => events.push(event) });
    const costs = events.filter((event): event is CostEvent => event.kind === 'cost');
    expect(costs.map((event) => event.stepUsd)).toEqual([
      expect.closeTo(price(1000), 12),
      expect.closeTo(price(1000) + price(2000), 12),
      expect.closeTo(price(1000) + price(2000) + price(3000), 12),
      expect.closeTo(0.5, 12),
    ]);
    // The subagent's response moved the figure before the next main-thread message arrived.
    const subagentAt = events.findIndex((event) => event.kind === 'text' && event.subagent);
    expect(events[subagentAt - 1]).toMatchObject({
      kind: 'cost',
      stepUsd: expect.closeTo(price(3000), 12) as unknown,
    });
    // The last cost event comes just before the result and is what the manifest records.
    expect(events.at(-2)).toMatchObject({ kind: 'cost', stepUsd: step.costUsd, runUsd: step.costUsd });
    expect(events.at(-1)?.kind).toBe('result');
    expect(readManifest(runtime.runDir)[0]?.cost_usd).toBe(step.costUsd);
  });

  test('a resumed session: the done line shows the step own cost, equal to the manifest row', async () => {
    const runtime = runtimeWith([
      [
        sdk.init('old'),
        sdk.text('again', { sessionId: 'old', id: 'm9', tokens: 1000 }),
        // The child's total covers the session's whole life: $0.3156 before this process, $0.0707 now.
        sdk.result({ session_id: 'old', total_cost_usd: 0.3863 }),
      ],
    ]);
    await runtime.store.append({ projectKey: runtime.projectKey, sessionId: 'old' }, [
      { type: 'cost-state', uuid: 'c0', totalCostUSD: 0.3156 },
    ]);
    const output = new PassThrough();
    const chunks: string[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    const renderer = createTerminalRenderer({ output, now: () => 0 });
    const step = await runtime.run(spec, 'continue', { resume: 'old', stepName: 'work', onEvent: renderer });
    await new Promise((resolve) => setImmediate(resolve));
    expect(step.costUsd).toBeCloseTo(0.0707, 12);
    expect(readManifest(runtime.runDir)[0]?.cost_usd).toBe(step.costUsd);
    const lines = chunks.join('').split('\n');
    expect(lines.filter((line) => line.startsWith('  + done'))).toEqual([
      '  + done 1 turn · $0.0707 · elapsed 0:00',
    ]);
    expect(lines.filter((line) => line.startsWith('  - '))).toEqual([
      '  - context 1.0K/1M · total $0.00 · 0:00',
      '  - context 1.0K/1M · total $0.07 · 0:00',
    ]);
  });

  test('a result below the estimates it replaces leaves the figure where it was', async () => {
    const runtime = runtimeWith([
      [sdk.init(), sdk.text('big', { id: 'm1', tokens: 100_000 }), sdk.result({ total_cost_usd: 0.1 })],
    ]);
    const costs: number[] = [];
    const step = await runtime.run(spec, 'x', {
      onEvent: (event) => {
        if (event.kind === 'cost') costs.push(event.stepUsd);
      },
    });
    expect(costs).toEqual([expect.closeTo(0.4, 12), expect.closeTo(0.4, 12)]);
    expect(step.costUsd).toBeCloseTo(0.4, 12);
  });
});
