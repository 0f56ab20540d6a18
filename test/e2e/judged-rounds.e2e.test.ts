// Judged work rounds (acceptance of "The go path"), with the real SDK and Claude Code binary against the fake
// API: a judge answering NOT_YET then ACHIEVED gives two work rounds on the same session id; a judge answering
// UNREACHABLE with nobody to ask (timeout 0) stops the run without a further round and says why.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { agentSpec } from '../../src/agent/agent-spec.js';
import { HumanChannel } from '../../src/human/human-channel.js';
import { Goal } from '../../src/roles/goal.js';
import { verdictInstructions } from '../../src/roles/judge.js';
import { readManifest } from '../../src/runtime/manifest.js';
import { MAIN_THREAD, message, text, type FakeRequest, type FakeResponse } from '../../src/testing/index.js';
import { step } from '../../src/workflow/step.js';
import { withGoal } from '../../src/workflow/with-goal.js';
import { Workflow } from '../../src/workflow/workflow.js';
import { inProcessRuns } from './support/in-process-run.js';
import { firstUserText } from './support/tool-results.js';

const setUp = inProcessRuns();

const verdict = (state: string, reason: string, failed = '(none)'): string =>
  `## Conclusion\n${state}\n\n## Reason\n${reason}\n\n## Failed\n${failed}`;

/** A script: the judge's replies in order, by round; the work session answers every turn with a report. */
function script(judged: string[]): { script: (request: FakeRequest) => FakeResponse; rounds: () => number } {
  let round = 0;
  return {
    script: (request) => {
      if (request.thread !== MAIN_THREAD) return message([text('no subagents here')]);
      if (firstUserText(request).includes(verdictInstructions())) {
        return message([text(judged[Math.min(round++, judged.length - 1)] ?? '')]);
      }
      return message([text(`Report of work turn ${request.turn}: date-cli written.`)]);
    },
    rounds: () => round,
  };
}

function goalFile(workspace: string): string {
  const notes = join(workspace, '.flower', 'notes');
  mkdirSync(notes, { recursive: true });
  const path = join(notes, 'goal.md');
  writeFileSync(
    path,
    new Goal({ statement: 'date-cli works.', checks: ['run date-cli → see a date'] }).toMarkdown(),
  );
  return path;
}

const work = () =>
  step(
    'work',
    agentSpec({ name: 'coordinator', instructions: '', allowedTools: ['Read'] }),
    'Build date-cli.',
    {
      verbatim: true,
    },
  );

describe('judged work rounds (e2e)', () => {
  test('NOT_YET then ACHIEVED: two work rounds on the same session, two verdict rows', async () => {
    const judge = script([
      verdict('NOT_YET', 'The binary is missing.', '- run date-cli → see a date'),
      verdict('ACHIEVED', 'Ran it and saw the date.'),
    ]);
    const { server, scratch, runtime } = await setUp(judge.script);
    const goalPath = goalFile(scratch.workspace);
    const rt = runtime({ workbench: false });
    const channel = new HumanChannel({ timeoutS: 0 });

    const ctx = await new Workflow([withGoal(work(), channel, { goalPath, rounds: 3 })], { channel }).run(rt);

    expect(ctx._failedAt).toBeUndefined();
    expect(judge.rounds()).toBe(2);
    const rows = readManifest(rt.runDir);
    expect(rows.map((row) => row.step)).toEqual(['work', 'work/verdict#1', 'work#round2', 'work/verdict#2']);
    const [first, , second] = rows;
    expect(second?.session_id).toBe(first?.session_id);
    // The second round was told what failed, in the same session the fake saw.
    const workCalls = server.calls.filter(
      (call) => call.thread === MAIN_THREAD && call.headers['x-claude-code-session-id'] === first?.session_id,
    );
    expect(JSON.stringify(workCalls.at(-1)?.body)).toContain('The binary is missing.');
  }, 90_000);

  test('UNREACHABLE with nobody to ask: no further round, the reason is kept', async () => {
    const judge = script([verdict('UNREACHABLE', 'Needs a real iPhone to check.'), verdict('ACHIEVED', 'x')]);
    const { scratch, runtime } = await setUp(judge.script);
    const goalPath = goalFile(scratch.workspace);
    const rt = runtime({ workbench: false });
    const channel = new HumanChannel({ timeoutS: 0 });

    const ctx = await new Workflow([withGoal(work(), channel, { goalPath, rounds: 3 })], { channel }).run(rt);

    expect(ctx._failedAt).toBe('work');
    expect(ctx._aborted).toContain('Needs a real iPhone to check.');
    expect(judge.rounds()).toBe(1);
    expect(readManifest(rt.runDir).map((row) => row.step)).toEqual(['work', 'work/verdict#1']);
  }, 90_000);
});
