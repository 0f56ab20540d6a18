import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AgentMessage } from '../agent/agent-backend.js';
import { agentSpec } from '../agent/agent-spec.js';
import type { FlowerEvent, HandoffEvent } from '../events/flower-event.js';
import { ScriptedBackend, type ScriptedStep } from '../testing/scripted-backend.js';
import { scriptedTurn } from '../testing/scripted-turn.js';
import { sdkAssistantText, sdkErrorResult } from '../testing/sdk-messages.js';
import { Workbench } from '../workbench/workbench.js';
import { HandoffPolicy } from './handoff-policy.js';
import { readManifest } from './manifest.js';
import { Runtime } from './runtime.js';
import { busyTurn } from '../../test/support/busy-turn.js';

// Window 100K → threshold 50K (room = max(50K, 25K)), "near" at 30K.
const policy = new HandoffPolicy({ window: 100_000 });
const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const spec = agentSpec({ name: 'work', instructions: '' });

let dir = '';
const runtimes: Runtime[] = [];
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-handoff-')));
});
afterEach(() => {
  for (const runtime of runtimes.splice(0)) void runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

function runtimeOn(steps: ScriptedStep[], workbench = true): { runtime: Runtime; backend: ScriptedBackend } {
  const backend = new ScriptedBackend(steps);
  const workspace = join(dir, 'ws');
  const runtime = new Runtime({
    workspace,
    config,
    backend,
    resilience: false,
    handoff: policy,
    workbench: workbench ? new Workbench(workspace) : false,
  });
  runtimes.push(runtime);
  return { runtime, backend };
}

const DOCUMENT = [
  '## Doing',
  'Half of the parser is written.',
  '## Decided',
  'Use a hand-written lexer, because the grammar is tiny.',
  '## Dead ends',
  'none yet',
  '## Next',
  'Run npm test; if the lexer test fails, fix tokens.ts.',
  '## Scene',
  'src/lexer.ts, src/parser.ts',
].join('\n');

/** The error result of `scriptedTurn`'s failed turn, with `error` as its one error line. */
function failedResult(sessionId: string, error: string): AgentMessage {
  return sdkErrorResult([error], { sessionId, subtype: 'error_max_turns', costUsd: 0.01 });
}

/** The partial-message events of response `id`: its start, and its end with `outputTokens` unless null. */
function streamedResponse(id: string, outputTokens: number | null): AgentMessage[] {
  const event = (body: object): AgentMessage =>
    ({
      type: 'stream_event',
      event: body,
      parent_tool_use_id: null,
      session_id: 's1',
    }) as unknown as AgentMessage;
  const start = event({
    type: 'message_start',
    message: { id, usage: { input_tokens: 60_000, output_tokens: 1 } },
  });
  if (outputTokens === null) return [start];
  return [start, event({ type: 'message_delta', delta: {}, usage: { output_tokens: outputTokens } })];
}

describe('Runtime handoff', () => {
  test('at the threshold the session writes a handoff and a new session takes over with it', async () => {
    const { runtime, backend } = runtimeOn([
      busyTurn('s1', 60_000),
      scriptedTurn('s1', DOCUMENT),
      scriptedTurn('s2', 'Parser finished.'),
    ]);
    const events: FlowerEvent[] = [];
    const result = await runtime.run(spec, 'Write the parser.', { onEvent: (event) => events.push(event) });

    expect(result).toMatchObject({
      ok: true,
      sessionId: 's2',
      retired: ['s1'],
      attempts: 1,
      text: 'Parser finished.',
    });
    const [first, writing, successor] = backend.requests;
    expect(first?.options.resume).toBeUndefined();
    expect(writing?.options.resume).toBe('s1');
    expect(writing?.prompt).toContain('60,000');
    expect(successor?.options.resume).toBeUndefined();
    expect(successor?.prompt).toContain('Half of the parser is written.');
    expect(successor?.prompt.indexOf('You are taking over')).toBe(0);

    const path = join(dir, 'ws', '.flower', 'notes', 'handoff-work.md');
    expect(readFileSync(path, 'utf8')).toContain('Use a hand-written lexer');
    const phases = events
      .filter((event): event is HandoffEvent => event.kind === 'handoff')
      .map((event) => event.phase);
    // A reading that jumps past the threshold is due at once; the "near" notice is used up by it.
    expect(phases).toEqual(['writing', 'done']);
    // The writing turn is not streamed to the UI.
    expect(events.some((event) => event.kind === 'text' && event.text.includes('Half of the parser'))).toBe(
      false,
    );
    expect(readManifest(join(dir, 'ws', 'runs'))[0]).toMatchObject({ session_id: 's2', retired: ['s1'] });
  });

  test('the response that crossed the threshold is priced although the break came before its stored copy', async () => {
    // The scripted backend mirrors nothing to the store, as a query closed before the mirror caught up. The
    // response's end (`message_delta`) brings its final output count; the assistant message has the start's.
    const [init, crossing, ...rest] = busyTurn('s1', 60_000);
    const { runtime } = runtimeOn([
      [init!, ...streamedResponse('m-s1-1', 500), crossing!, ...rest],
      scriptedTurn('s1', DOCUMENT, { costUsd: 0.01 }),
      scriptedTurn('s2', 'Parser finished.', { costUsd: 0.01 }),
    ]);
    const result = await runtime.run(spec, 'Write the parser.');

    // claude-test is an unknown model: $4 per million input tokens, $20 per million output tokens.
    const priced = (60_000 * 4 + 500 * 20) / 1_000_000;
    expect(result.costUsd).toBeCloseTo(priced + 0.01 + 0.01, 6);
    expect(readManifest(join(dir, 'ws', 'runs'))[0]?.cost_usd).toBeCloseTo(priced + 0.02, 6);
  });

  test('a response whose end never came is not priced at the break: it was no whole answer', async () => {
    const [init, crossing, ...rest] = busyTurn('s1', 60_000);
    const { runtime } = runtimeOn([
      [init!, ...streamedResponse('m-s1-1', null), crossing!, ...rest],
      scriptedTurn('s1', DOCUMENT, { costUsd: 0.01 }),
      scriptedTurn('s2', 'Parser finished.', { costUsd: 0.01 }),
    ]);
    const result = await runtime.run(spec, 'Write the parser.');

    expect(result.costUsd).toBeCloseTo(0.02, 6);
  });

  test('a reply without the required sections gives a degraded handoff that points at the scene', async () => {
    const { runtime, backend } = runtimeOn([
      busyTurn('s1', 60_000),
      scriptedTurn('s1', 'I will keep going instead.'),
      scriptedTurn('s2', 'Looked at the scene; done.'),
    ]);
    const result = await runtime.run(spec, 'Write the parser.');
    expect(result.ok).toBe(true);
    expect(result.errors.some((error) => error.startsWith('handoff degraded (missing'))).toBe(true);
    expect(backend.requests[2]?.prompt).toContain('[DEGRADED: handoff not written]');
    expect(backend.requests[2]?.prompt).toContain('Write the parser.');
  });

  test("a writing turn that failed on the network leaves the error's text out of the document", async () => {
    const { runtime, backend } = runtimeOn([
      busyTurn('s1', 60_000),
      [sdkErrorResult(['API Error: Connection refused'], { sessionId: 's1' })],
      scriptedTurn('s2', 'Looked at the scene; done.'),
    ]);
    const result = await runtime.run(spec, 'Write the parser.');
    const successor = backend.requests.at(-1)?.prompt ?? '';
    expect(successor).toContain('[DEGRADED: handoff not written]');
    expect(successor).toContain('the writing turn failed');
    expect(successor).not.toContain('API Error');
    const path = join(dir, 'ws', '.flower', 'notes', 'handoff-work.md');
    expect(readFileSync(path, 'utf8')).not.toContain('API Error');
    // The person still learns why.
    expect(result.errors.some((error) => error.includes('Connection refused'))).toBe(true);
  });

  test('two degraded handoffs in a row stop the step with the diagnosis', async () => {
    const { runtime } = runtimeOn([
      busyTurn('s1', 60_000),
      scriptedTurn('s1', 'no sections'),
      busyTurn('s2', 70_000),
      scriptedTurn('s2', 'still no sections'),
    ]);
    const result = await runtime.run(spec, 'Write the parser.');
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/handoffs in a row could not be written/);
    expect(result.retired).toEqual(['s1', 's2']);
  });

  test('near the threshold one notice comes and the session carries on', async () => {
    const { runtime, backend } = runtimeOn([busyTurn('s1', 35_000)], false);
    const events: FlowerEvent[] = [];
    const result = await runtime.run(spec, 'Small job.', { onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ ok: true, sessionId: 's1', retired: [] });
    expect(backend.requests).toHaveLength(1);
    const handoffs = events.filter((event): event is HandoffEvent => event.kind === 'handoff');
    expect(handoffs.map((event) => event.phase)).toEqual(['near']);
    expect(handoffs[0]?.text).toContain('50K');
    const context = events.find((event) => event.kind === 'context');
    expect(context).toMatchObject({ tokens: 35_000, window: 100_000, threshold: 50_000 });
    expect(existsSync(join(dir, 'ws', '.flower'))).toBe(false);
  });

  test('without a workbench the document still reaches the successor, in its prompt', async () => {
    const { runtime, backend } = runtimeOn(
      [busyTurn('s1', 60_000), scriptedTurn('s1', DOCUMENT), scriptedTurn('s2', 'Done.')],
      false,
    );
    const result = await runtime.run(spec, 'Write the parser.');
    expect(result).toMatchObject({ ok: true, sessionId: 's2', retired: ['s1'] });
    expect(backend.requests[2]?.prompt).toContain('Run npm test; if the lexer test fails');
    expect(existsSync(join(dir, 'ws', '.flower'))).toBe(false);
  });

  test('"prompt is too long" before the session said anything is an input error: no handoff, no retry', async () => {
    const refused = scriptedTurn('s1', 'Prompt is too long', { fail: true }).map((message) =>
      message.type === 'result' ? failedResult('s1', 'Prompt is too long') : message,
    );
    const { runtime, backend } = runtimeOn([refused, scriptedTurn('s2', 'never reached')]);
    const phases: string[] = [];
    const result = await runtime.run(spec, 'Big job.', {
      onEvent: (event) => {
        if (event.kind === 'handoff') phases.push(event.phase);
      },
    });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^The first message is too long for the model \(.*Prompt is too long/);
    expect(result.retired).toEqual([]);
    expect(backend.requests).toHaveLength(1);
    expect(phases).toEqual([]);
  });

  test('an overflow of this attempt goes straight to a degraded handoff', async () => {
    // The session had spoken (150K of context) before the overflow: a first message refused as too long is
    // an input error instead, with nothing to hand over.
    const overflow = scriptedTurn('s1', 'Prompt is too long', { fail: true }).map((message) => {
      if (message.type === 'result') {
        return failedResult('s1', 'prompt is too long: 210000 tokens > 200000 maximum');
      }
      if (message.type !== 'assistant') return message;
      return sdkAssistantText('Prompt is too long', {
        sessionId: 's1',
        id: message.message.id,
        inputTokens: 150_000,
      });
    });
    const { runtime, backend } = runtimeOn([overflow, scriptedTurn('s2', 'Recovered.')]);
    const phases: string[] = [];
    const result = await runtime.run(spec, 'Big job.', {
      onEvent: (event) => {
        if (event.kind === 'handoff') phases.push(event.phase);
      },
    });
    expect(result).toMatchObject({ ok: true, sessionId: 's2', retired: ['s1'] });
    expect(backend.requests).toHaveLength(2);
    expect(backend.requests[1]?.prompt).toContain('[DEGRADED: handoff not written]');
    // No writing turn ran, so no "writing a handoff" line was shown.
    expect(phases.filter((phase) => phase === 'writing')).toHaveLength(0);
  });
});
