// The package as a user installs it: `npm pack` of the built tree, unpacked into a scratch project's
// node_modules, imported by name. What Node sees at run time and what tsc sees in the shipped .d.ts files must
// both equal the pinned list in support/public-exports.ts (names and kinds), and the tarball must pass
// @arethetypeswrong/cli and publint — so a name dropped from src/index.ts, an internal helper exported by
// mistake, or an `exports` map that points at a missing file fails here rather than in a user's project.
// The same installed package is then read as a user reads it: `npx flower --version`, the README's and the
// docs' links followed inside it, every fenced TypeScript/JavaScript example type-checked against it, and the
// examples marked `test` run against the fake (support/doc-examples.ts) — packed and installed once.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  scriptTurns,
  text,
  toolUse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
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
import {
  docExamples,
  documentationPages,
  typeCheckExamples,
  writeExamples,
  type DocExample,
  type WrittenExample,
} from './support/doc-examples.js';

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

describe('the installed package as a user reads it (e2e)', () => {
  let root: string;
  let examples: DocExample[];
  let written: WrittenExample[];

  beforeAll(() => {
    root = join(installed.project, 'node_modules', 'flower-agent');
    examples = docExamples(root, documentationPages(root));
    written = writeExamples(join(installed.project, 'examples'), examples);
  });

  test('npx flower --version runs the installed command and prints the packed version', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const run = await execa('npx', ['--no-install', 'flower', '--version'], {
      cwd: installed.project,
      env: scratch.env,
      extendEnv: false,
    });
    expect(String(run.stdout).trim()).toBe(version);
  });

  test('the installed flower once runs an agent with a Bash call against the fake', async () => {
    // The command is a bundle (scripts/bundle-cli.mjs): its chunks, the packages it keeps external, the
    // plugin folder and the role prompts must all be found from node_modules/flower-agent, not the repository.
    const server = await FakeAnthropicServer.start(
      scriptTurns({
        main: [
          message([toolUse('Bash', { command: 'echo hello > made.txt', description: 'make it' })]),
          message([text('Created made.txt.')]),
        ],
      }),
    );
    const environment = await scratchEnvironment({ baseUrl: server.url });
    try {
      const flower = join(installed.project, 'node_modules', '.bin', 'flower');
      const run = await execa(flower, ['once', '-t', 'Bash', 'make the file'], {
        cwd: environment.workspace,
        env: { ...environment.env, FLOWER_NO_UPDATE: '1' },
        extendEnv: false,
        reject: false,
      });
      expect(run.exitCode, String(run.stderr)).toBe(0);
      expect(String(run.stdout)).toBe('Created made.txt.');
      expect(readFileSync(join(environment.workspace, 'made.txt'), 'utf8')).toBe('hello\n');
      expect(server.unexpectedCalls).toEqual([]);
    } finally {
      await server.close();
      await environment.cleanup();
    }
  }, 60_000);

  test('the tarball holds no source maps, no tests and no test data', async () => {
    const listing = await execa('tar', ['-tzf', installed.tarball]);
    const files = String(listing.stdout).split('\n');
    expect(files).toContain('package/docs/testing.md');
    expect(files.filter((file) => /\.map$|\.test\.|\/test\/|corpus|fixture/.test(file))).toEqual([]);
  });

  test('every relative link of the README and the docs resolves inside the installed package', () => {
    const dead: string[] = [];
    for (const page of documentationPages(root)) {
      const text = readFileSync(join(root, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(?:[a-z]+:|#)/i.test(target!)) continue;
        const path = resolve(dirname(join(root, page)), decodeURI(target!.split('#')[0]!));
        if (!existsSync(path)) dead.push(`${page}: ${target}`);
      }
    }
    expect(dead).toEqual([]);
  });

  test('every TypeScript and JavaScript example type-checks strictly; each fragment says why', () => {
    expect(examples.length).toBeGreaterThan(10);
    expect(
      examples.filter((example) => example.fragment === '').map(({ page, line }) => `${page}:${line}`),
    ).toEqual([]);
    expect(typeCheckExamples(installed.project, written)).toEqual([]);
  }, 120_000);

  test('the examples marked `test` pass under vitest against the fake, from the installed package', async () => {
    const tests = written.filter(({ example }) => example.test);
    expect(tests.map(({ example }) => example.page)).toEqual(
      expect.arrayContaining(['docs/testing.md', 'docs/session-stores.md']),
    );
    const report = join(installed.project, 'vitest-report.json');
    const run = await execa(
      'node',
      [
        join(installed.project, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--reporter=json',
        `--outputFile=${report}`,
        ...tests.map(({ path }) => path),
      ],
      { cwd: installed.project, env: scratch.env, extendEnv: false, reject: false },
    );
    const results = JSON.parse(readFileSync(report, 'utf8')) as {
      numFailedTests: number;
      testResults: Array<{ name: string; status: string; message: string }>;
    };
    const outcome = results.testResults.map(({ name, status, message }) => ({ name, status, message }));
    expect(outcome, `${run.stdout}\n${run.stderr}`).toEqual(
      tests.map(({ path }) => ({ name: path, status: 'passed', message: '' })),
    );
    expect(run.exitCode).toBe(0);
  }, 180_000);
});
