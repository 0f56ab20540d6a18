import { describe, expect, test } from 'vitest';
import { wantsIsolation } from '../agent/isolation-mark.js';
import { WORKER_RULES, WORKER_TOOLS, worker } from './worker.js';

describe('WORKER_RULES', () => {
  test('asks for the four labelled parts of a report', () => {
    for (const part of ['**Conclusion**', '**Evidence**', '**Output**', '**Unverified / risks**']) {
      expect(WORKER_RULES).toContain(part);
    }
    expect(WORKER_RULES).toContain('At most 5 items');
    expect(WORKER_RULES).toContain('Never "should be fine"');
  });

  test('caps the report at 30 lines and forbids pasted contents, output, logs and diffs', () => {
    expect(WORKER_RULES).toContain('more than 30 lines');
    expect(WORKER_RULES).toContain('paste file contents, command output, logs or raw diffs');
    expect(WORKER_RULES).toContain('narrate trial and error');
    expect(WORKER_RULES).toContain('Only your final message reaches the coordinator');
  });

  test('sends the worker to the scripts folder first and asks for a desc: first line', () => {
    expect(WORKER_RULES).toContain('Check its scripts folder first');
    expect(WORKER_RULES).toContain('`desc:`');
  });

  test('names no workbench path: the coordinator relays it (decisions.md D113)', () => {
    expect(WORKER_RULES).not.toContain('.flower');
    expect(WORKER_RULES).not.toContain('{{');
  });
});

describe('worker', () => {
  test('appends the rules to the role prompt and gives the full tool set on the main model', () => {
    const role = worker(
      'Writes code and tests; gets implementation work.',
      'Implement; verify after every change.',
    );
    expect(role).toEqual({
      description: 'Writes code and tests; gets implementation work.',
      prompt: `Implement; verify after every change.\n\n${WORKER_RULES}`,
      tools: ['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep', 'WebFetch', 'WebSearch'],
      model: 'inherit',
    });
    expect(role.tools).not.toBe(WORKER_TOOLS);
  });

  test('leaves the rules out without discipline', () => {
    expect(worker('Searches.', 'Search the web.', { discipline: false }).prompt).toBe('Search the web.');
  });

  test('uses the rules alone for an empty prompt', () => {
    expect(worker('Writes code.', '  ').prompt).toBe(WORKER_RULES);
  });

  test('passes the other options through, copying arrays', () => {
    const skills = ['pdf'];
    const role = worker('Reads papers.', 'Read.', {
      tools: ['Read'],
      model: 'sonnet',
      effort: 'high',
      maxTurns: 40,
      permissionMode: 'acceptEdits',
      skills,
    });
    expect(role).toMatchObject({
      tools: ['Read'],
      model: 'sonnet',
      effort: 'high',
      maxTurns: 40,
      permissionMode: 'acceptEdits',
      skills: ['pdf'],
    });
    expect(role.skills).not.toBe(skills);
  });

  test('marks the role for worktree isolation with isolate, outside the SDK object', () => {
    const role = worker('Writes code.', 'Implement.', { isolate: true });
    expect(wantsIsolation(role)).toBe(true);
    expect(Object.keys(role)).toEqual(['description', 'prompt', 'tools', 'model']);
    expect(wantsIsolation(worker('Writes code.', 'Implement.'))).toBe(false);
  });

  test('refuses an empty description: the coordinator picks a worker by it', () => {
    expect(() => worker(' ', 'Implement.')).toThrow(/description is empty/);
  });

  test('takes one object as well: the same definition as the positional form', () => {
    const fromObject = worker({
      description: 'Writes code.',
      prompt: 'Implement.',
      tools: ['Read'],
      isolate: true,
    });
    expect(fromObject).toEqual(worker('Writes code.', 'Implement.', { tools: ['Read'], isolate: true }));
    expect(fromObject.prompt).toMatch(/^Implement\./);
    expect(wantsIsolation(fromObject)).toBe(true);
  });
});
