// The lifecycle shared by the runtime factories of tests: a fresh temporary folder per test, and every
// Runtime made in it closed and the folder removed after the test.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { Runtime } from '../../src/runtime/runtime.js';

/** The current test's workspace, and the hand-over of a Runtime to close after the test. */
export interface TemporaryRuntimes {
  /** `<fresh temporary folder>/ws` (not created: the Runtime creates it). */
  workspace(): string;
  /** Closes `runtime` after the current test; returns it. */
  keep<R extends Runtime>(runtime: R): R;
}

/** Registers the temporary folder's lifecycle in the calling test file (call it at the file's top level). */
export function temporaryRuntimes(prefix: string): TemporaryRuntimes {
  let dir = '';
  const runtimes: Runtime[] = [];
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  });
  afterEach(() => {
    for (const runtime of runtimes.splice(0)) void runtime.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    workspace: () => join(dir, 'ws'),
    keep: (runtime) => {
      runtimes.push(runtime);
      return runtime;
    },
  };
}
