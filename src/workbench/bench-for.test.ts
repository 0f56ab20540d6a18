import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { benchFor } from './bench-for.js';

describe('benchFor', () => {
  test('places the workbench by the one location rule without creating it', () => {
    const workspace = join('/nonexistent-flower-test', 'app');
    expect(benchFor(workspace).root).toBe(join(workspace, '.flower'));
    const isolated = benchFor(workspace, { isolate: true });
    expect(isolated.root).toBe(join('/nonexistent-flower-test', '.flower-app'));
    expect(isolated.external).toBe(true);
    const inRunDir = benchFor(workspace, { runDir: join(workspace, 'runs') });
    expect(inRunDir.root).toBe(join(workspace, 'runs', 'workbench'));
    expect(inRunDir.external).toBe(false);
    expect(existsSync('/nonexistent-flower-test')).toBe(false);
  });
});
