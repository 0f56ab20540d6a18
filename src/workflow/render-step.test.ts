import { describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { renderStep } from './render-step.js';
import { step } from './step.js';

const spec = agentSpec({ name: 'worker', instructions: 'work' });

describe('renderStep', () => {
  test('returns a string prompt as written', async () => {
    expect(await renderStep(step('work', spec, 'do {this}'), { this: 'x' })).toBe('do {this}');
  });

  test('calls a prompt function with the context and awaits it', async () => {
    const s = step('work', spec, (ctx) => Promise.resolve(`brief: ${String(ctx['clarify'])}`));
    expect(await renderStep(s, { clarify: 'the brief' })).toBe('brief: the brief');
  });

  test('uses resumePrompt only when resuming', async () => {
    const s = step('work', spec, 'start', { resumePrompt: (ctx) => `continue ${String(ctx['n'])}` });
    expect(await renderStep(s, { n: 2 })).toBe('start');
    expect(await renderStep(s, { n: 2 }, { resuming: true })).toBe('continue 2');
    expect(await renderStep(step('work', spec, 'start'), {}, { resuming: true })).toBe('start');
  });

  test('refuses a prompt function that returns something else than a string', async () => {
    const s = step('work', spec, () => undefined as unknown as string);
    await expect(renderStep(s, {})).rejects.toThrow(
      "Step 'work': its prompt function returned undefined, not a string.",
    );
  });
});
