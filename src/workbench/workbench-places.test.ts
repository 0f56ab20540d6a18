import { describe, expect, test } from 'vitest';
import { workbenchPlaces, type WorkbenchLike } from './workbench-places.js';

/** An outside workbench (`-W`), shown with absolute paths. */
const OUTSIDE_WORKBENCH: WorkbenchLike = {
  root: '/data/runs/workbench',
  artifacts: '/data/runs/workbench/artifacts',
  scripts: '/data/runs/workbench/scripts',
  notes: '/data/runs/workbench/notes',
  display: (path) => path,
};

describe('workbenchPlaces', () => {
  test('names the default location, relative to the workspace, when there is no workbench', () => {
    expect(workbenchPlaces()).toEqual({
      workbench: '.flower/',
      artifacts: '.flower/artifacts/',
      scripts: '.flower/scripts/',
      notes: '.flower/notes/',
    });
    expect(workbenchPlaces(null)).toEqual(workbenchPlaces());
  });

  test('renders the paths of a given workbench as it displays them, folders ending in a slash', () => {
    expect(workbenchPlaces(OUTSIDE_WORKBENCH)).toEqual({
      workbench: '/data/runs/workbench/',
      artifacts: '/data/runs/workbench/artifacts/',
      scripts: '/data/runs/workbench/scripts/',
      notes: '/data/runs/workbench/notes/',
    });
  });

  test('uses the display form, not the raw path', () => {
    const inside: WorkbenchLike = {
      ...OUTSIDE_WORKBENCH,
      display: (path) => path.replace('/data/runs/workbench', 'bench'),
    };
    expect(workbenchPlaces(inside).artifacts).toBe('bench/artifacts/');
  });
});
