import { describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { isFlowerError } from '../errors.js';
import { HumanChannel } from '../human/human-channel.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { readManifest } from '../runtime/manifest.js';
import { Runtime } from '../runtime/runtime.js';
import { newStepResult, type StepResult } from '../runtime/step-result.js';
import { prompts, scriptedRuntimes } from '../../test/support/scripted-runtimes.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import type { RuntimeLike } from './runtime-like.js';
import { step, type Ctx, type Step } from './step.js';
import { Workflow } from './workflow.js';

const worker = agentSpec({ name: 'worker', instructions: 'do the work' });
const runtime = scriptedRuntimes('flower-workflow-run-');

function ofKind<K extends FlowerEvent['kind']>(
  events: FlowerEvent[],
  kind: K,
): Array<Extract<FlowerEvent, { kind: K }>> {
  return events.filter((event): event is Extract<FlowerEvent, { kind: K }> => event.kind === kind);
}

describe('Workflow.run', () => {
  test('emits step and step_end for every attempt and step, with labels, costs and counts', async () => {
    const { rt, backend } = runtime([
      turn('s1', 'nope', { costUsd: 0.25 }),
      turn('s1', 'yes', { costUsd: 0.5 }),
      turn('s3', 'tail', { costUsd: 0.125 }),
    ]);
    const events: FlowerEvent[] = [];
    const flow = new Workflow([
      step('work', worker, 'go', { retries: 1, gate: (r) => r.text === 'yes', onReject: () => 'again' }),
      step('tail', worker, 'tail'),
    ]);
    await flow.run(rt, { onEvent: (event) => events.push(event) });
    expect(
      ofKind(events, 'step').map(({ name, index, total, resumed, woke }) => ({
        name,
        index,
        total,
        resumed,
        woke,
      })),
    ).toEqual([
      { name: 'work', index: 1, total: 2, resumed: false, woke: 1 },
      { name: 'work#round2', index: 1, total: 2, resumed: false, woke: 1 },
      { name: 'tail', index: 2, total: 2, resumed: false, woke: 1 },
    ]);
    expect(
      ofKind(events, 'step_end').map(({ name, ok, error, costUsd, attempts }) => ({
        name,
        ok,
        error,
        costUsd,
        attempts,
      })),
    ).toEqual([
      { name: 'work', ok: true, error: null, costUsd: 0.75, attempts: 2 },
      { name: 'tail', ok: true, error: null, costUsd: 0.125, attempts: 1 },
    ]);
    // The runtime's own events reach the same sink, labelled with the attempt.
    expect(ofKind(events, 'text').map((event) => [event.step, event.text])).toEqual([
      ['work', 'nope'],
      ['work#round2', 'yes'],
      ['tail', 'tail'],
    ]);
    const order = events
      .filter((event) => event.kind === 'step' || event.kind === 'step_end')
      .map((event) => event.kind);
    expect(order).toEqual(['step', 'step', 'step_end', 'step', 'step_end']);
    backend.assertComplete();
  });

  test('survives a throwing event sink and onStep, recording both in uiErrors', async () => {
    const { rt, backend } = runtime([turn('s1', 'one'), turn('s2', 'two')]);
    const stepped: string[] = [];
    const flow = new Workflow([step('one', worker, 'one'), step('two', worker, 'two')]);
    const ctx = await flow.run(rt, {
      onEvent: (event) => {
        if (event.kind === 'step' || event.kind === 'step_end') throw new Error('screen gone');
      },
      onStep: (s: Step, r: StepResult) => {
        stepped.push(`${s.name}:${r.ok}`);
        throw new Error('callback bug');
      },
    });
    expect(ctx['two']).toBe('two');
    expect(stepped).toEqual(['one:true', 'two:true']);
    expect(flow.uiErrors.filter((line) => line.includes('screen gone'))).toHaveLength(4);
    expect(flow.uiErrors.filter((line) => line.includes('callback bug'))).toHaveLength(2);
    backend.assertComplete();
  });

  test('calls onStep after a failed step too', async () => {
    const { rt, backend } = runtime([turn('s1', 'bad', { fail: true })]);
    const seen: Array<[string, boolean, string | null]> = [];
    await new Workflow([step('work', worker, 'go')]).run(rt, {
      onStep: (s, r) => seen.push([s.name, r.ok, r.error]),
    });
    expect(seen).toEqual([['work', false, 'error_max_turns: Reached maximum number of turns (3)']]);
    backend.assertComplete();
  });

  test('stops at once when the signal aborts: no retry, no next step', async () => {
    const controller = new AbortController();
    const { rt, backend } = runtime([turn('s1', 'long running'), turn('s2', 'never')]);
    const flow = new Workflow([
      step('work', worker, 'go', { retries: 2, onFail: 'continue' }),
      step('after', worker, 'never'),
    ]);
    const ctx = await flow.run(rt, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.kind === 'text') controller.abort();
      },
    });
    expect(ctx._failedAt).toBe('work');
    expect(ctx._results?.['work']?.error).toBe(Runtime.KILLED);
    expect(ctx['work']).toBeUndefined();
    expect(prompts(backend)).toEqual(['go']);
    expect(backend.remaining).toBe(1);
  });

  test('does not start when the signal is already aborted', async () => {
    const { rt, backend } = runtime([]);
    const controller = new AbortController();
    controller.abort();
    const ctx = await new Workflow([step('work', worker, 'go')]).run(rt, { signal: controller.signal });
    expect(ctx._failedAt).toBe('work');
    backend.assertComplete();
  });

  test('passes verbatim to the runtime and sets the per-run context keys', async () => {
    const { rt, backend } = runtime([turn('s1', 'ok')]);
    let seen: Ctx = {};
    const sink = (): void => {};
    const flow = new Workflow([
      step('work', worker, '/not-a-command @not-a-file', {
        verbatim: true,
        gate: (_result, ctx) => ((seen = { ...ctx }), true),
      }),
    ]);
    await flow.run(rt, { onEvent: sink });
    expect(backend.requests[0]?.options.verbatimPrompts).toBe(true);
    expect(seen._runtime).toBe(rt);
    expect(typeof seen._onEvent).toBe('function');
    backend.assertComplete();
  });

  test('chains the runtime’s own onSession hook and leaves it in place', async () => {
    const { rt, backend } = runtime([turn('s1', 'ok')]);
    const noted: string[] = [];
    const hook = (sessionId: string): void => void noted.push(sessionId);
    rt.onSession = hook;
    await new Workflow([step('work', worker, 'go')]).run(rt);
    expect(noted).toEqual(['s1']);
    expect(rt.onSession).toBe(hook);
    backend.assertComplete();
  });

  test('wires the run’s sink into a channel without one, and unwires it afterwards', async () => {
    const { rt, backend } = runtime([turn('s1', 'ok')]);
    const channel = new HumanChannel({ timeoutS: 0 });
    const received: string[] = [];
    let wiredDuringRun = false;
    const flow = new Workflow(
      [
        step('work', worker, 'go', {
          gate: () => {
            wiredDuringRun = channel.onEvent !== null;
            channel.onEvent?.({
              kind: 'warning',
              text: 'from the channel',
              at: 0,
              step: null,
              code: 'session_missing',
              detail: '',
            });
            return true;
          },
        }),
      ],
      { channel },
    );
    await flow.run(rt, { onEvent: (event) => received.push(event.text) });
    expect(wiredDuringRun).toBe(true);
    expect(received).toContain('from the channel');
    expect(channel.onEvent).toBeNull();
    backend.assertComplete();
  });

  test('rejects a second run of the same object while the first is running', async () => {
    const { rt, backend } = runtime([turn('s1', 'ok')]);
    const idle = runtime([]);
    const flow = new Workflow([step('work', worker, 'go')]);
    const first = flow.run(rt);
    // Another, idle runtime: only the workflow itself can refuse.
    const second = await flow.run(idle.rt).catch((error: unknown) => error);
    expect(isFlowerError(second) && second.code).toBe('RUNTIME_BUSY');
    await first;
    backend.assertComplete();
    idle.backend.assertComplete();
  });

  test('stops on a step killed by a signal outside its own, despite retries and onFail continue', async () => {
    const calls: string[] = [];
    const rt: RuntimeLike = {
      onSession: null,
      run: (_spec, prompt, options = {}) => {
        calls.push(`${options.stepName ?? ''}:${prompt}`);
        return Promise.resolve({
          ...newStepResult(options.stepName ?? '', 1),
          sessionId: 's1',
          error: Runtime.KILLED,
          outcome: { kind: 'killed' },
          endedAt: 2,
        });
      },
    };
    const flow = new Workflow([
      step('work', worker, 'go', { retries: 2, onFail: 'continue' }),
      step('after', worker, 'never'),
    ]);
    const ctx = await flow.run(rt);
    expect(calls).toEqual(['work:go']);
    expect(ctx._failedAt).toBe('work');
    expect(ctx._sessions).toEqual({ work: 's1' });
  });

  test('runs no further attempt once the signal aborted during the gate', async () => {
    const controller = new AbortController();
    const { rt, backend } = runtime([turn('s1', 'first')]);
    const flow = new Workflow([
      step('work', worker, 'go', {
        retries: 2,
        gate: () => {
          controller.abort();
          return false;
        },
      }),
    ]);
    const events: FlowerEvent[] = [];
    const ctx = await flow.run(rt, { signal: controller.signal, onEvent: (event) => events.push(event) });
    expect(ctx._failedAt).toBe('work');
    expect(ofKind(events, 'step').map((event) => event.name)).toEqual(['work']);
    expect(readManifest(rt.runDir).map((row) => row.step)).toEqual(['work']);
    backend.assertComplete();
  });

  test('lets an error thrown by a gate propagate after restoring the runtime hook', async () => {
    const { rt, backend } = runtime([turn('s1', 'ok')]);
    const hook = (): void => {};
    rt.onSession = hook;
    const flow = new Workflow([
      step('work', worker, 'go', {
        gate: () => {
          throw new RangeError('gate bug');
        },
      }),
    ]);
    await expect(flow.run(rt)).rejects.toThrow('gate bug');
    expect(rt.onSession).toBe(hook);
    backend.assertComplete();
  });
});
