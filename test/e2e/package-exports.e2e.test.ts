// The package as a user installs it: `npm pack` of the built tree, unpacked into a scratch project's
// node_modules, imported by name. What Node sees at run time and what tsc sees in the shipped .d.ts files must
// both equal the pinned list in support/public-exports.ts (names and kinds), and the tarball must pass
// @arethetypeswrong/cli and publint — so a name dropped from src/index.ts, an internal helper exported by
// mistake, or an `exports` map that points at a missing file fails here rather than in a user's project.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { scratchEnvironment, type ScratchEnvironment } from '../../src/testing/index.js';
import {
  compiledExports,
  ENTRY_POINTS,
  installPackedPackage,
  REPOSITORY_ROOT,
  runtimeExports,
  type ExportTable,
  type InstalledPackage,
} from './support/packed-package.js';
import { PUBLIC_EXPORTS } from './support/public-exports.js';

let scratch: ScratchEnvironment;
let installed: InstalledPackage;

beforeAll(async () => {
  scratch = await scratchEnvironment();
  installed = await installPackedPackage(scratch.dir);
}, 120_000);

afterAll(async () => {
  await scratch?.cleanup();
});

/** The pinned table without the names that exist only for tsc. */
function runtimeView(table: ExportTable): ExportTable {
  const view = {} as ExportTable;
  for (const entry of ENTRY_POINTS) {
    view[entry] = Object.fromEntries(Object.entries(table[entry]).filter(([, kind]) => kind !== 'type'));
  }
  return view;
}

describe('the packed flower-agent package (e2e)', () => {
  test('import * from each entry point gives exactly the pinned names, each of the pinned kind', async () => {
    const seen = await runtimeExports(installed.project, scratch.env);
    expect(seen).toEqual(runtimeView(PUBLIC_EXPORTS));
  });

  test('tsc against the installed .d.ts files sees exactly the pinned names and kinds, types included', () => {
    const compiled = compiledExports(installed.project, PUBLIC_EXPORTS);
    expect(compiled.diagnostics).toEqual([]);
    expect(compiled.exports).toEqual(PUBLIC_EXPORTS);
  }, 120_000);

  test('@arethetypeswrong/cli and publint find nothing wrong with the tarball', () => {
    // The same script `npm run check:package` runs, so CI and a person checking by hand use the same flags.
    const run = spawnSync(
      'node',
      [join(REPOSITORY_ROOT, 'scripts', 'check-package.mjs'), installed.tarball],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  }, 120_000);
});
