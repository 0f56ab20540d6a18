// A 400 invalid_request_error is the caller's mistake, not the network's: one request, no retry by the
// binary or by flower, and the API's own message in the step's one-line error (docs/testing.md, fault
// table). Real SDK and Claude Code binary against the fake, resilience on as a user's runtime has it.
import { expect, test } from 'vitest';
import { agentSpec } from '../../src/agent/agent-spec.js';
import type { FlowerEvent } from '../../src/events/flower-event.js';
import { scriptTurns } from '../../src/testing/index.js';
import { inProcessRuns } from './support/in-process-run.js';

const setUp = inProcessRuns();

test('a scripted 400 is sent once, not retried, and its message is the step error (e2e)', async () => {
  const { server, runtime } = await setUp(
    scriptTurns({
      main: [
        {
          kind: 'status',
          status: 400,
          errorType: 'invalid_request_error',
          message: 'messages.0.content: unsupported block type "gizmo"',
        },
      ],
    }),
  );
  const events: FlowerEvent[] = [];
  const result = await runtime({ resilience: true }).run(
    agentSpec({ name: 'asker', instructions: 'Answer briefly.' }),
    'Say hello.',
    { onEvent: (event) => events.push(event) },
  );

  expect(server.calls.filter((call) => call.path === '/v1/messages')).toHaveLength(1);
  expect(events.filter((event) => event.kind === 'retry')).toEqual([]);
  expect(result.ok).toBe(false);
  expect(result.error).toContain('messages.0.content: unsupported block type "gizmo"');
  expect(result.error).not.toContain('\n');
});
