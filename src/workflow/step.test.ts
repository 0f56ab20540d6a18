import { describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { checkStep, step, type OnFail, type Step } from './step.js';

const spec = agentSpec({ name: 'worker', instructions: 'work' });

describe('step', () => {
  test('fills in the defaults', () => {
    expect(step('work', spec, 'go')).toEqual({
      name: 'work',
      spec,
      prompt: 'go',
      resumeFrom: null,
      fork: false,
      retries: 0,
      gate: null,
      onFail: 'stop',
      when: null,
      onReject: null,
      resumePrompt: null,
      reduce: null,
      verbatim: false,
    });
  });

  test('takes extra options, but never lets them replace the name, spec or prompt', () => {
    const other = agentSpec({ name: 'other', instructions: 'x' });
    const built = step('work', spec, 'go', {
      retries: 2,
      onFail: 'continue',
      name: 'renamed',
      spec: other,
      prompt: 'other',
    });
    expect(built).toMatchObject({ name: 'work', spec, prompt: 'go', retries: 2, onFail: 'continue' });
  });

  test.each([
    ['', 'A workflow step needs a non-empty name.'],
    ['_brief', "may not begin with '_'"],
    ['work#2', "contain '#' or '/'"],
    ['work/verdict', "contain '#' or '/'"],
  ])('refuses the name %j', (name, message) => {
    expect(() => step(name, spec, 'go')).toThrow(message);
  });

  test.each<[Partial<Step>, string]>([
    [{ retries: -1 }, "Step 'work': retries must be a whole number of 0 or more (got -1)."],
    [{ retries: 1.5 }, 'retries must be a whole number'],
    [{ onFail: 'ignore' as OnFail }, `onFail must be 'stop', 'skip' or 'continue' (got "ignore")`],
  ])('refuses %j', (extra, message) => {
    expect(() => step('work', spec, 'go', extra)).toThrow(message);
  });

  test('refuses a step without a spec or a usable prompt', () => {
    expect(() => checkStep({ name: 'work', prompt: 'go' } as unknown as Step)).toThrow(
      "Step 'work' has no agent spec",
    );
    expect(() => checkStep({ name: 'work', spec, prompt: 42 } as unknown as Step)).toThrow(
      'prompt must be a string or a function',
    );
  });

  test('takes one object as well: the same step as the positional form', () => {
    const gate = (): boolean => true;
    const fromObject = step({ name: 'work', spec, prompt: 'go', retries: 2, gate, onFail: 'skip' });
    expect(fromObject).toEqual(step('work', spec, 'go', { retries: 2, gate, onFail: 'skip' }));
    expect(fromObject).toMatchObject({ name: 'work', spec, prompt: 'go', retries: 2, onFail: 'skip' });
  });

  test('checks the object form like the positional one', () => {
    expect(() => step({ name: '', spec, prompt: 'go' })).toThrow('A workflow step needs a non-empty name.');
  });
});
