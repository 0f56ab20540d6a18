import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AgentMessage } from '../agent/agent-backend.js';
import { agentSpec } from '../agent/agent-spec.js';
import { ScriptedBackend } from '../testing/scripted-backend.js';
import { sdkAssistantText, sdkInit, sdkResult } from '../testing/sdk-messages.js';
import { readManifest } from './manifest.js';
import { Runtime } from './runtime.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const spec = agentSpec({ name: 'work', instructions: '' });
const MODEL = 'claude-opus-5-5';

let dir = '';
const runtimes: Runtime[] = [];
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-retried-')));
});
afterEach(() => {
  for (const runtime of runtimes.splice(0)) void runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

function event(body: object): AgentMessage {
  return {
    type: 'stream_event',
    event: body,
    parent_tool_use_id: null,
    session_id: 's1',
  } as unknown as AgentMessage;
}

/** The start of response `id` with `inputTokens`, as the API streams it (one output token so far). */
function start(id: string, inputTokens: number): AgentMessage {
  return event({
    type: 'message_start',
    message: { id, usage: { input_tokens: inputTokens, output_tokens: 1 } },
  });
}

/** The child's notice that a request failed (a connection cut: no HTTP status) and is tried again. */
const retry = {
  type: 'system',
  subtype: 'api_retry',
  attempt: 1,
  max_retries: 10,
  retry_delay_ms: 600,
  error_status: null,
  error: 'unknown',
  session_id: 's1',
} as unknown as AgentMessage;

/** $4 per million input tokens, $20 per million output tokens (the demo's model). */
const price = (input: number, output: number): number => (input * 4 + output * 20) / 1_000_000;

/**
 * One query whose first try was cut after its answer's start, then retried and answered whole; the child's
 * total counts the cut start too, as Claude Code did at a `cut` at boundary 5 of the demo.
 */
function cutThenRetried(withRetryNotice: boolean): AgentMessage[] {
  return [
    sdkInit({ sessionId: 's1', model: MODEL }),
    start('m-cut', 12_000),
    ...(withRetryNotice ? [retry] : []),
    start('m-whole', 1_000),
    sdkAssistantText('Done.', {
      sessionId: 's1',
      id: 'm-whole',
      model: MODEL,
      inputTokens: 1_000,
      outputTokens: 1,
    }),
    event({ type: 'message_delta', delta: {}, usage: { output_tokens: 50 } }),
    sdkResult({ sessionId: 's1', costUsd: price(12_000, 1) + price(1_000, 50) }),
  ];
}

function runOne(messages: AgentMessage[]): Runtime {
  // The scripted backend mirrors nothing to the store: the step's figure has only what the stream showed.
  const runtime = new Runtime({
    workspace: join(dir, 'ws'),
    config,
    backend: new ScriptedBackend([messages]),
    resilience: false,
  });
  runtimes.push(runtime);
  return runtime;
}

describe('the cost of a query the child retried (docs/decisions.md D354)', () => {
  test("keeps flower's figure of the whole answers: a cut answer's start the child priced is not billed", async () => {
    const result = await runOne(cutThenRetried(true)).run(spec, 'Do it.');
    expect(result.ok).toBe(true);
    expect(result.costUsd).toBeCloseTo(price(1_000, 50), 9);
    expect(readManifest(join(dir, 'ws', 'runs'))[0]?.cost_usd).toBeCloseTo(price(1_000, 50), 9);
  });

  test("a query without a retry still takes the child's total as the truth", async () => {
    const result = await runOne(cutThenRetried(false)).run(spec, 'Do it.');
    expect(result.costUsd).toBeCloseTo(price(12_000, 1) + price(1_000, 50), 9);
  });
});
