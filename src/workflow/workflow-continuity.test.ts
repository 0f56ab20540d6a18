import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { Runtime } from '../runtime/runtime.js';
import { ScriptedBackend, type ScriptedStep } from '../testing/scripted-backend.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { step, type Step } from './step.js';
import { verdictLabel } from './step-names.js';
import { Workflow } from './workflow.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const worker = agentSpec({ name: 'worker', instructions: 'do the work' });
const judge = agentSpec({ name: 'judge', instructions: 'judge the work' });

let dir: string;
let workspace: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-continuity-')));
  workspace = join(dir, 'ws');
});

afterEach(() => {
  for (const rt of runtimes.splice(0)) void rt.close();
  rmSync(dir, { recursive: true, force: true });
});

const runtimes: Runtime[] = [];

/**
 * A fresh Runtime on the shared workspace: one "process" of flower. The scripted backend writes nothing to
 * the session store, so `hasSession` is replaced: every session is alive unless listed in `gone`.
 */
function startProcess(
  steps: ScriptedStep[],
  gone: readonly string[] = [],
): { rt: Runtime; backend: ScriptedBackend } {
  const backend = new ScriptedBackend(steps);
  const rt = new Runtime({ workspace, config, backend, resilience: false });
  runtimes.push(rt);
  Object.assign(rt, { hasSession: (sessionId: string) => !gone.includes(sessionId) });
  return { rt, backend };
}

function lineageSteps(rt: Runtime): Record<string, string> {
  const file = JSON.parse(readFileSync(join(rt.runDir, 'lineage.json'), 'utf8')) as {
    steps: Record<string, string>;
  };
  return file.steps;
}

function flowSteps(): Step[] {
  return [
    step('clarify', worker, 'clarify the request', { resumePrompt: 'continue the clarification' }),
    step('work', worker, (ctx) => `do: ${String(ctx['clarify'])}`),
  ];
}

