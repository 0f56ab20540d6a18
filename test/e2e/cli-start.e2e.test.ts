// What `flower --version` and `flower --help` load: the built CLI (`node dist/cli/main.js`) is run with a
// module hook that writes down every module Node loads, and none of the runtime, the Agent SDK, zod or the
// renderer's width tables may be among them — start-up time is paid per module, and these answers need none.
// The CLI is an esbuild bundle (scripts/bundle-cli.mjs): a loaded file of it (main.js or one of its
// `bundle-*` chunks) counts as every source module it holds, which esbuild marks with a `// src/…` or
// `// node_modules/…` line; a file of tsc's dist/ counts as its source module, `dist/x.js` as `src/x`.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  scriptTurns,
  text,
  toolUse,
} from '../../src/testing/index.js';

const root = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const cli = join(root, 'dist', 'cli', 'main.js');

/** Modules that only running an agent needs; loading any of them for `--version`/`--help` is the regression. */
const RUNTIME_MODULES = [
  'src/runtime/',
  'src/agent/',
  'src/session/',
  'src/workflow/',
  'src/cli/commands/',
  'node_modules/@anthropic-ai/',
  'node_modules/zod/',
  'node_modules/string-width/',
  // Drawing the model's Markdown is the renderer's work, only when a run shows events on a terminal.
  'node_modules/marked/',
  'node_modules/better-sqlite3/',
  'node_modules/@clack/',
  // Reading the .env chain is work only a command needs.
  'src/config/load-dotenv',
];

const distUrl = pathToFileURL(join(root, 'dist')).href + '/';
const bundleFile = /\/dist\/cli\/(?:main|bundle-[\w-]+)\.js$/;

/** The source modules one loaded file stands for (see the top of this file); empty for a built-in. */
function sourceModules(url: string): string[] {
  if (bundleFile.test(url)) {
    const code = readFileSync(fileURLToPath(url), 'utf8');
    return [...code.matchAll(/^\/\/ ((?:src|node_modules)\/\S+)$/gm)].map((match) => match[1] ?? '');
  }
  if (url.startsWith(distUrl)) return [`src/${url.slice(distUrl.length).replace(/\.js$/, '')}`];
  const inModules = url.indexOf('/node_modules/');
  return inModules < 0 ? [] : [url.slice(inModules + 1)];
}

let scratch: string | null = null;

afterEach(() => {
  if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  scratch = null;
});

/**
 * Runs the built CLI with `args` and resolves to its stdout and the source modules it loaded (see above). By
 * default in an empty temp folder as HOME and cwd; `where` gives another environment and folder.
 */
