// CLI start-up benchmark, every figure against a baseline measured in the same run, runs alternating:
// - `flower --version` and `flower --help` against `node -e 0` (what Node itself costs to start);
// - `flower once` against a bare Agent SDK `query()` (bench/bare-query.mjs) doing the same one-tool task
//   (one Bash call, then an answer) against flower's fake Messages API, each in a process of its own; and
//   against the same bare `query()` with flower's Bash sandbox settings (`--sandbox`), so what the sandbox
//   costs inside Claude Code is shown apart from what flower itself adds.
// Runs the built CLI from dist/ (run `npm run build` first, or `npm run bench`).
//
//   node bench/cli-start.mjs            # a table on stdout
//   node bench/cli-start.mjs --json     # the same figures as JSON
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import process from 'node:process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const cli = join(root, 'dist', 'cli', 'main.js');
const START_RUNS = 15;
const ONCE_RUNS = 7;
/** The goal from the first acceptance round: `flower once` at most 5% slower than the bare SDK. */
const ONCE_GOAL = 1.05;

function median(values) {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function timed(args, options) {
  const started = process.hrtime.bigint();
  await run(process.execPath, args, options);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Alternates the named commands `runs` times and returns the median milliseconds of each. */
async function alternate(commands, runs, options) {
  const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let round = 0; round < runs; round += 1) {
    for (const [name, args] of Object.entries(commands)) times[name].push(await timed(args, options(name)));
  }
  return Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list)]));
}

async function startFigures() {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? root, FLOWER_NO_UPDATE: '1' };
  return alternate(
    { 'node -e 0': ['-e', '0'], 'flower --version': [cli, '--version'], 'flower --help': [cli, '--help'] },
    START_RUNS,
    () => ({ env, cwd: root }),
  );
}

async function onceFigures() {
  const testing = await import(pathToFileURL(join(root, 'dist', 'testing', 'index.js')).href);
  const server = await testing.FakeAnthropicServer.start(
    testing.scriptTurns({
      main: [
        testing.message([
          testing.toolUse('Bash', { command: 'echo hello > made.txt', description: 'make it' }),
        ]),
        testing.message([testing.text('Created made.txt.')]),
      ],
    }),
  );
  const scratch = await testing.scratchEnvironment({ baseUrl: server.url });
  const prompt = 'make the file';
  try {
    const figures = await alternate(
      {
        'bare SDK query()': [
          join(here, 'bare-query.mjs'),
          scratch.workspace,
          JSON.stringify(scratch.env),
          prompt,
        ],
        'bare query() + sandbox': [
          join(here, 'bare-query.mjs'),
          scratch.workspace,
          JSON.stringify(scratch.env),
          prompt,
          '--sandbox',
        ],
        'flower once': [cli, 'once', '-t', 'Bash', prompt],
      },
      ONCE_RUNS,
      () => {
        rmSync(join(scratch.workspace, 'made.txt'), { force: true });
        return { env: { ...scratch.env, FLOWER_NO_UPDATE: '1' }, cwd: scratch.workspace };
      },
    );
    if (server.unexpectedCalls.length > 0) throw new Error('the fake API saw calls it had no answer for');
    const sandbox = await import(pathToFileURL(join(root, 'dist', 'agent', 'sandbox-support.js')).href);
    return { ...figures, sandbox: sandbox.sandboxSupport(scratch.env.PATH ?? '') };
  } finally {
    await server.close();
    await scratch.cleanup();
  }
}

/** Runs both parts and prints them. */
export async function runCliStartBench({ json = false } = {}) {
  if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first (or `npm run bench`).');
  const start = await startFigures();
  const once = await onceFigures();
  const figures = {
    start: {
      ...start,
      versionRatio: start['flower --version'] / start['node -e 0'],
      helpRatio: start['flower --help'] / start['node -e 0'],
    },
    once: {
      ...once,
      ratio: once['flower once'] / once['bare SDK query()'],
      sandboxRatio: once['bare query() + sandbox'] / once['bare SDK query()'],
      ownRatio: once['flower once'] / once['bare query() + sandbox'],
      goal: ONCE_GOAL,
    },
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return figures;
  }
  const ms = (value) => `${value.toFixed(0)} ms`.padStart(8);
  const lines = [
    `CLI start-up (median of ${START_RUNS}, alternating)`,
    `  node -e 0          ${ms(start['node -e 0'])}`,
    `  flower --version   ${ms(start['flower --version'])}   ${figures.start.versionRatio.toFixed(2)}× node -e 0`,
    `  flower --help      ${ms(start['flower --help'])}   ${figures.start.helpRatio.toFixed(2)}× node -e 0`,
    `flower once vs bare SDK query(), one Bash call against the fake API (median of ${ONCE_RUNS}, alternating)`,
    `  Bash sandbox here: ${once.sandbox.available ? 'available' : `unavailable (${once.sandbox.reason})`}`,
    `  bare SDK query()         ${ms(once['bare SDK query()'])}   query() alone: no sandbox, hooks, store or plugin`,
    `  bare query() + sandbox   ${ms(once['bare query() + sandbox'])}   ${figures.once.sandboxRatio.toFixed(2)}× bare: the same with flower's sandbox settings`,
    `  flower once              ${ms(once['flower once'])}   ${figures.once.ratio.toFixed(2)}× bare (goal ≤ ${ONCE_GOAL}×), ${figures.once.ownRatio.toFixed(2)}× bare + sandbox`,
    `    (flower once: sandbox, guard and journal hooks, the SQLite mirror, partial messages, the plugin,`,
    `     the manifest and the process record, the renderer)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return figures;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCliStartBench({ json: process.argv.includes('--json') });
}
