// Session callbacks travel per run (RunOptions.onSession/onHandoff): the runtime's public fields are never
// swapped, a step's own run gets the lineage hook (which chains the runtime's), and a judge's run gets none.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { Goal } from '../roles/goal.js';
import type { Runtime } from '../runtime/runtime.js';
import type { RunOptions } from '../runtime/runtime-options.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { scriptedRuntime, verdictReply } from '../../test/support/go-path.js';
import { step } from './step.js';
import { withGoal } from './with-goal.js';
import { Workflow } from './workflow.js';

let dir: string;
let goalPath: string;
const runtimes: Runtime[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-session-hooks-')));
  const notes = join(dir, 'ws', '.flower', 'notes');
  goalPath = join(notes, 'goal.md');
  mkdirSync(notes, { recursive: true });
  writeFileSync(goalPath, new Goal({ statement: 'clock works.', checks: ['run clock'] }).toMarkdown());
});

afterEach(() => {
  for (const rt of runtimes.splice(0)) void rt.close();
  rmSync(dir, { recursive: true, force: true });
});

const worker = agentSpec({ name: 'worker', instructions: 'work' });

describe('session callbacks per run', () => {
  test('the runtime runs a per-run onSession instead of its own, and none for null', async () => {
    const made = scriptedRuntime(join(dir, 'ws'), [turn('s1', 'a'), turn('s2', 'b'), turn('s3', 'c')]);
    runtimes.push(made.rt);
    const { rt, backend } = made;
    const field: string[] = [];
    const own: string[] = [];
    rt.onSession = (sessionId) => void field.push(sessionId);
    await rt.run(worker, 'one', { onSession: (sessionId) => void own.push(sessionId) });
    await rt.run(worker, 'two', { onSession: null });
    await rt.run(worker, 'three');
    expect(own).toEqual(['s1']);
    expect(field).toEqual(['s3']);
    backend.assertComplete();
  });

  test('a workflow passes the lineage hook to the step’s runs and none to the judge’s, never swapping fields', async () => {
    const made = scriptedRuntime(join(dir, 'ws'), [
      turn('s-work', 'done'),
      turn('s-judge-1', verdictReply('NOT_YET', 'not yet', ['run clock'])),
      turn('s-work', 'really done'),
      turn('s-judge-2', verdictReply('ACHIEVED', 'ran it')),
    ]);
    runtimes.push(made.rt);
    const { rt, backend } = made;
    const hook = (): void => {};
    const handoffHook = (): void => {};
    rt.onSession = hook;
    rt.onHandoff = handoffHook;
    const calls: string[] = [];
    const run = rt.run.bind(rt);
    rt.run = (spec, prompt, options: RunOptions = {}) => {
      const given =
        options.onSession === undefined ? 'runtime' : options.onSession === null ? 'none' : 'lineage';
      const fields = rt.onSession === hook && rt.onHandoff === handoffHook ? 'fields kept' : 'fields swapped';
      calls.push(`${options.stepName ?? ''}: ${given}, ${fields}`);
      return run(spec, prompt, options);
    };
    const work = step('work', worker, 'build it', { verbatim: true });
    const ctx = await new Workflow([withGoal(work, null, { goalPath })]).run(rt);
    expect(ctx._failedAt).toBeUndefined();
    expect(calls).toEqual([
      'work: lineage, fields kept',
      'work/verdict#1: none, fields kept',
      'work#round2: lineage, fields kept',
      'work/verdict#2: none, fields kept',
    ]);
    const lineage = JSON.parse(readFileSync(join(rt.runDir, 'lineage.json'), 'utf8')) as { steps: object };
    expect(lineage.steps).toEqual({ work: 's-work' });
    backend.assertComplete();
  });
});