async function loadedBy(
  args: string[],
  where?: { env: Record<string, string>; cwd: string },
): Promise<{ stdout: string; exitCode: number; loaded: string[] }> {
  scratch = mkdtempSync(join(tmpdir(), 'flower-cli-start-'));
  const log = join(scratch, 'loaded.txt');
  const hooks = join(scratch, 'hooks.mjs');
  // The load hook runs for every ES module and for the CommonJS entry points ESM imports.
  writeFileSync(
    hooks,
    [
      "import { appendFileSync } from 'node:fs';",
      'export async function load(url, context, next) {',
      `  appendFileSync(${JSON.stringify(log)}, url + '\\n');`,
      '  return next(url, context);',
      '}',
    ].join('\n'),
  );
  const register = join(scratch, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const run = await execa('node', ['--import', pathToFileURL(register).href, cli, ...args], {
    cwd: where?.cwd ?? scratch,
    env: where?.env ?? { HOME: scratch, XDG_CONFIG_HOME: join(scratch, 'config'), FLOWER_NO_UPDATE: '1' },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
  return {
    stdout: String(run.stdout),
    exitCode: run.exitCode ?? -1,
    loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean).flatMap(sourceModules),
  };
}

/** What {@link hookedOnce} hands its check: the run, the lines its hook wrote in order, and the workspace. */
interface HookedRun {
  run: { exitCode?: number | undefined; stdout: unknown; stderr: unknown };
  lines: string[];
  workspace: string;
}

/**
 * Runs the built CLI's `flower <args>` against a fake API scripted with `turns`, with a preload hook whose
 * source `hook` builds from the order file's path and the workspace (the hook appends a line there for each
 * thing it sees), and hands the outcome to `check` while the workspace still exists.
 */
async function hookedOnce(
  options: {
    turns: Parameters<typeof scriptTurns>[0];
    args: string[];
    hook: (order: string, workspace: string) => string[];
  },
  check: (outcome: HookedRun) => void,
): Promise<void> {
  const server = await FakeAnthropicServer.start(scriptTurns(options.turns));
  const environment = await scratchEnvironment({ baseUrl: server.url });
  scratch = mkdtempSync(join(tmpdir(), 'flower-cli-start-'));
  const order = join(scratch, 'order.txt');
  const hook = join(scratch, 'hook.mjs');
  writeFileSync(hook, options.hook(order, environment.workspace).join('\n'));
  try {
    const run = await execa('node', ['--import', pathToFileURL(hook).href, cli, ...options.args], {
      cwd: environment.workspace,
      env: { ...environment.env, FLOWER_NO_UPDATE: '1' },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    const lines = existsSync(order) ? readFileSync(order, 'utf8').split('\n').filter(Boolean) : [];
    check({ run, lines, workspace: environment.workspace });
  } finally {
    await server.close();
    await environment.cleanup();
  }
}

/** Hook source: `note(line)` appends one line to the order file. */
const noteLine = (order: string): string =>
  `const note = (line) => appendFileSync(${JSON.stringify(order)}, line + '\\n');`;

describe('CLI start-up (built CLI)', () => {
  test.each([[['--version']], [['--help']], [['once', '--help']], [['go', '--help']]])(
    'flower %j loads the parser only, no runtime, SDK, zod or renderer',
    async (args) => {
      const { stdout, exitCode, loaded } = await loadedBy(args);
      expect(exitCode).toBe(0);
      expect(stdout).toMatch(args[0] === '--version' ? /^\d+\.\d+\.\d+/ : /Usage: flower/);
      // The hook saw the CLI itself: an empty list would pass the check below for the wrong reason.
      expect(loaded).toContain('src/cli/program.ts');
      expect(loaded.filter((url) => RUNTIME_MODULES.some((part) => url.includes(part)))).toEqual([]);
    },
  );

  test('flower once without a terminal runs its agent without loading the setup dialogue', async () => {
    const server = await FakeAnthropicServer.start(
      scriptTurns({ main: [message([text('Nothing to do.')])] }),
    );
    const environment = await scratchEnvironment({ baseUrl: server.url });
    try {
      const { stdout, exitCode, loaded } = await loadedBy(['once', 'say hi'], {
        env: { ...environment.env, FLOWER_NO_UPDATE: '1' },
        cwd: environment.workspace,
      });
      expect(exitCode).toBe(0);
      expect(stdout).toBe('Nothing to do.');
      // The run itself was loaded: the check below would otherwise pass for the wrong reason.
      expect(loaded).toContain('src/runtime/runtime.ts');
      // Setup opens only on a terminal or after a rejected probe; its prompt library is sizeable.
      const dialogue = ['src/cli/commands/setup', 'node_modules/@clack/'];
      expect(loaded.filter((url) => dialogue.some((part) => url.includes(part)))).toEqual([]);
    } finally {
      await server.close();
      await environment.cleanup();
    }
  });

  test('the bundle holds string-width and marked in initialisers that run on first use', () => {
    const folder = join(root, 'dist', 'cli');
    const code = readdirSync(folder)
      .filter((name) => /^(?:main|bundle-[\w-]+)\.js$/.test(name))
      .map((name) => readFileSync(join(folder, name), 'utf8'))
      .join('\n');
    for (const module of ['node_modules/string-width/index.js', 'node_modules/marked/lib/marked.esm.js']) {
      // Bundled at all, then wrapped: esbuild keys a lazy initialiser by the module's path.
      expect(code).toContain(`// ${module}\n`);
      expect(code).toContain(`${JSON.stringify(module)}() {`);
    }
  });

  test('flower once starts Claude Code before it builds a Unicode segmenter (string-width loads after)', async () => {
    // Constructing a segmenter loads ICU's break data, and string-width builds one when it is evaluated: both
    // belong after the spawn (scripts/bundle-cli.mjs defers string-width), where Claude Code's own start-up
    // hides them. The hook writes down, in order, each child process and each segmenter.
    await hookedOnce(
      {
        turns: { main: [message([text('Nothing to do.')])] },
        args: ['once', 'say hi'],
        hook: (order) => [
          "import childProcess from 'node:child_process';",
          "import { appendFileSync } from 'node:fs';",
          "import { syncBuiltinESMExports } from 'node:module';",
          noteLine(order),
          'const spawn = childProcess.spawn;',
          'childProcess.spawn = function spawnNoted(command, ...rest) {',
          "  note('spawn ' + command);",
          '  return spawn.call(this, command, ...rest);',
          '};',
          'syncBuiltinESMExports();',
          'const Segmenter = Intl.Segmenter;',
          'Intl.Segmenter = class extends Segmenter {',
          "  constructor(...values) { note('segmenter'); super(...values); }",
          '};',
        ],
      },
      ({ run, lines }) => {
        expect(run.exitCode).toBe(0);
        expect(String(run.stdout)).toBe('Nothing to do.');
        // flower starts Claude Code through setpriv (its process tie) or directly.
        const spawned = lines.findIndex((line) => /^spawn \S*(?:setpriv|claude)$/.test(line));
        expect(spawned).toBeGreaterThanOrEqual(0);
        expect(lines.slice(0, spawned).filter((line) => line === 'segmenter')).toEqual([]);
      },
    );
  });

  test('flower once whose run prints only Latin text builds no Unicode segmenter at all', async () => {
    // A tool call, its output and the status lines (with their `·`) are Latin text: the renderer measures and
    // wraps it without string-width, whose first call builds a segmenter and Unicode-set regular expressions
    // while Claude Code waits for the answer to its tool hook (docs/decisions.md D231).
    await hookedOnce(
      {
        turns: {
          main: [
            message([toolUse('Bash', { command: 'echo café > made.txt', description: 'make it' })]),
            message([text('Created made.txt · café, ½ done.')]),
          ],
        },
        args: ['once', '-t', 'Bash', 'make the file'],
        hook: (order) => [
          "import { appendFileSync } from 'node:fs';",
          noteLine(order),
          "note('started');",
          'const Segmenter = Intl.Segmenter;',
          'Intl.Segmenter = class extends Segmenter {',
          "  constructor(...values) { note('segmenter'); super(...values); }",
          '};',
        ],
      },
      ({ run, lines, workspace }) => {
        expect(run.exitCode, String(run.stderr)).toBe(0);
        // The tool ran and the run drew its call, its answer and its status lines.
        expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('café\n');
        expect(String(run.stdout)).toContain('Created made.txt · café, ½ done.');
        expect(`${String(run.stdout)}\n${String(run.stderr)}`).toContain('echo café > made.txt');
        expect(lines).toEqual(['started']);
      },
    );
  });

  test('after Claude Code exits, flower once writes processes.json once: the ended child leaves with it', async () => {
    // Each durable write of a record file ends in a rename; after the child's exit, every one is on the way
    // to the process's own exit. The ended child's entry rides on the last write, the process leaving the
    // file, instead of a write of its own (docs/decisions.md D232).
    await hookedOnce(
      {
        turns: { main: [message([text('Nothing to do.')])] },
        args: ['once', 'say hi'],
        hook: (order) => [
          "import childProcess from 'node:child_process';",
          "import fs, { appendFileSync } from 'node:fs';",
          "import { syncBuiltinESMExports } from 'node:module';",
          noteLine(order),
          'const spawn = childProcess.spawn;',
          'childProcess.spawn = function spawnNoted(command, ...rest) {',
          '  const child = spawn.call(this, command, ...rest);',
          "  const name = String(command).split('/').pop();",
          "  note('spawn ' + name);",
          "  child.once('exit', () => note('exit ' + name));",
          '  return child;',
          '};',
          'const rename = fs.renameSync;',
          'fs.renameSync = function renameNoted(from, to, ...rest) {',
          "  note('write ' + String(to).split('/').pop());",
          '  return rename.call(this, from, to, ...rest);',
          '};',
          'syncBuiltinESMExports();',
        ],
      },
      ({ run, lines, workspace }) => {
        expect(run.exitCode, String(run.stderr)).toBe(0);
        const spawned = lines.findIndex((line) => /^spawn (?:setpriv|claude)$/.test(line));
        const exited = lines.indexOf(lines[spawned]?.replace('spawn', 'exit') ?? '');
        expect([spawned, exited].every((index) => index >= 0)).toBe(true);
        // Before the spawn: the process entered the file; after it: the child was recorded, then the session.
        const processes = (from: number, to: number): number =>
          lines.slice(from, to).filter((line) => line === 'write processes.json').length;
        expect(processes(0, spawned)).toBe(1);
        expect(processes(spawned, exited)).toBe(2);
        expect(processes(exited, lines.length)).toBe(1);
        const records = JSON.parse(
          readFileSync(join(workspace, 'runs', 'processes.json'), 'utf8'),
        ) as unknown[];
        expect(records).toEqual([]);
      },
    );
  });

  test('flower once starts Claude Code before it loads SQLite or opens its store', async () => {
    // Loading better-sqlite3's addon and preparing sessions.db belong after the spawn, where Claude Code's own
    // start-up hides them (docs/decisions.md D228). The hook writes down, in order, each native addon Node
    // loads and each child process, with whether the store's file existed when the child was started, and
    // whether the `bindings` package was asked to find the addon (docs/decisions.md D229).
    const storeOf = (workspace: string): string => join(workspace, 'runs', 'sessions.db');
    await hookedOnce(
      {
        turns: { main: [message([text('Nothing to do.')])] },
        args: ['once', 'say hi'],
        hook: (order, workspace) => [
          "import childProcess from 'node:child_process';",
          "import { appendFileSync, existsSync } from 'node:fs';",
          "import Module, { syncBuiltinESMExports } from 'node:module';",
          noteLine(order),
          'const load = Module._load;',
          'Module._load = function loadNoted(request, ...rest) {',
          "  if (request === 'bindings') note('require bindings');",
          '  return load.call(this, request, ...rest);',
          '};',
          'const spawn = childProcess.spawn;',
          'childProcess.spawn = function spawnNoted(command, ...rest) {',
          `  note('spawn ' + command + (existsSync(${JSON.stringify(storeOf(workspace))}) ? ' with sessions.db' : ''));`,
          '  return spawn.call(this, command, ...rest);',
          '};',
          'syncBuiltinESMExports();',
          'const dlopen = process.dlopen;',
          'process.dlopen = function dlopenNoted(module, filename, ...rest) {',
          "  note('addon ' + filename.split('/').pop());",
          '  return dlopen.call(this, module, filename, ...rest);',
          '};',
        ],
      },
      ({ run, lines, workspace }) => {
        expect(run.exitCode, String(run.stderr)).toBe(0);
        expect(String(run.stdout)).toBe('Nothing to do.');
        const spawned = lines.findIndex((line) => /^spawn \S*(?:setpriv|claude)\b/.test(line));
        expect(spawned).toBeGreaterThanOrEqual(0);
        expect(lines[spawned]).not.toContain('sessions.db');
        expect(lines.slice(0, spawned).filter((line) => line.startsWith('addon '))).toEqual([]);
        // The hook saw the addon load, after the spawn, and the run's transcript was stored.
        expect(lines.slice(spawned)).toContain('addon better_sqlite3.node');
        // Named by its path, the addon is loaded without the `bindings` package's search of a dozen places.
        expect(lines).not.toContain('require bindings');
        expect(existsSync(storeOf(workspace))).toBe(true);
      },
    );
  });
});
