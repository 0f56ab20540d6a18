import { describe, expect, test } from 'vitest';
import type { AgentDefinition } from './claude-sdk.js';
import { isolated, wantsIsolation } from './isolation-mark.js';

function definition(): AgentDefinition {
  return { description: 'Writes code.', prompt: 'Implement.', tools: ['Read', 'Write'] };
}

describe('isolated', () => {
  test('marks the definition and returns the same object', () => {
    const role = definition();
    expect(isolated(role)).toBe(role);
    expect(wantsIsolation(role)).toBe(true);
  });

  test('adds no key to the SDK object, so nothing leaks into the options sent to Claude Code', () => {
    const role = isolated(definition());
    expect(JSON.stringify(role)).toBe(JSON.stringify(definition()));
    expect(Object.keys(role)).toEqual(['description', 'prompt', 'tools']);
  });

  test('unmarks with flag false', () => {
    const role = isolated(definition());
    isolated(role, false);
    expect(wantsIsolation(role)).toBe(false);
  });

  test('leaves unmarked definitions unmarked', () => {
    expect(wantsIsolation(definition())).toBe(false);
  });

  test('does not survive a copy, as documented; isolated(copy, wantsIsolation(original)) carries it', () => {
    const original = isolated(definition());
    const copy = { ...original, maxTurns: 5 };
    expect(wantsIsolation(copy)).toBe(false);
    expect(wantsIsolation(isolated(copy, wantsIsolation(original)))).toBe(true);
  });
});
