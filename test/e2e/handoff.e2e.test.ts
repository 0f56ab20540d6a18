// Handoff instead of compaction (acceptance of "The go path"): when the usage the fake API reports crosses the
// threshold, the session writes a handoff document, and a new session starts with it; the old session is never
// resumed again. Real SDK and Claude Code binary, in process so the test can set a small window.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { agentSpec } from '../../src/agent/agent-spec.js';
import { HandoffPolicy } from '../../src/runtime/handoff-policy.js';
import {
  lastUserText,
  MAIN_THREAD,
  message,
  text,
  toolUse,
  type FakeRequest,
  type FakeResponse,
} from '../../src/testing/index.js';
import { inProcessRuns } from './support/in-process-run.js';
import { Workbench } from '../../src/workbench/workbench.js';
import { firstUserText } from './support/tool-results.js';

const setUp = inProcessRuns();

const HANDOFF = [
  '## Doing',
  'The counter script exists; its test is not written yet.',
  '## Decided',
  'Plain Node, no dependencies, because the task is tiny.',
  '## Dead ends',
  'none yet',
  '## Next',
  'Write count.test.js and run it with node.',
  '## Scene',
  'count.js',
].join('\n');

describe('handoff (e2e)', () => {
  test('crossing the threshold hands the work to a new session that starts with the document', async () => {
    const script = (request: FakeRequest): FakeResponse => {
      if (request.thread !== MAIN_THREAD) return message([text('no subagents here')]);
      if (firstUserText(request).includes('You are taking over'))
        return message([text('Test written; all done.')]);
      if (lastUserText(request).includes('Write that handoff now')) return message([text(HANDOFF)]);
      if (request.turn === 0) {
        // 60K of context on a 100K window: over the 50K threshold.
        return message([toolUse('Bash', { command: 'echo "count" > count.js', description: 'write it' })], {
          usage: { input_tokens: 60_000 },
        });
      }
      return message([text('Carrying on in the old session.')], { usage: { input_tokens: 61_000 } });
    };
    const { server, scratch, runtime: runtimeWith } = await setUp(script);
    const workbench = new Workbench(scratch.workspace);
    const runtime = runtimeWith({
      workbench,
      handoff: new HandoffPolicy({ window: 100_000 }),
    });

    const result = await runtime.run(
      agentSpec({ name: 'work', instructions: '', allowedTools: ['Bash', 'Read'] }),
      'Write a counter script and its test.',
    );

    expect(result.error).toBeNull();
    expect(result.retired).toHaveLength(1);
    const [old] = result.retired;
    expect(result.sessionId).not.toBe(old);
    const session = (call: FakeRequest): string | undefined => call.headers['x-claude-code-session-id'];
    const firstOfNew = server.calls.findIndex((call) => session(call) === result.sessionId);
    expect(firstOfNew).toBeGreaterThan(0);
    const opening = server.calls[firstOfNew]!;
    expect(firstUserText(opening)).toContain('You are taking over');
    expect(firstUserText(opening)).toContain('Write count.test.js and run it with node.');
    // The old session is done: nothing after the successor's first request goes to it.
    expect(server.calls.slice(firstOfNew).every((call) => session(call) === result.sessionId)).toBe(true);
    expect(readFileSync(join(workbench.notes, 'handoff-work.md'), 'utf8')).toContain(
      'Plain Node, no dependencies',
    );
  }, 90_000);
});