describe('Workflow continuity', () => {
  test('a later process resumes each step’s session from lineage, with its resumePrompt', async () => {
    const first = startProcess([turn('s-clarify', 'the brief'), turn('s-work', 'done')]);
    const one = await new Workflow(flowSteps()).run(first.rt);
    expect(one._woke).toBe(1);
    expect(lineageSteps(first.rt)).toEqual({ clarify: 's-clarify', work: 's-work' });

    const second = startProcess([turn('s-clarify', 'the brief again'), turn('s-work', 'done again')]);
    const events: FlowerEvent[] = [];
    const two = await new Workflow(flowSteps()).run(second.rt, { onEvent: (event) => events.push(event) });
    expect(two._woke).toBe(2);
    expect(second.backend.requests.map((request) => [request.prompt, request.options.resume])).toEqual([
      ['continue the clarification', 's-clarify'],
      // No resumePrompt: the original prompt, rendered with this run's context.
      ['do: the brief again', 's-work'],
    ]);
    expect(
      events
        .filter((event) => event.kind === 'step')
        .map((event) => (event.kind === 'step' ? [event.name, event.resumed, event.woke] : null)),
    ).toEqual([
      ['clarify', true, 2],
      ['work', true, 2],
    ]);
    expect(events.some((event) => event.kind === 'warning')).toBe(false);
    first.backend.assertComplete();
    second.backend.assertComplete();
  });

  test('starts a step afresh, with a session_missing warning, when its session is gone', async () => {
    const first = startProcess([turn('s-clarify', 'brief'), turn('s-work', 'done')]);
    await new Workflow(flowSteps()).run(first.rt);

    const second = startProcess([turn('s-clarify', 'brief'), turn('s-work-2', 'done')], ['s-work']);
    const events: FlowerEvent[] = [];
    const ctx = await new Workflow(flowSteps()).run(second.rt, { onEvent: (event) => events.push(event) });
    expect(second.backend.requests.map((request) => request.options.resume ?? null)).toEqual([
      's-clarify',
      null,
    ]);
    const warnings = events.filter((event) => event.kind === 'warning');
    expect(warnings).toMatchObject([{ code: 'session_missing', step: 'work' }]);
    expect(warnings[0]?.text).toBe(
      "Step 'work': its session s-work from the last run is gone from the store; starting a new session",
    );
    // The warning follows the step header it belongs to.
    const kinds = events.map((event) => event.kind);
    expect(kinds.lastIndexOf('step')).toBeLessThan(kinds.indexOf('warning'));
    expect(ctx._sessions).toEqual({ clarify: 's-clarify', work: 's-work-2' });
    expect(lineageSteps(second.rt)).toEqual({ clarify: 's-clarify', work: 's-work-2' });
    second.backend.assertComplete();
  });

  test('with continuous off, a rerun of the same object resumes nothing (carry comes from lineage only)', async () => {
    const { rt, backend } = startProcess([
      turn('s1', 'brief'),
      turn('s2', 'done'),
      turn('s3', 'brief'),
      turn('s4', 'done'),
    ]);
    const flow = new Workflow(flowSteps(), { continuous: false });
    await flow.run(rt);
    const ctx = await flow.run(rt);
    expect(backend.requests.map((request) => request.options.resume ?? null)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(ctx._woke).toBeUndefined();
    expect(ctx._lineage).toBeUndefined();
    expect(() => readFileSync(join(rt.runDir, 'lineage.json'))).toThrow();
    backend.assertComplete();
  });

  test('writes the session to lineage as soon as it is known, and keeps a gate’s judge out of it', async () => {
    const { rt, backend } = startProcess([turn('s-work', 'done'), turn('s-judge', 'ACHIEVED')]);
    const userHook: string[] = [];
    rt.onSession = (sessionId) => void userHook.push(sessionId);
    let duringGate: Record<string, string> = {};
    const flow = new Workflow([
      step('work', worker, 'go', {
        gate: async (_result, ctx) => {
          duringGate = lineageSteps(rt);
          const verdict = await ctx._runtime!.run(judge, 'judge it', { stepName: verdictLabel('work', 1) });
          return verdict.text === 'ACHIEVED';
        },
      }),
    ]);
    const ctx = await flow.run(rt);
    expect(ctx['work']).toBe('done');
    expect(duringGate).toEqual({ work: 's-work' });
    expect(lineageSteps(rt)).toEqual({ work: 's-work' });
    expect(userHook).toEqual(['s-work', 's-judge']);
    backend.assertComplete();
  });

  test('a step skipped on wake still lends its remembered session to a resumeFrom step', async () => {
    const steps = (done: boolean): Step[] => [
      step('clarify', worker, 'clarify', { when: () => !done }),
      step('work', worker, 'work', { resumeFrom: 'clarify' }),
    ];
    const first = startProcess([turn('s-clarify', 'brief'), turn('s-clarify', 'done')]);
    await new Workflow(steps(false)).run(first.rt);
    const second = startProcess([turn('s-clarify', 'done again')]);
    const ctx = await new Workflow(steps(true)).run(second.rt);
    expect(second.backend.requests.map((request) => request.options.resume)).toEqual(['s-clarify']);
    expect(ctx._results?.['clarify']).toBeUndefined();
    second.backend.assertComplete();
  });

  test('a resumeFrom step uses the other step’s session even when its own is in lineage', async () => {
    const first = startProcess([turn('s-talk', 'talked'), turn('s-more', 'more')]);
    const steps = (): Step[] => [
      step('talk', worker, 'talk'),
      step('more', worker, 'more', { resumeFrom: 'talk', fork: true }),
    ];
    await new Workflow(steps()).run(first.rt);
    const second = startProcess([turn('s-talk', 'talked'), turn('s-more-2', 'more')]);
    await new Workflow(steps()).run(second.rt);
    expect(
      second.backend.requests.map((request) => [
        request.options.resume,
        request.options.forkSession ?? false,
      ]),
    ).toEqual([
      ['s-talk', false],
      ['s-talk', true],
    ]);
    second.backend.assertComplete();
  });
});
