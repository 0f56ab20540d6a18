import { describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { step } from './step.js';
import { Workflow } from './workflow.js';

const worker = agentSpec({ name: 'worker', instructions: 'work' });

describe('new Workflow checks every resumeFrom when it is built', () => {
  test('a name that is no step: one line naming the step, the typo, the nearest earlier name and the others', () => {
    const build = () =>
      new Workflow([
        step('survey', worker, 'look'),
        step('review', worker, 'review'),
        step('fix', worker, 'fix', { resumeFrom: 'reveiw' }),
      ]);
    expect(build).toThrow(TypeError);
    expect(build).toThrow(
      "Step 'fix' has resumeFrom: 'reveiw', which is not a step of this workflow. Did you mean 'review'? " +
        "Earlier steps: 'survey', 'review'.",
    );
  });

  test('a later step, or the step itself, is refused with the reason', () => {
    expect(
      () =>
        new Workflow([
          step('fix', worker, 'fix', { resumeFrom: 'review' }),
          step('review', worker, 'review'),
        ]),
    ).toThrow(
      "Step 'fix' has resumeFrom: 'review', which comes after it (a step can only continue the session of an " +
        'earlier step). Earlier steps: none.',
    );
    expect(
      () => new Workflow([step('survey', worker, 'look'), step('fix', worker, 'fix', { resumeFrom: 'fix' })]),
    ).toThrow("Step 'fix' has resumeFrom: 'fix', which is the step itself. Earlier steps: 'survey'.");
  });

  test('no suggestion when nothing is near; case slips are suggested', () => {
    expect(
      () =>
        new Workflow([step('survey', worker, 'look'), step('fix', worker, 'fix', { resumeFrom: 'deploy' })]),
    ).toThrow(/^Step 'fix' has resumeFrom: 'deploy', which is not a step of this workflow\. Earlier steps/);
    expect(
      () =>
        new Workflow([step('survey', worker, 'look'), step('fix', worker, 'fix', { resumeFrom: 'Survey' })]),
    ).toThrow("Did you mean 'survey'?");
  });

  test('an earlier step is accepted, forked or not', () => {
    const flow = new Workflow([
      step('survey', worker, 'look'),
      step('fix', worker, 'fix', { resumeFrom: 'survey' }),
      step('branch', worker, 'branch', { resumeFrom: 'survey', fork: true }),
    ]);
    expect(flow.steps.map((candidate) => candidate.resumeFrom)).toEqual([null, 'survey', 'survey']);
  });
});
