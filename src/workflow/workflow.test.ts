import { describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { isFlowerError } from '../errors.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { readManifest } from '../runtime/manifest.js';
import type { ScriptedBackend } from '../testing/scripted-backend.js';
import type { StepResult } from '../runtime/step-result.js';
import { prompts, scriptedRuntimes } from '../../test/support/scripted-runtimes.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { step } from './step.js';
import { StepAbort } from './step-abort.js';
import { Workflow } from './workflow.js';

const worker = agentSpec({ name: 'worker', instructions: 'do the work' });
const runtime = scriptedRuntimes('flower-workflow-');

function resumes(backend: ScriptedBackend): Array<string | null> {
  return backend.requests.map((request) => request.options.resume ?? null);
}

function ofKind<K extends FlowerEvent['kind']>(
  events: FlowerEvent[],
  kind: K,
): Array<Extract<FlowerEvent, { kind: K }>> {
  return events.filter((event): event is Extract<FlowerEvent, { kind: K }> => event.kind === kind);
}

describe('Workflow', () => {
  test('runs the steps in order and hands each output to the next through the context', async () => {
    const { rt, backend } = runtime([turn('s1', 'a plan'), turn('s2', 'built it')]);
    const flow = new Workflow([
      step('plan', worker, 'make a plan'),
      step('build', worker, (ctx) => `follow this: ${String(ctx['plan'])}`),
    ]);
    const ctx = await flow.run(rt);
    expect(ctx).toBe(flow.context);
    expect(prompts(backend)).toEqual(['make a plan', 'follow this: a plan']);
    expect(ctx['plan']).toBe('a plan');
    expect(ctx['build']).toBe('built it');
    expect(ctx._failedAt).toBeUndefined();
    expect(ctx._sessions).toEqual({ plan: 's1', build: 's2' });
    expect(ctx._results?.['build']?.sessionId).toBe('s2');
    expect(readManifest(rt.runDir).map((row) => row.step)).toEqual(['plan', 'build']);
    backend.assertComplete();
  });

  test('skips a step whose when is false, leaving no query, no event and no result', async () => {
    const { rt, backend } = runtime([turn('s2', 'second')]);
    const events: FlowerEvent[] = [];
    const seen: unknown[] = [];
    const flow = new Workflow(
      [
        step('first', worker, 'one', { when: (ctx) => ctx['wanted'] === true }),
        step('second', worker, 'two', {
          when: (ctx) => (seen.push(ctx['first']), 'yes' as unknown as boolean),
        }),
      ],
      { context: { wanted: false } },
    );
    const ctx = await flow.run(rt, { onEvent: (event) => events.push(event) });
    expect(prompts(backend)).toEqual(['two']);
    expect(seen).toEqual([undefined]);
    expect(Object.keys(ctx._results ?? {})).toEqual(['second']);
    expect(ofKind(events, 'step').map((event) => [event.name, event.index, event.total])).toEqual([
      ['second', 2, 2],
    ]);
    backend.assertComplete();
  });

  test('calls the gate once per successful attempt and never after a failed one', async () => {
    const { rt, backend } = runtime([
      turn('s1', 'draft one'),
      turn('s2', 'crashed', { fail: true }),
      turn('s3', 'draft three'),
    ]);
    const gated: string[] = [];
    const flow = new Workflow([
      step('work', worker, 'write it', {
        retries: 2,
        gate: (result) => (gated.push(result.text), result.text === 'draft three'),
      }),
    ]);
    const ctx = await flow.run(rt);
    expect(gated).toEqual(['draft one', 'draft three']);
    expect(ctx['work']).toBe('draft three');
    expect(ctx._failedAt).toBeUndefined();
    // Plain retries start over: the same prompt, no session to resume.
    expect(prompts(backend)).toEqual(['write it', 'write it', 'write it']);
    expect(resumes(backend)).toEqual([null, null, null]);
    expect(readManifest(rt.runDir).map((row) => row.step)).toEqual(['work', 'work#retry1', 'work#retry2']);
    backend.assertComplete();
  });

  test('stops at a step that fails every attempt, with the last result recorded', async () => {
    const { rt, backend } = runtime([
      turn('s1', 'no', { fail: true }),
      turn('s2', 'no again', { fail: true }),
    ]);
    const flow = new Workflow([step('work', worker, 'try', { retries: 1 }), step('after', worker, 'never')]);
    const ctx = await flow.run(rt);
    expect(ctx._failedAt).toBe('work');
    expect(ctx['work']).toBeUndefined();
    expect(ctx._results?.['work']?.sessionId).toBe('s2');
    expect(ctx._results?.['after']).toBeUndefined();
    expect(prompts(backend)).toEqual(['try', 'try']);
    backend.assertComplete();
  });

  test('after a stop runs only the steps marked always, and the run stays stopped where it was', async () => {
    const { rt, backend } = runtime([turn('s1', 'no', { fail: true }), turn('s2', 'the note')]);
    const flow = new Workflow([
      step('work', worker, 'try'),
      step('skipped', worker, 'never'),
      step('note', worker, 'write the note', { always: true, onFail: 'continue' }),
    ]);
    const ctx = await flow.run(rt);
    expect(ctx._failedAt).toBe('work');
    expect(ctx['note']).toBe('the note');
    expect(ctx._results?.['skipped']).toBeUndefined();
    expect(prompts(backend)).toEqual(['try', 'write the note']);
    backend.assertComplete();
  });

  test('resumes the rejected session with the onReject feedback, as round N', async () => {
    const { rt, backend } = runtime([
      turn('s1', 'half done'),
      turn('s1', 'mostly done'),
      turn('s3', 'fresh and done'),
    ]);
    const feedback = ['close gap A', ''];
    const flow = new Workflow([
      step('work', worker, 'do the job', {
        retries: 2,
        gate: (result) => result.text === 'fresh and done',
        onReject: (result: StepResult) => {
          expect(result.ok).toBe(true);
          return feedback.shift() ?? '';
        },
      }),
    ]);
    const ctx = await flow.run(rt);
    expect(ctx['work']).toBe('fresh and done');
    // Round 2 resumes s1 with the feedback (not forked); an empty reply starts round 3 from scratch.
    expect(prompts(backend)).toEqual(['do the job', 'close gap A', 'do the job']);
    expect(resumes(backend)).toEqual([null, 's1', null]);
    expect(backend.requests.map((request) => request.options.forkSession ?? false)).toEqual([
      false,
      false,
      false,
    ]);
    expect(readManifest(rt.runDir).map((row) => row.step)).toEqual(['work', 'work#round2', 'work#round3']);
    backend.assertComplete();
  });

  test('does not call onReject after the last attempt or after a failed run', async () => {
    const { rt, backend } = runtime([turn('s1', 'broke', { fail: true }), turn('s2', 'still not it')]);
    let rejects = 0;
    const flow = new Workflow([
      step('work', worker, 'go', { retries: 1, gate: () => false, onReject: () => `${++rejects}` }),
    ]);
    const ctx = await flow.run(rt);
    expect(rejects).toBe(0);
    expect(ctx._failedAt).toBe('work');
    expect(resumes(backend)).toEqual([null, null]);
    backend.assertComplete();
  });

  test('ends the step on StepAbort without spending the remaining retries', async () => {
    const { rt, backend } = runtime([turn('s1', 'unreachable, says the judge')]);
    const events: FlowerEvent[] = [];
    const flow = new Workflow([
      step('work', worker, 'go', {
        retries: 3,
        gate: () => {
          throw new StepAbort('judged unreachable and nobody answered');
        },
      }),
      step('after', worker, 'never'),
    ]);
    const ctx = await flow.run(rt, { onEvent: (event) => events.push(event) });
    expect(ctx._aborted).toBe('judged unreachable and nobody answered');
    expect(ctx._failedAt).toBe('work');
    expect(ofKind(events, 'step_end')).toMatchObject([
      { name: 'work', ok: false, error: 'judged unreachable and nobody answered', attempts: 1 },
    ]);
    backend.assertComplete();
  });

  test('applies onFail: skip writes nothing, continue writes the unreduced text', async () => {
    const { rt, backend } = runtime([
      turn('s1', 'skipped text', { fail: true }),
      turn('s2', 'kept text', { fail: true }),
      turn('s3', 'last'),
    ]);
    const flow = new Workflow(
      [
        step('optional', worker, 'a', { onFail: 'skip', reduce: () => 'reduced' }),
        step('lenient', worker, 'b', { onFail: 'continue', reduce: () => 'reduced' }),
        step('last', worker, (ctx) => `${String(ctx['optional'])} / ${String(ctx['lenient'])}`),
      ],
      { context: { optional: 'fallback' } },
    );
    const ctx = await flow.run(rt);
    expect(ctx['optional']).toBe('fallback');
    expect(ctx['lenient']).toBe('kept text');
    expect(prompts(backend)[2]).toBe('fallback / kept text');
    expect(ctx._failedAt).toBeUndefined();
    backend.assertComplete();
  });

  test('stores what reduce returns for an accepted step', async () => {
    const { rt, backend } = runtime([turn('s1', '## Result\nthe answer is 42')]);
    const flow = new Workflow([
      step('work', worker, 'go', {
        reduce: (result, ctx) => `${String(ctx['prefix'])}${result.text.split('\n').at(-1) ?? ''}`,
      }),
    ]);
    flow.context['prefix'] = '> ';
    const ctx = await flow.run(rt);
    expect(ctx['work']).toBe('> the answer is 42');
    backend.assertComplete();
  });

  test('clears the previous run’s failure keys and withdraws its stale outputs', async () => {
    const { rt, backend } = runtime([
      turn('s1', 'first output'),
      turn('s2', 'aborted'),
      turn('s3', 'fails now', { fail: true }),
      turn('s4', 'fine now'),
    ]);
    const abortOnce = [true];
    const flow = new Workflow(
      [
        step('a', worker, 'a', { onFail: 'skip' }),
        step('b', worker, 'b', {
          gate: () => {
            if (abortOnce.shift() === true) throw new StepAbort('stop here');
            return true;
          },
        }),
      ],
      { continuous: false },
    );
    const first = await flow.run(rt);
    expect(first).toMatchObject({ a: 'first output', _failedAt: 'b', _aborted: 'stop here' });
    const second = await flow.run(rt);
    expect(second._failedAt).toBeUndefined();
    expect(second._aborted).toBeUndefined();
    // Step a failed this time (onFail skip): its output from the first run must not look current.
    expect(Object.hasOwn(second, 'a')).toBe(false);
    expect(second['b']).toBe('fine now');
    backend.assertComplete();
  });

  test('resumes or forks the session of a resumeFrom step', async () => {
    const { rt, backend } = runtime([turn('s1', 'talked'), turn('s1', 'continued'), turn('s9', 'forked')]);
    const flow = new Workflow([
      step('talk', worker, 'talk'),
      step('more', worker, 'more', { resumeFrom: 'talk' }),
      step('branch', worker, 'branch', { resumeFrom: 'talk', fork: true }),
    ]);
    await flow.run(rt);
    expect(resumes(backend)).toEqual([null, 's1', 's1']);
    expect(backend.requests.map((request) => request.options.forkSession ?? false)).toEqual([
      false,
      false,
      true,
    ]);
    backend.assertComplete();
  });

  test('throws MISSING_SESSION when the resumeFrom step left no session', async () => {
    const { rt, backend } = runtime([]);
    const events: FlowerEvent[] = [];
    const flow = new Workflow([
      step('talk', worker, 'talk', { when: () => false }),
      step('more', worker, 'more', { resumeFrom: 'talk' }),
    ]);
    const failure = await flow
      .run(rt, { onEvent: (event) => events.push(event) })
      .catch((error: unknown) => error);
    expect(isFlowerError(failure) && failure.code).toBe('MISSING_SESSION');
    expect((failure as Error).message).toContain("Step 'more' needs resumeFrom='talk'");
    expect(ofKind(events, 'step_end')).toMatchObject([{ name: 'more', ok: false, attempts: 0 }]);
    backend.assertComplete();
  });

  test('refuses two steps with the same name', () => {
    expect(() => new Workflow([step('work', worker, 'a'), step('work', worker, 'b')])).toThrow(
      "Two steps are named 'work'",
    );
  });
});
