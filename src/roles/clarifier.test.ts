import { describe, expect, test } from 'vitest';
import type { McpServerConfig } from '../agent/claude-sdk.js';
import type { ChannelLike } from './channel-like.js';
import { clarify, maxTurnsLimitsQuestions } from './clarifier.js';

const server = { type: 'sdk', name: 'human' } as unknown as McpServerConfig;
const channel: ChannelLike = { mcpServers: () => ({ human: server }) };

describe('clarify', () => {
  test('can ask and read, but not write, run, delegate or use the inbox', () => {
    const spec = clarify('clarify', channel);
    expect(spec.allowedTools).toEqual(['mcp__human__ask', 'Read', 'Glob', 'Grep', 'WebFetch', 'WebSearch']);
    expect(spec.tools).toEqual(spec.allowedTools);
    for (const tool of ['Write', 'Edit', 'Bash', 'Agent', 'TaskCreate', 'mcp__human__inbox']) {
      expect(spec.allowedTools).not.toContain(tool);
    }
    // The server it mounts for ask would offer the inbox too.
    expect(spec.disallowedTools).toEqual(['mcp__human__inbox']);
  });

  test('only asks with canRead false', () => {
    const spec = clarify('clarify', channel, { canRead: false });
    expect(spec.allowedTools).toEqual(['mcp__human__ask']);
    expect(spec.tools).toEqual(['mcp__human__ask']);
  });

  test('runs without a workbench block or delegation, in dontAsk mode, with unbounded turns', () => {
    expect(clarify('clarify', channel)).toMatchObject({
      workbench: false,
      delegateOnly: false,
      permissionMode: 'dontAsk',
      maxTurns: null,
      mcpServers: { human: server },
      agents: null,
    });
  });

  test('passes a turn cap, model and effort through', () => {
    expect(clarify('clarify', channel, { maxTurns: 60, model: 'opus', effort: 'low' })).toMatchObject({
      maxTurns: 60,
      model: 'opus',
      effort: 'low',
    });
  });

  test('instructs: no work, questions that change the approach, one at a time, options, no limit', () => {
    const text = clarify('clarify', channel).instructions;
    expect(text).toContain('You do no work');
    expect(text).toContain('that is intentional');
    expect(text).toContain('only questions whose answer changes the approach');
    expect(text).toContain('One question at a time');
    expect(text).toContain('Give `options`');
    expect(text).toContain('There is no limit on the number of questions');
    expect(text).toContain('There is no shell');
  });

  test('instructs: an absent human means decide and record the assumption', () => {
    const text = clarify('clarify', channel).instructions;
    expect(text).toContain('The human may be absent');
    expect(text).toContain('record the question and your assumption under Unknowns and assumptions');
    expect(text).toContain('Do not ask it again');
  });

  test('asks for exactly the four brief sections, boundaries kept apart from criteria', () => {
    const text = clarify('clarify', channel).instructions;
    for (const heading of [
      '## Goal',
      '## Acceptance criteria',
      '## Boundaries',
      '## Unknowns and assumptions',
    ]) {
      expect(text).toContain(`\n${heading}\n`);
    }
    expect(text).toContain('"run X → see Y"');
    expect(text).toContain('not what the deliverable must satisfy');
    expect(text).toContain('No code, no implementation plan, no pasted file contents');
  });

  test('does not point to the repository when it cannot read, and appends the caller’s instructions', () => {
    const text = clarify('clarify', channel, { canRead: false, instructions: 'Ask in French.' }).instructions;
    expect(text).not.toContain('Glob');
    expect(text).toContain('You cannot read the repository here');
    expect(text.endsWith('\n\nAsk in French.')).toBe(true);
  });
});

describe('maxTurnsLimitsQuestions', () => {
  test('is false without a turn cap', () => {
    expect(maxTurnsLimitsQuestions(null, null)).toBe(false);
    expect(maxTurnsLimitsQuestions(undefined, 3)).toBe(false);
  });

  test('is true for any turn cap while questions are unlimited', () => {
    expect(maxTurnsLimitsQuestions(16, null)).toBe(true);
    expect(maxTurnsLimitsQuestions(500, undefined)).toBe(true);
  });

  test('is true when the cap leaves no room for every allowed question plus reading and the brief', () => {
    expect(maxTurnsLimitsQuestions(16, 12)).toBe(false);
    expect(maxTurnsLimitsQuestions(15, 12)).toBe(true);
    expect(maxTurnsLimitsQuestions(4, 0)).toBe(false);
  });
});
