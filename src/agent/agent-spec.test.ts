import { describe, expect, test } from 'vitest';
import { agentSpec } from './agent-spec.js';

describe('agentSpec', () => {
  test('fills the defaults', () => {
    const spec = agentSpec({ name: 'ad-hoc', instructions: '' });
    expect(spec).toMatchObject({
      allowedTools: ['Read', 'Glob', 'Grep'],
      disallowedTools: [],
      tools: null,
      maxBudgetUsd: null,
      permissionMode: 'default',
      workbench: true,
      delegateOnly: false,
      backgroundAgents: false,
    });
  });

  test('returns a frozen value that keeps the fields given', () => {
    const spec = agentSpec({
      name: 'x',
      instructions: 'be brief',
      allowedTools: ['Bash'],
      maxBudgetUsd: 1.5,
    });
    expect(spec.allowedTools).toEqual(['Bash']);
    expect(spec.maxBudgetUsd).toBe(1.5);
    expect(Object.isFrozen(spec)).toBe(true);
  });
});
