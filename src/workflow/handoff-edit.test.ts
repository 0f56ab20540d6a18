import { appendFileSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { HandoffPolicy } from '../runtime/handoff-policy.js';
import { Runtime } from '../runtime/runtime.js';
import { ScriptedBackend, type ScriptedStep } from '../testing/scripted-backend.js';
import { scriptedTurn } from '../testing/scripted-turn.js';
import { Workbench } from '../workbench/workbench.js';
import { step } from './step.js';
import { Workflow } from './workflow.js';
import { busyTurn } from '../../test/support/busy-turn.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const DOCUMENT = '## Doing\nHalf done.\n## Next\nFinish the parser.';

let dir = '';
const runtimes: Runtime[] = [];
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-handoff-edit-')));
});
afterEach(() => {
  for (const runtime of runtimes.splice(0)) void runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

function runtimeOn(steps: ScriptedStep[]): { runtime: Runtime; backend: ScriptedBackend } {
  const backend = new ScriptedBackend(steps);
  const workspace = join(dir, 'ws');
  const runtime = new Runtime({
    workspace,
    config,
    backend,
    resilience: false,
    handoff: new HandoffPolicy({ window: 100_000 }),
    workbench: new Workbench(workspace),
  });
  // The scripted backend writes no transcripts, so every remembered session counts as alive.
  Object.assign(runtime, { hasSession: () => true });
  runtimes.push(runtime);
  return { runtime, backend };
}

const work = step('work', agentSpec({ name: 'work', instructions: '' }), 'Write the parser.', {
  resumePrompt: 'Carry on.',
});

describe('a human edit to a handoff document (decisions.md D23)', () => {
  test('is announced once in the resume prompt of the session that took over', async () => {
    const first = runtimeOn([
      busyTurn('s1', 60_000, { finish: false }),
      scriptedTurn('s1', DOCUMENT),
      scriptedTurn('s2', 'Stopped for now.'),
    ]);
    await new Workflow([work]).run(first.runtime);
    void first.runtime.close();
    const path = join(dir, 'ws', '.flower', 'notes', 'handoff-work.md');
    appendFileSync(path, '\nHuman: use the streaming parser instead.\n');

    const second = runtimeOn([scriptedTurn('s2', 'Re-read it.')]);
    const events: FlowerEvent[] = [];
    await new Workflow([work]).run(second.runtime, { onEvent: (event) => events.push(event) });
    const resumed = second.backend.requests[0];
    expect(resumed?.options.resume).toBe('s2');
    // (The workbench index comes first: a resume from a new process re-sends it, decisions.md D20.)
    const prompt = resumed?.prompt ?? '';
    expect(prompt).toMatch(/A human edited the handoff document .*handoff-work\.md/);
    expect(prompt.indexOf('A human edited')).toBeLessThan(prompt.indexOf('Carry on.'));
    expect(events.filter((event) => event.kind === 'handoff' && event.phase === 'edited')).toHaveLength(1);
    void second.runtime.close();

    const third = runtimeOn([scriptedTurn('s2', 'Going on.')]);
    await new Workflow([work]).run(third.runtime);
    expect(third.backend.requests[0]?.prompt).not.toContain('A human edited');
  });
});
