import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { fillPlaceholders, loadPrompt } from './load-prompt.js';

describe('fillPlaceholders', () => {
  test('replaces every placeholder, spaces inside the braces allowed', () => {
    expect(fillPlaceholders('Put it in {{artifacts}}, then {{ artifacts }}.', { artifacts: 'out/' })).toBe(
      'Put it in out/, then out/.',
    );
  });

  test('throws a clear error for a placeholder it has no value for', () => {
    expect(() => fillPlaceholders('See {{artifcats}}.', { artifacts: 'out/' }, 'prompts/x.md')).toThrow(
      'prompts/x.md: unknown placeholder {{artifcats}} (known: artifacts).',
    );
  });

  test('leaves text without placeholders alone and ignores unused values', () => {
    expect(fillPlaceholders('Plain { text }.', { unused: 'x' })).toBe('Plain { text }.');
  });
});

describe('loadPrompt', () => {
  test('reads a rule text beside the module and fills it', () => {
    const text = loadPrompt('oracle', {
      workbench: 'WB/',
      notes: 'WB/notes/',
      artifacts: 'WB/artifacts/',
      scripts: 'WB/scripts/',
    });
    expect(text).toContain('`WB/notes/`');
    expect(text).not.toContain('{{');
    expect(text).toBe(text.trimEnd());
  });

  test('names the file in the error for an unfilled placeholder', () => {
    expect(() => loadPrompt('oracle')).toThrow(/prompts\/oracle\.md: unknown placeholder \{\{workbench\}\}/);
  });

  test('refuses a missing file and a name that is not a plain file name', () => {
    expect(() => loadPrompt('no-such-role')).toThrow(/prompts\/no-such-role\.md is missing/);
    expect(() => loadPrompt('../load-prompt')).toThrow(/Prompt name '..\/load-prompt' is invalid/);
  });

  test('finds every rule text file, and none of them hard-codes the workbench location (decisions.md D113)', () => {
    const folder = new URL('../roles/prompts/', import.meta.url);
    const files = readdirSync(folder).filter((name) => name.endsWith('.md'));
    expect(files.sort()).toEqual([
      'ask-declined.md',
      'ask-invalid.md',
      'ask-over-budget.md',
      'ask-timeout.md',
      'ask-tool.md',
      'clarifier.md',
      'coder-description.md',
      'coder.md',
      'coordinator-channel.md',
      'coordinator-glance.md',
      'coordinator-no-glance.md',
      'coordinator-no-reading.md',
      'coordinator-reading.md',
      'coordinator.md',
      'delegate-dispatch.md',
      'delegate-glance-only.md',
      'delegate-hands-on.md',
      'delegate-unavailable.md',
      'inbox-empty.md',
      'inbox-tool.md',
      'judge.md',
      'oracle.md',
      'starter-acceptance.md',
      'starter-goal-rederived.md',
      'starter-wake.md',
      'starter-work.md',
      'worker.md',
    ]);
    for (const file of files) {
      expect(readFileSync(new URL(file, folder), 'utf8'), file).not.toContain('.flower');
    }
  });
});
