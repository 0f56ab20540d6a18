import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import type { FlowerEvent, VerdictEvent } from '../events/flower-event.js';
import { HumanChannel } from '../human/human-channel.js';
import { Goal } from '../roles/goal.js';
import { verdictInstructions } from '../roles/judge.js';
import { Verdict } from '../roles/verdict.js';
import { readManifest } from '../runtime/manifest.js';
import type { Runtime } from '../runtime/runtime.js';
import { newStepResult } from '../runtime/step-result.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { goalReply, scriptedRuntime, verdictReply } from '../../test/support/go-path.js';
import { isStepAbort } from './step-abort.js';
import { step, type Step } from './step.js';
import { withGoal } from './with-goal.js';
import { Workflow } from './workflow.js';

let dir: string;
let notes: string;
let goalPath: string;
const runtimes: Runtime[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-with-goal-')));
  notes = join(dir, 'ws', '.flower', 'notes');
  goalPath = join(notes, 'goal.md');
  mkdirSync(notes, { recursive: true });
  writeFileSync(
    goalPath,
    new Goal({ statement: 'date-cli works.', checks: ['run date-cli → see a date'] }).toMarkdown(),
  );
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

const coder = agentSpec({ name: 'coordinator', instructions: 'coordinate' });
const work = (): Step => step('work', coder, 'build date-cli', { verbatim: true, resumePrompt: 'carry on' });
const NOT_YET = verdictReply('NOT_YET', 'the binary is missing', ['run date-cli → see a date']);
const ACHIEVED = verdictReply('ACHIEVED', 'ran it and saw the date');
const UNREACHABLE = verdictReply('UNREACHABLE', 'needs a real iPhone');

function verdicts(events: FlowerEvent[]): VerdictEvent[] {
  return events.filter((event): event is VerdictEvent => event.kind === 'verdict');
}

function answerNext(channel: HumanChannel, text: string): Promise<void> {
  return channel.nextAsk(10).then((ask) => {
    if (ask === null) throw new Error('no question was asked');
    channel.answer(ask.id, text);
  });
}

describe('withGoal', () => {
  test('judges each round in a fresh session and resumes the rejected work session with the feedback', async () => {
    const { rt, backend } = runtime([
      turn('s-work', 'done, trust me'),
      turn('s-judge-1', NOT_YET),
      turn('s-work', 'now really done'),
      turn('s-judge-2', ACHIEVED),
    ]);
    const seen: string[] = [];
    rt.onSession = (sessionId) => seen.push(sessionId);
    const events: FlowerEvent[] = [];
    const ctx = await new Workflow([withGoal(work(), null, { goalPath })]).run(rt, {
      onEvent: (event) => events.push(event),
    });
    expect(ctx._failedAt).toBeUndefined();
    expect(ctx._goalRounds).toBe(2);
    expect(readManifest(rt.runDir).map((row) => [row.step, row.session_id])).toEqual([
      ['work', 's-work'],
      ['work/verdict#1', 's-judge-1'],
      ['work#round2', 's-work'],
      ['work/verdict#2', 's-judge-2'],
    ]);
    const [first, judge1, second, judge2] = backend.requests;
    expect(first?.options.resume).toBeUndefined();
    expect(judge1?.options.resume).toBeUndefined();
    expect(judge2?.options.resume).toBeUndefined();
    expect(judge1?.options.verbatimPrompts).toBe(true);
    expect(judge1?.prompt.startsWith(verdictInstructions())).toBe(true);
    expect(judge1?.prompt).toContain('done, trust me');
    expect(judge1?.prompt).toContain('- run date-cli → see a date');
    expect(judge1?.prompt).toContain('Do not trust the reply');
    expect(second?.options.resume).toBe('s-work');
    expect(second?.prompt).toBe(Verdict.parse(NOT_YET).feedback());
    expect(verdicts(events).map(({ round, state, step: label }) => [round, state, label])).toEqual([
      [1, 'NOT_YET', 'work/verdict#1'],
      [2, 'ACHIEVED', 'work/verdict#2'],
    ]);
    // The judge never enters lineage: neither through the runtime's hook nor the lineage file.
    expect(new Set(seen)).toEqual(new Set(['s-work']));
    const lineage = JSON.parse(readFileSync(join(rt.runDir, 'lineage.json'), 'utf8')) as { steps: object };
    expect(lineage.steps).toEqual({ work: 's-work' });
    backend.assertComplete();
  });

  test('stops at UNREACHABLE when nobody can answer, without spending the remaining rounds', async () => {
    const { rt, backend } = runtime([turn('s-work', 'done'), turn('s-judge-1', UNREACHABLE)]);
    const channel = new HumanChannel({ timeoutS: 0 });
    const ctx = await new Workflow([withGoal(work(), channel, { goalPath, rounds: 3 })]).run(rt);
    expect(ctx._failedAt).toBe('work');
    expect(ctx._aborted).toContain('needs a real iPhone');
    expect(ctx._aborted).toContain(goalPath);
    expect(ctx._aborted).toContain(join(rt.runDir, 'manifest.json'));
    expect(readManifest(rt.runDir).map((row) => row.step)).toEqual(['work', 'work/verdict#1']);
    backend.assertComplete();
  });

  test('stops at UNREACHABLE when the human lets the question time out', async () => {
    const { rt, backend } = runtime([turn('s-work', 'done'), turn('s-judge-1', UNREACHABLE)]);
    const channel = new HumanChannel({ timeoutS: 0.05 });
    const ctx = await new Workflow([withGoal(work(), channel, { goalPath })]).run(rt);
    expect(ctx._aborted).toContain('needs a real iPhone');
    expect(channel.asks.map((ask) => ask.state)).toEqual(['timeout']);
    backend.assertComplete();
  });

  test('stops at once when the run is aborted while the human is being asked about UNREACHABLE', async () => {
    const { rt, backend } = runtime([turn('s-work', 'done'), turn('s-judge-1', UNREACHABLE)]);
    const channel = new HumanChannel({ timeoutS: 600 });
    const controller = new AbortController();
    const asked = channel.nextAsk(10).then(() => controller.abort());
    const ctx = await new Workflow([withGoal(work(), channel, { goalPath })]).run(rt, {
      signal: controller.signal,
    });
    await asked;
    expect(ctx._aborted).toBe('killed-by-signal');
    expect(ctx._failedAt).toBe('work');
    expect(channel.pending()).toEqual([]);
    backend.assertComplete();
  });

  test('stops the step when the judge is killed, instead of counting it as a judge that did not finish', async () => {
    const { rt } = runtime([turn('s-work', 'done'), turn('s-judge-1', NOT_YET), turn('s-work', 'again')]);
    const controller = new AbortController();
    const ctx = await new Workflow([withGoal(work(), null, { goalPath, rounds: 2 })]).run(rt, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.kind === 'text' && event.step === 'work/verdict#1') controller.abort();
      },
    });
    expect(ctx._aborted).toBe('the judge of work/verdict#1 was stopped (killed-by-signal)');
    expect(ctx._failedAt).toBe('work');
    expect(ctx._verdict).toBeUndefined();
  });

  test('passes at UNREACHABLE when the human accepts by option number', async () => {
    const { rt, backend } = runtime([turn('s-work', 'done'), turn('s-judge-1', UNREACHABLE)]);
    const channel = new HumanChannel({ timeoutS: 30 });
    const answered = answerNext(channel, '1');
    const ctx = await new Workflow([withGoal(work(), channel, { goalPath })]).run(rt);
    await answered;
    expect(ctx._failedAt).toBeUndefined();
    expect(channel.asks[0]?.question).toBe(
      'The judge found the goal unreachable: needs a real iPhone — what now?',
    );
    expect(channel.asks[0]?.options).toEqual([
      'Accept and move on',
      'Amend the goal',
      'You judged wrong, keep going',
    ]);
    backend.assertComplete();
  });

  test('takes free text at UNREACHABLE as "misjudged" and feeds the human\'s words into the next round', async () => {
    const { rt, backend } = runtime([
      turn('s-work', 'done'),
      turn('s-judge-1', UNREACHABLE),
      turn('s-work', 'checked in the simulator'),
      turn('s-judge-2', ACHIEVED),
    ]);
    const channel = new HumanChannel({ timeoutS: 30 });
    const answered = answerNext(channel, 'the simulator is enough');
    const ctx = await new Workflow([withGoal(work(), channel, { goalPath })]).run(rt);
    await answered;
    expect(ctx._failedAt).toBeUndefined();
    expect(backend.requests[2]?.options.resume).toBe('s-work');
    expect(backend.requests[2]?.prompt).toContain('the human says it misjudged: "the simulator is enough"');
    backend.assertComplete();
  });

  test('sets the goal again when the human amends it at UNREACHABLE', async () => {
    const { rt, backend } = runtime([
      turn('s-work', 'done'),
      turn('s-judge-1', UNREACHABLE),
      turn(
        's-goal-2',
        goalReply(['run date-cli in the simulator → see a date'], 'date-cli works in the simulator.'),
      ),
      turn('s-work', 'done in the simulator'),
      turn('s-judge-2', ACHIEVED),
    ]);
    const channel = new HumanChannel({ timeoutS: 30 });
    const answered = answerNext(channel, 'amend').then(() => answerNext(channel, 'The simulator is enough.'));
    const ctx = await new Workflow([withGoal(work(), channel, { goalPath, facts: '- OS: test' })]).run(rt);
    await answered;
    expect(ctx._failedAt).toBeUndefined();
    expect(readManifest(rt.runDir).map((row) => row.step)).toEqual([
      'work',
      'work/verdict#1',
      'work/goal#1',
      'work#round2',
      'work/verdict#2',
    ]);
    expect(backend.requests[2]?.prompt).toContain('the human amended it: "The simulator is enough."');
    expect(Goal.load(goalPath)?.checks).toEqual(['run date-cli in the simulator → see a date']);
    expect(backend.requests[3]?.prompt).toContain('run date-cli in the simulator → see a date');
    expect(backend.requests[4]?.prompt).toContain('run date-cli in the simulator → see a date');
    backend.assertComplete();
  });

  test('counts an ambiguous verdict as not achieved', async () => {
    const { rt, backend } = runtime([
      turn('s-work', 'done'),
      turn('s-judge-1', '## Conclusion\n1 of 5 checks failed\n## Reason\nmostly fine'),
    ]);
    const ctx = await new Workflow([withGoal(work(), null, { goalPath, rounds: 1 })]).run(rt);
    expect(ctx._failedAt).toBe('work');
    expect((ctx._verdict as Verdict).state).toBe('NOT_YET');
    expect((ctx._verdict as Verdict).reason).toContain('no clear conclusion');
    backend.assertComplete();
  });

  test('counts a judge that did not finish as not achieved', async () => {
    const { rt, backend } = runtime([
      turn('s-work', 'done'),
      turn('s-judge-1', 'half a verdict', { fail: true }),
    ]);
    const ctx = await new Workflow([withGoal(work(), null, { goalPath, rounds: 1 })]).run(rt);
    expect(ctx._failedAt).toBe('work');
    expect((ctx._verdict as Verdict).state).toBe('NOT_YET');
    expect((ctx._verdict as Verdict).reason).toContain('the judge did not finish');
    backend.assertComplete();
  });

  test('shows the judge what the human added to the brief during the run', async () => {
    const briefPath = join(notes, 'brief.md');
    writeFileSync(
      briefPath,
      '# Brief\n\n## Goal\n\nx\n\n## Added during the run (10:11:12)\n\nAlso print the week.\n',
    );
    const { rt, backend } = runtime([turn('s-work', 'done'), turn('s-judge-1', ACHIEVED)]);
    await new Workflow([withGoal(work(), new HumanChannel({ amendPath: briefPath }), { goalPath })]).run(rt);
    expect(backend.requests[1]?.prompt).toContain(
      '## Added during the run (10:11:12)\n\nAlso print the week.',
    );
    backend.assertComplete();
  });

  test('judges against the goal file as a human edited it', async () => {
    writeFileSync(goalPath, new Goal({ statement: 'edited', checks: ['an edited check'] }).toMarkdown());
    const { rt, backend } = runtime([turn('s-work', 'done'), turn('s-judge-1', ACHIEVED)]);
    const ctx = await new Workflow([withGoal(work(), null, { goalPath })], {
      context: { _goal: new Goal({ statement: 'old', checks: ['an old check'] }) },
    }).run(rt);
    expect(backend.requests[1]?.prompt).toContain('- an edited check');
    expect(backend.requests[1]?.prompt).not.toContain('an old check');
    expect((ctx._goal as Goal).checks).toEqual(['an edited check']);
    backend.assertComplete();
  });

  test('counts rounds per run of the step: a second run starts again at round 1', async () => {
    const { rt, backend } = runtime([
      turn('s-work', 'done'),
      turn('s-judge-1', ACHIEVED),
      turn('s-work', 'done again'),
      turn('s-judge-2', ACHIEVED),
    ]);
    const flow = new Workflow([withGoal(work(), null, { goalPath })]);
    await flow.run(rt);
    await flow.run(rt);
    expect(readManifest(rt.runDir).map((row) => row.step)).toEqual([
      'work',
      'work/verdict#1',
      'work',
      'work/verdict#1',
    ]);
    backend.assertComplete();
  });

  test('returns a spread copy: other fields survive, retries = rounds − 1', () => {
    const guarded = withGoal(work(), null, { goalPath, rounds: 4 });
    expect(guarded.resumePrompt).toBe('carry on');
    expect(guarded.verbatim).toBe(true);
    expect(guarded.retries).toBe(3);
    expect(withGoal(work(), null, { goalPath, rounds: 0 }).retries).toBe(0);
    expect(withGoal(work(), null, { goalPath, rounds: 1 }).retries).toBe(0);
    expect(() => withGoal(work(), null, { goalPath, rounds: 1.5 })).toThrow(/rounds must be a whole number/);
  });

  test('never fakes a pass without a runtime in the context', async () => {
    const guarded = withGoal(work(), null, { goalPath });
    const rejection = await Promise.resolve(guarded.gate?.(newStepResult('work', 0), {})).catch(
      (error: unknown) => error,
    );
    expect(isStepAbort(rejection)).toBe(true);
  });
});
