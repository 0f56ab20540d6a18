// Where the time of `flower once` goes, against the bare SDK `query()` with and without flower's sandbox
// settings (bench/bare-query.mjs), in the same run, alternating: each process is preloaded with
// bench/once-phases-hook.mjs, which records when it spawns Claude Code, when that exits and when the process
// exits. Extra CLI entry files (e.g. a copy of tsc's unbundled dist/cli/main.js) can be compared beside the
// built one. Runs the built dist/ (run `npm run build` first).
//
//   node bench/once-phases.mjs [runs] [extra CLI entry, relative to the package root]…
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const [runsArgument, ...extraEntries] = process.argv.slice(2);
const runs = Number(runsArgument ?? 7);

function median(values) {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

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
const bare = [join(here, 'bare-query.mjs'), scratch.workspace, JSON.stringify(scratch.env), prompt];
const commands = {
  'bare query()': bare,
  'bare query() + sandbox': [...bare, '--sandbox'],
  'flower once': [join(root, 'dist', 'cli', 'main.js'), 'once', '-t', 'Bash', prompt],
};
for (const entry of extraEntries)
  commands[`flower once (${entry})`] = [join(root, entry), 'once', '-t', 'Bash', prompt];
const hook = pathToFileURL(join(here, 'once-phases-hook.mjs')).href;
const log = join(tmpdir(), `flower-once-phases-${process.pid}.jsonl`);
const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
try {
  for (let round = 0; round < runs; round += 1) {
    for (const [name, args] of Object.entries(commands)) {
      rmSync(join(scratch.workspace, 'made.txt'), { force: true });
      rmSync(log, { force: true });
      const started = Date.now();
      await run(process.execPath, ['--import', hook, ...args], {
        cwd: scratch.workspace,
        env: { ...scratch.env, FLOWER_NO_UPDATE: '1', ONCE_PHASES_LOG: log },
      });
      const ended = Date.now();
      const marks = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const at = (mark) => marks.find((entry) => entry.name === mark)?.at ?? Number.NaN;
      samples[name].push({
        'to Claude Code spawned': at('spawn:claude') - started,
        'Claude Code ran': at('exit:claude') - at('spawn:claude'),
        'its exit to own exit': at('exit') - at('exit:claude'),
        whole: ended - started,
        'own CPU': marks.find((entry) => entry.name === 'exit')?.cpuMs ?? Number.NaN,
      });
    }
  }
} finally {
  rmSync(log, { force: true });
  await server.close();
  await scratch.cleanup();
}
process.stdout.write(`flower once phases, median of ${runs}, alternating (ms from the parent's spawn)\n`);
for (const [name, list] of Object.entries(samples)) {
  const figures = Object.keys(list[0]).map(
    (key) => `${key} ${median(list.map((sample) => sample[key])).toFixed(0)}`,
  );
  process.stdout.write(`  ${name.padEnd(28)} ${figures.join(' · ')}\n`);
}
