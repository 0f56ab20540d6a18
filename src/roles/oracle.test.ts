import { describe, expect, test } from 'vitest';
import { oracle } from './oracle.js';
import type { WorkbenchLike } from '../workbench/workbench-places.js';

const outside: WorkbenchLike = {
  root: '/data/runs/workbench',
  artifacts: '/data/runs/workbench/artifacts',
  scripts: '/data/runs/workbench/scripts',
  notes: '/data/runs/workbench/notes',
  display: (path) => path,
};

describe('oracle', () => {
  test('reads only, with the workbench block, a small budget and no channel', () => {
    expect(oracle()).toMatchObject({
      name: 'aside',
      allowedTools: ['Read', 'Glob', 'Grep'],
      tools: ['Read', 'Glob', 'Grep'],
      workbench: true,
      delegateOnly: false,
      maxTurns: 12,
      maxBudgetUsd: 0.5,
      permissionMode: 'dontAsk',
      mcpServers: {},
    });
  });

  test('takes a name and limits', () => {
    expect(oracle('ask', { maxTurns: 4, maxBudgetUsd: 0.1 })).toMatchObject({
      name: 'ask',
      maxTurns: 4,
      maxBudgetUsd: 0.1,
    });
  });

  test('instructs: beside a running run, read-only, discarded, look first, say what is missing, be short', () => {
    const text = oracle().instructions;
    expect(text).toContain('A run is still going on beside you');
    expect(text).toContain('you do not interrupt it');
    expect(text).toContain('You can only read; that is by design');
    expect(text).toContain('is then discarded: it cannot steer the run');
    expect(text).toContain('Look before you answer, and cite the files you read');
    expect(text).toContain('say what is missing');
    expect(text).toContain('Do not hedge');
    expect(text).toContain('A few lines');
    expect(text).toContain('Answer only the question');
  });

  test('names the given workbench’s paths, not the default (decisions.md D113)', () => {
    const text = oracle('aside', { workbench: outside, instructions: 'Mind the cost.' }).instructions;
    expect(text).toContain('`/data/runs/workbench/notes/`');
    expect(text).not.toContain('.flower');
    expect(text.endsWith('\n\nMind the cost.')).toBe(true);
  });
});
