import { describe, expect, test } from 'vitest';
import { renderWorkbenchBlock } from './workbench-block.js';
import type { BlockSource } from './workbench-block.js';
import type { WorkbenchEntry } from './workbench-index.js';

function entry(name: string, description: string | null = null): WorkbenchEntry {
  return { path: `/ws/.flower/${name}`, name, size: 10, description };
}

function source(overrides: Partial<BlockSource> = {}): BlockSource {
  return {
    root: '/ws/.flower',
    external: false,
    sections: [
      {
        title: 'Reusable scripts',
        directory: '/ws/.flower/scripts',
        entries: [entry('scripts/a.sh', 'does a')],
      },
      { title: 'Artifacts', directory: '/ws/.flower/artifacts', entries: [] },
      { title: 'Decision records', directory: '/ws/.flower/notes', entries: [entry('notes/x.md')] },
    ],
    maxEntries: 40,
    scripts: '/ws/.flower/scripts',
    artifacts: '/ws/.flower/artifacts',
    notes: '/ws/.flower/notes',
    display: (path) => path.replace(/^\/ws\//, ''),
    ...overrides,
  };
}

describe('renderWorkbenchBlock', () => {
  test('renders the heading, what exists, and the three rules', () => {
    expect(renderWorkbenchBlock(source())).toBe(
      [
        '## Workbench: `.flower/`',
        '',
        'Use what exists here; do not rewrite what is already there.',
        '',
        'Reusable scripts in `.flower/scripts/` (1):',
        '- `.flower/scripts/a.sh` — does a',
        'Artifacts in `.flower/artifacts/`: (currently empty)',
        'Decision records in `.flower/notes/` (1):',
        '- `.flower/notes/x.md`',
        '',
        'Rules:',
        '1. A script you run a second time goes to `.flower/scripts/` under a descriptive name, with a ' +
          '`desc:` line at the top.',
        '2. Output over 2000 characters goes to `.flower/artifacts/`; in the conversation give only its path ' +
          'and your conclusion.',
        '3. Each decision, with its reasons, goes to `.flower/notes/`, one file per decision.',
      ].join('\n'),
    );
  });

  test('notes an external workbench', () => {
    const block = renderWorkbenchBlock(source({ external: true, display: (path) => path }));
    expect(block.split('\n').slice(0, 3)).toEqual([
      '## Workbench: `/ws/.flower/`',
      '',
      'It lives outside the repository on purpose, so that every worktree shares it: always use the absolute ' +
        'paths shown here.',
    ]);
  });

  test('shows at most maxEntries per section, then how many more', () => {
    const entries = Array.from({ length: 45 }, (_, index) =>
      entry(`scripts/s${String(index).padStart(2, '0')}.sh`),
    );
    const block = renderWorkbenchBlock(
      source({ sections: [{ title: 'Reusable scripts', directory: '/ws/.flower/scripts', entries }] }),
    );
    expect(block).toContain('Reusable scripts in `.flower/scripts/` (45):');
    expect(block).toContain('- `.flower/scripts/s39.sh`\n- …5 more, list the directory');
    expect(block).not.toContain('s40.sh');
  });
});
