import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import type { FlowerEvent, WarningEvent } from '../events/flower-event.js';
import { HumanChannel } from '../human/human-channel.js';
import { Goal } from '../roles/goal.js';
import { setGoalInstructions } from '../roles/judge.js';
import type { Runtime } from '../runtime/runtime.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { goalReply, scriptedRuntime } from '../../test/support/go-path.js';
import { goalStep } from './goal-step.js';
import { NO_BRIEF } from './judge-prompts.js';
import { step, type Ctx } from './step.js';
import { Workflow } from './workflow.js';

let dir: string;
let goalPath: string;
const runtimes: Runtime[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-goal-')));
  goalPath = join(dir, 'ws', '.flower', 'notes', 'goal.md');
});

afterEach(() => {
  for (const rt of runtimes.splice(0)) void rt.close();
  rmSync(dir, { recursive: true, force: true });
});

function runtime(steps: Parameters<typeof scriptedRuntime>[1]) {
  const made = scriptedRuntime(join(dir, 'ws'), steps);
  runtimes.push(made.rt);
  return made;
}

const FACTS = '## Where this runs\n- Operating system: TestOS';
const UNVERIFIABLE = 'opens on a real iPhone [unverifiable here: no device]';
const withBrief: Ctx = { clarify: '## Goal\nA date CLI.' };

function warnings(events: FlowerEvent[]): WarningEvent[] {
  return events.filter((event): event is WarningEvent => event.kind === 'warning');
}

/** Answers the next question put to `channel` with `text`, as a UI would. */
function answerNext(channel: HumanChannel, text: string): Promise<string> {
  return channel.nextAsk(10).then((ask) => {
    if (ask === null) throw new Error('no question was asked');
    channel.answer(ask.id, text);
    return ask.question;
  });
}

