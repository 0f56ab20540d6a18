import { CLOCK_BRIEF as BRIEF } from '../../../test/support/go-path.js';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { runCliScripted, startCli, type StartOptions } from '../../../test/support/cli-session.js';
import { sdk, SdkLikeBackend, type LikeStep } from '../../../test/support/sdk-like-backend.js';
import { processEnvironment } from '../../config/process-environment.js';
import { Lineage } from '../../runtime/lineage.js';
import { readManifest } from '../../runtime/manifest.js';
import { createProgram, type CommandHandlers, type GoOptions } from '../program.js';

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-go-')));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const notes = (): string => join(dir, '.flower', 'notes');

/** The clarifier's one turn: the complete brief. */
const clarified = (cost = 0.25): LikeStep => [
  sdk.init(),
  sdk.text(BRIEF, { id: 'm1', tokens: 1000 }),
  sdk.result({ total_cost_usd: cost }),
];

const flower = (argv: string[], steps: LikeStep[] = [], options: Omit<StartOptions, 'backend'> = {}) =>
  runCliScripted(dir, argv, steps, options);
const start = (argv: string[], options: StartOptions = {}) => startCli(dir, argv, options);

/** A workspace that a previous go left with a confirmed brief, a goal of two checks and two wakes. */
function wakingWorkspace(): void {
  mkdirSync(notes(), { recursive: true });
  writeFileSync(join(notes(), 'brief.md'), `${BRIEF}\n`);
  writeFileSync(
    join(notes(), 'goal.md'),
    '## Goal\nA clock.\n\n## Checklist\n- run `clock` → time\n- `clock --utc` → UTC\n',
  );
  writeFileSync(join(notes(), 'qa-log.md'), '# Q&A log\n- **Q**(q1) Which zone?\n');
  const lineage = Lineage.open(join(dir, 'runs'), dir);
  lineage.remember('clarify', 'sess-old');
  lineage.bump();
  lineage.bump();
}

describe('go options', () => {
  async function parsed(argv: string[]): Promise<GoOptions> {
    const seen: GoOptions[] = [];
    const idle = (): Promise<number> => Promise.resolve(0);
    const handlers: CommandHandlers = {
      go: (_ask, options) => {
        seen.push(options);
        return Promise.resolve(0);
      },
      run: idle,
      once: idle,
      setup: idle,
      ask: idle,
      demo: idle,
      status: idle,
      verify: idle,
      analyze: idle,
      chaos: idle,
      dashboard: idle,
      exportRun: idle,
      importRun: idle,
      doctor: idle,
      completion: idle,
    };
    const program = createProgram(handlers, { writeOut: () => undefined, writeErr: () => undefined });
    await program.command.parseAsync(['go', ...argv], { from: 'user' });
    const [options] = seen;
    if (options === undefined) throw new Error('go did not run');
    return options;
  }

  test('has the defaults and takes -1 for unlimited questions and "never" for the timeout', async () => {
    expect(await parsed(['x'])).toMatchObject({
      asks: -1,
      rounds: 3,
      goal: true,
      timeout: 1800,
      handoff: true,
      trim: true,
    });
    expect(await parsed(['--asks', '-1', '--timeout', 'never', '--window', '200000', 'x'])).toMatchObject({
      asks: -1,
      timeout: null,
      window: 200_000,
    });
    expect(
      await parsed([
        '--asks',
        '0',
        '--rounds',
        '1',
        '--timeout',
        '0.5',
        '--no-goal',
        '--no-handoff',
        '--no-trim',
        '-b',
        '2',
        'x',
      ]),
    ).toMatchObject({
      asks: 0,
      rounds: 1,
      timeout: 0.5,
      goal: false,
      handoff: false,
      trim: false,
      budget: 2,
    });
  });

  test('refuses bad numbers with a one-line usage error and exit 2, before anything runs', async () => {
    for (const argv of [
      ['go', '--asks', '-2', 'x'],
      ['go', '--asks', '1.5', 'x'],
      ['go', '--rounds', '0', 'x'],
      ['go', '--timeout', '-1', 'x'],
      ['go', '--timeout', 'soon', 'x'],
      ['go', '--window', '0', 'x'],
      ['--window', '-5', 'x'],
      ['x', '--window', '1e5'],
      ['go', '-b', '0', 'x'],
    ]) {
      const outcome = await flower(argv);
      expect(outcome.code, argv.join(' ')).toBe(2);
      expect(outcome.stderr.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(outcome.stderr, argv.join(' ')).toMatch(/^error: /);
      expect(outcome.backend.requests).toEqual([]);
    }
  });
});

describe('flower go', () => {
  test('clarifies a request given on the command line; closing line with 4 decimals and the manifest', async () => {
    const outcome = await flower(
      ['go', '--clarify-only', '--timeout', '0', 'build me a clock'],
      [clarified(0.25)],
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.backend.requests[0]?.prompt).toContain('build me a clock');
    expect(readFileSync(join(notes(), 'brief.md'), 'utf8')).toContain('A clock for the shell.');
    expect(outcome.stderr).toContain('== clarify ');
    expect(outcome.stderr).toContain(`Total cost $0.2500 · manifest ${join(dir, 'runs', 'manifest.json')}`);
    expect(readManifest(join(dir, 'runs'))).toEqual([expect.objectContaining({ step: 'clarify', ok: true })]);
    // Teed to the event log, so `flower ask` in another terminal sees the run.
    expect(readFileSync(join(dir, 'runs', 'events.jsonl'), 'utf8')).toContain('"kind":"step"');
  });

  test('a bare request runs the whole go path without a goal: clarify, work, bequest', async () => {
    const outcome = await flower(
      ['build me a clock', '--no-goal', '--timeout', '0'],
      [
        clarified(0.1),
        [
          sdk.init('sess-2'),
          sdk.text('Built it.', { sessionId: 'sess-2' }),
          sdk.result({ session_id: 'sess-2', total_cost_usd: 0.2 }),
        ],
        [
          sdk.init('sess-3'),
          sdk.text('## What\nA clock.', { sessionId: 'sess-3' }),
          sdk.result({ session_id: 'sess-3', total_cost_usd: 0.05 }),
        ],
      ],
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(readManifest(join(dir, 'runs')).map((row) => row.step)).toEqual(['clarify', 'work', 'bequest']);
    expect(outcome.backend.requests[1]?.prompt).toContain('A clock for the shell.');
    expect(outcome.stderr).toContain('Total cost $0.3500');
  });

  test('reads the request as one line from a piped stdin, without a header', async () => {
    const outcome = await flower(['go', '--clarify-only', '--timeout', '0'], [clarified()], {
      input: 'build me a clock, "quoted" & !\nmore text for later\n',
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.backend.requests[0]?.prompt).toContain('build me a clock, "quoted" & !');
    expect(outcome.backend.requests[0]?.prompt).not.toContain('more text');
    expect(outcome.stderr).not.toContain('What should I do?');
  });

  test('stops with err.emptyAsk for an empty line in a fresh directory, and Cancelled at end of input', async () => {
    const empty = await flower(['go'], [], { input: '  \n' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('The request is empty. Run `flower` and type at the prompt');
    const closed = await flower([], [], { input: '' });
    expect(closed.code).toBe(1);
    expect(closed.stderr.trim()).toBe('Cancelled');
    expect([...empty.backend.requests, ...closed.backend.requests]).toEqual([]);
    expect(existsSync(join(dir, '.flower'))).toBe(false);
  });

  test('warns that nobody can answer from a pipe, unless --timeout 0', async () => {
    const warning = 'stdin is not a terminal, so nobody can answer questions';
    const waiting = await flower(['go', '--clarify-only', 'build me a clock'], [clarified()]);
    expect(waiting.code, waiting.stderr).toBe(0);
    expect(waiting.stderr).toContain(warning);
    rmSync(join(dir, '.flower'), { recursive: true });
    const unattended = await flower(
      ['go', '--clarify-only', '--timeout', '0', 'build me a clock'],
      [clarified()],
    );
    expect(unattended.code, unattended.stderr).toBe(0);
    expect(unattended.stderr).not.toContain(warning);
  });

  test('on a waking directory an empty line keeps going: wake banner with the goal checks and the wake count', async () => {
    wakingWorkspace();
    const outcome = await flower(['go', '--clarify-only', '--timeout', '0'], [], { input: '\n' });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stderr).toContain(`<- Resuming in ${dir} · brief confirmed · 2 goal checks · wake #3`);
    expect(outcome.stderr).toContain('--clarify-only has nothing to do');
    // The confirmed brief is reused: no question, no spending.
    expect(outcome.backend.requests).toEqual([]);
  });

  test('on a terminal, a waking directory shows the wake banner before asking whether to continue', async () => {
    wakingWorkspace();
    const session = start(['go', '--clarify-only', '--timeout', '0'], { tty: true });
    await session.screen.waitFor('Continue from last time?');
    const shown = session.screen.text;
    const banner = shown.indexOf('<- Resuming in');
    expect(banner, shown).toBeGreaterThanOrEqual(0);
    expect(shown.slice(banner)).toContain('brief confirmed · 2 goal checks · wake #3');
    expect(banner).toBeLessThan(shown.indexOf('Continue from last time?'));
    session.stdin.write('\r');
    const outcome = await session.done;
    expect(outcome.code, outcome.stderr).toBe(0);
    // Shown once: not repeated after the answer.
    expect(outcome.stderr.split('<- Resuming in')).toHaveLength(2);
  });

  test('on a terminal, an empty Enter at "What should I do?" asks again instead of stopping', async () => {
    const backend = new SdkLikeBackend([clarified()]);
    const session = start(['go', '--clarify-only', '--timeout', '0'], { tty: true, backend });
    await session.screen.waitFor('What should I do?');
    session.stdin.write('\r');
    // The empty line stays on screen under the first header; the header comes again below it.
    await session.screen.waitFor('> \nWhat should I do?');
    session.stdin.write('build me a clock\r');
    const outcome = await session.done;
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stderr).not.toContain('The request is empty');
    expect(backend.requests[0]?.prompt).toContain('build me a clock');
  });

  test('a new sentence given to a woken run says it was added to the brief and the goal will be set again', async () => {
    wakingWorkspace();
    const outcome = await flower(
      ['go', '--timeout', '0', '--rounds', '1', 'also print the date'],
      [[sdk.init(), ...sdk.apiFailure('overloaded', 'sess-1', 529)]],
    );
    expect(outcome.stderr).toContain(
      'Added to the brief: also print the date — the goal will be set again from the brief before work goes on',
    );
    expect(readFileSync(join(notes(), 'brief.md'), 'utf8')).toContain('also print the date');
    // The same sentence again is already in the brief: nothing is added, nothing is said.
    const again = await flower(
      ['go', '--timeout', '0', '--rounds', '1', 'also print the date'],
      [[sdk.init(), ...sdk.apiFailure('overloaded', 'sess-2', 529)]],
    );
    expect(again.stderr).not.toContain('Added to the brief');
  });

  test('/new at the prompt starts over: asks again in the fresh form and archives the old documents', async () => {
    wakingWorkspace();
    const session = start(['go', '--clarify-only', '--timeout', '0'], {
      tty: true,
      backend: new SdkLikeBackend([clarified()]),
    });
    await session.screen.waitFor('Continue from last time?');
    session.stdin.write('/new\r');
    await session.screen.waitFor('What should I do?');
    session.stdin.write('build me a calendar\r');
    const outcome = await session.done;
    expect(outcome.code, outcome.stderr).toBe(0);
    // The banner stood above the first question only: starting over does not resume anything.
    expect(outcome.stderr.slice(outcome.stderr.indexOf('What should I do?'))).not.toContain('Resuming in');
    const archives = readdirSync(join(notes(), 'archive')).filter((name) => /^\d{8}-\d{6}/.test(name));
    expect(archives).toHaveLength(1);
    const archived = join(notes(), 'archive', archives[0] ?? '');
    expect(readdirSync(archived).sort()).toEqual(['brief.md', 'goal.md', 'lineage.json', 'qa-log.md']);
  });

  test('--new moves the lineage, brief, goal and Q&A log into notes/archive/<stamp>/, never deleting them', async () => {
    wakingWorkspace();
    const before = readFileSync(join(notes(), 'goal.md'), 'utf8');
    const outcome = await flower(
      ['go', '--new', '--clarify-only', '--timeout', '0', 'build me a calendar'],
      [clarified()],
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stderr).not.toContain('Resuming in');
    expect(outcome.backend.requests[0]?.prompt).toContain('build me a calendar');
    const [stamp, ...others] = readdirSync(join(notes(), 'archive')).filter((name) =>
      /^\d{8}-\d{6}/.test(name),
    );
    expect(others).toEqual([]);
    const archived = join(notes(), 'archive', stamp ?? '');
    expect(readFileSync(join(archived, 'goal.md'), 'utf8')).toBe(before);
    expect(readFileSync(join(archived, 'qa-log.md'), 'utf8')).toContain('Which zone?');
    expect(JSON.parse(readFileSync(join(archived, 'lineage.json'), 'utf8'))).toMatchObject({ woke: 2 });
    expect(existsSync(join(notes(), 'goal.md'))).toBe(false);
    expect(readFileSync(join(notes(), 'brief.md'), 'utf8')).toContain('A clock for the shell.');
  });

  test('--isolate outside a git repository stops with err.isolate before any agent call', async () => {
    const outcome = await flower(['go', '--isolate', 'build me a clock'], [clarified()]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`--isolate requires ${dir} to be a git repository`);
    expect(outcome.backend.requests).toEqual([]);
  });

  test('--isolate asks git once whether the workspace is a work tree, for the whole start', async () => {
    execFileSync('git', ['init', '-q', dir]);
    // A `git` first on PATH that notes each call and runs the real one: the calls are counted, not mocked.
    const shim = mkdtempSync(join(tmpdir(), 'flower-git-shim-'));
    const calls = join(shim, 'calls.log');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(shim, 'git'), `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${realGit}' "$@"\n`, {
      mode: 0o755,
    });
    vi.stubEnv('PATH', `${shim}:${processEnvironment()['PATH'] ?? ''}`);
    try {
      const outcome = await flower(
        ['go', '--isolate', '--no-goal', '--timeout', '0', 'build me a clock'],
        [
          clarified(0.1),
          [
            sdk.init('sess-2'),
            sdk.text('Built it.', { sessionId: 'sess-2' }),
            sdk.result({ session_id: 'sess-2' }),
          ],
          [
            sdk.init('sess-3'),
            sdk.text('## What\nA clock.', { sessionId: 'sess-3' }),
            sdk.result({ session_id: 'sess-3' }),
          ],
        ],
      );
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(readManifest(join(dir, 'runs')).map((row) => row.step)).toEqual(['clarify', 'work', 'bequest']);
      const asked = readFileSync(calls, 'utf8')
        .split('\n')
        .filter((line) => line === `-C ${dir} rev-parse --is-inside-work-tree`);
      expect(asked).toHaveLength(1);
    } finally {
      vi.unstubAllEnvs();
      rmSync(shim, { recursive: true, force: true });
      rmSync(join(dirname(dir), `.flower-${basename(dir)}`), { recursive: true, force: true });
    }
  });

  test('a failed step explains itself and exits 1 with err.abortedAt', async () => {
    const outcome = await flower(
      ['go', '--clarify-only', '--timeout', '0', 'build me a clock'],
      [[sdk.init(), ...sdk.apiFailure('Invalid API key · Fix external API key', 'sess-1', 401)]],
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('Looks like a credential problem');
    expect(outcome.stderr).toContain("Stopped: the 'clarify' step did not finish");
  });

  test('when every round ends NOT_YET it says so and how to go on, exit 1', async () => {
    const reply = (id: string, text: string): LikeStep => [
      sdk.init(id),
      sdk.text(text, { sessionId: id }),
      sdk.result({ session_id: id, total_cost_usd: 0.01 }),
    ];
    const notYet =
      '## Conclusion\nNOT_YET\n## Reason\nThe clock does not tick.\n## Failed\n- run clock → see the time';
    const outcome = await flower(
      ['build me a clock', '--rounds', '1', '--timeout', '0'],
      [
        clarified(0.1),
        reply('sess-goal', '## Goal\nA clock.\n## Checklist\n- run clock → see the time'),
        reply('sess-work', 'Built it.'),
        reply('sess-judge', notYet),
        reply(
          'sess-bequest',
          '## What\nA clock; it does not tick yet.\n## Workbench\nRead .flower/notes first.',
        ),
      ],
    );
    expect(outcome.code, outcome.stderr).toBe(1);
    // The run stopped short, and that is when the note for whoever continues matters most.
    expect(readManifest(join(dir, 'runs')).map((row) => row.step)).toEqual([
      'clarify',
      'goal',
      'work',
      'work/verdict#1',
      'bequest',
    ]);
    expect(readFileSync(join(dir, 'CLAUDE.md'), 'utf8')).toContain('it does not tick yet');
    expect(outcome.stderr).toContain(
      'The judge still says the goal is not achieved after 1 round: The clock does not tick.',
    );
    expect(outcome.stderr).toContain("Stopped: the 'work' step did not finish");
  });

  test('-b caps the whole run: one budget line, exit 1', async () => {
    const outcome = await flower(
      ['go', '-b', '0.5', '--clarify-only', '--timeout', '0', 'build me a clock'],
      [
        [
          sdk.init(),
          sdk.result({
            is_error: true,
            subtype: 'error_max_budget_usd',
            errors: ['Reached maximum budget ($0.5)'],
            total_cost_usd: 0.5,
          }),
        ],
      ],
    );
    expect(outcome.backend.requests[0]?.options.maxBudgetUsd).toBe(0.5);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('Run budget $0.50 used up ($0.5000 spent in this run)');
    expect(outcome.stderr).toContain("Stopped: the 'clarify' step did not finish");
  });
});