describe('goalStep', () => {
  test('sets the goal from the brief and the fact sheet, freezes it and fills the context', async () => {
    const { rt, backend } = runtime([
      turn('s-goal', goalReply(['run `date-cli` → see an ISO date'])),
      turn('s-w', 'ok'),
    ]);
    const flow = new Workflow(
      [
        goalStep(null, { goalPath, facts: FACTS }),
        step('work', agentSpec({ name: 'w', instructions: 'w' }), (ctx) => String(ctx['goal'])),
      ],
      { context: { ...withBrief } },
    );
    const ctx = await flow.run(rt);
    const prompt = backend.requests[0]?.prompt ?? '';
    expect(prompt.startsWith(setGoalInstructions())).toBe(true);
    expect(prompt).toContain(FACTS);
    expect(prompt).toContain('## Goal\nA date CLI.');
    expect(backend.requests[0]?.options.verbatimPrompts).toBe(true);
    const frozen = Goal.load(goalPath);
    expect(frozen?.checks).toEqual(['run `date-cli` → see an ISO date']);
    expect(ctx._goal).toBeInstanceOf(Goal);
    expect(backend.requests[1]?.prompt).toBe(frozen?.promptBlock());
    backend.assertComplete();
  });

  test('a malformed check block goes back to the judge with what is wrong, and its repair is frozen', async () => {
    const malformed = goalReply([
      '`node sum.js 2 3` prints 5\n  ```check\n  command: node sum.js 2 3\n  ```',
    ]);
    const repaired = goalReply(['`node sum.js 2 3` prints 5\n  ```check\n  run: node sum.js 2 3\n  ```']);
    const { rt, backend } = runtime([turn('s-goal', malformed), turn('s-fix', repaired)]);
    await new Workflow([goalStep(null, { goalPath, facts: FACTS })], { context: { ...withBrief } }).run(rt);
    const fix = backend.requests[1]?.prompt ?? '';
    expect(fix.startsWith(setGoalInstructions())).toBe(true);
    expect(fix).toContain('- `node sum.js 2 3` prints 5: unknown key "command"');
    expect(Goal.load(goalPath)?.blocks).toEqual(['run: node sum.js 2 3']);
    backend.assertComplete();
  });

  test('says there is no brief when the workflow has none', async () => {
    const { rt, backend } = runtime([turn('s-goal', goalReply(['check']))]);
    await new Workflow([goalStep(null, { goalPath, facts: FACTS })]).run(rt);
    expect(backend.requests[0]?.prompt).toContain(NO_BRIEF);
    backend.assertComplete();
  });

  test('skips when a complete goal is frozen and fills the context; alwaysSet sets it again', async () => {
    mkdirSync(join(dir, 'ws', '.flower', 'notes'), { recursive: true });
    writeFileSync(goalPath, new Goal({ statement: 'old', checks: ['old check'] }).toMarkdown());
    const skipped = runtime([]);
    const ctx = await new Workflow([goalStep(null, { goalPath, facts: FACTS })], {
      context: { ...withBrief },
    }).run(skipped.rt);
    expect(ctx['goal']).toBe('## Goal\nold\n\n## Checklist\n- old check');
    skipped.backend.assertComplete();

    const again = runtime([turn('s-goal', goalReply(['new check'], 'new'))]);
    await new Workflow([goalStep(null, { goalPath, facts: FACTS, alwaysSet: true })], {
      context: { ...withBrief },
    }).run(again.rt);
    expect(Goal.load(goalPath)?.checks).toEqual(['new check']);
    again.backend.assertComplete();
  });

  test('rejects a goal without a checklist and writes nothing', async () => {
    const { rt, backend } = runtime([turn('s-goal', '## Goal\nIt works.')]);
    const ctx = await new Workflow([goalStep(null, { goalPath, facts: FACTS })]).run(rt);
    expect(ctx._failedAt).toBe('goal');
    expect(existsSync(goalPath)).toBe(false);
    backend.assertComplete();
  });

  test('warns at once about unverifiable checks when nobody can be asked', async () => {
    const { rt, backend } = runtime([turn('s-goal', goalReply(['run it → see a date', UNVERIFIABLE]))]);
    const events: FlowerEvent[] = [];
    const channel = new HumanChannel({ timeoutS: 0 });
    await new Workflow([goalStep(channel, { goalPath, facts: FACTS })]).run(rt, {
      onEvent: (event) => events.push(event),
    });
    const [warning, ...more] = warnings(events);
    expect(more).toEqual([]);
    expect(warning?.code).toBe('unverifiable_checks');
    expect(warning?.step).toBe('goal');
    expect(warning?.text).toContain('1 of 2 goal checks');
    expect(warning?.text).toContain(`still editable at ${goalPath}`);
    // Warned, not blocked: the goal is frozen as the judge wrote it.
    expect(Goal.load(goalPath)?.unverifiable).toEqual([UNVERIFIABLE]);
    expect(channel.asks).toEqual([]);
    backend.assertComplete();
  });

  test.each([
    ['2', ['run it → see a date'], false],
    ['drop', ['run it → see a date'], false],
    ['keep', ['run it → see a date', UNVERIFIABLE], false],
    ['whatever you think', ['run it → see a date', UNVERIFIABLE], true],
  ])('asks a reachable human about unverifiable checks: answer %j', async (answer, checks, warned) => {
    const { rt, backend } = runtime([turn('s-goal', goalReply(['run it → see a date', UNVERIFIABLE]))]);
    const channel = new HumanChannel({ timeoutS: 30 });
    const events: FlowerEvent[] = [];
    const question = answerNext(channel, answer);
    await new Workflow([goalStep(channel, { goalPath, facts: FACTS })]).run(rt, {
      onEvent: (event) => events.push(event),
    });
    expect(await question).toContain('cannot be verified here');
    expect(Goal.load(goalPath)?.checks).toEqual(checks);
    expect(warnings(events).length > 0).toBe(warned);
    backend.assertComplete();
  });

  test('moves accepted unverifiable checks out of the checklist into the statement', async () => {
    const { rt } = runtime([turn('s-goal', goalReply(['run it → see a date', UNVERIFIABLE]))]);
    const channel = new HumanChannel({ timeoutS: 30 });
    const question = answerNext(channel, 'Accept them: I will check them myself after the run');
    const ctx = await new Workflow([goalStep(channel, { goalPath, facts: FACTS })]).run(rt);
    await question;
    const goal = Goal.load(goalPath);
    expect(goal?.checks).toEqual(['run it → see a date']);
    expect(goal?.statement).toContain(`Left to the human after the run`);
    expect(goal?.statement).toContain(UNVERIFIABLE);
    expect((ctx._goal as Goal).checks).toEqual(['run it → see a date']);
  });
});
