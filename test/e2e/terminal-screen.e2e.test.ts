// What a person sees in a real terminal (tmux) at 60 and 120 columns, and in a pipe: who speaks (the judge's
// verdict under the judge's name, not read as the coordinator's words), lines wrapped at word boundaries with
// paths whole, and the short input prompt with typing on its row. The built CLI runs the go path against the
// scripted model of `flower demo` (real SDK, real Claude Code, no credentials), and `flower run` against
// flower's fake Messages API held mid-run for the live input line.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import { uiText } from '../../src/config/ui-text.js';
import { displayWidth } from '../../src/render/display-width.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  message,
  scratchEnvironment,
  text,
  toolUse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FLOWER_CLI, killStrayFlowers } from './support/flower-process.js';
import { TmuxScreen } from './support/tmux-screen.js';
import { writeWorkflow } from './support/workflow-fixture.js';

let scratch: string | null = null;
let screen: TmuxScreen | null = null;
let server: FakeAnthropicServer | null = null;
let environment: ScratchEnvironment | null = null;

afterEach(async () => {
  await screen?.kill();
  await killStrayFlowers();
  await server?.close();
  await environment?.cleanup();
  if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  screen = null;
  server = null;
  environment = null;
  scratch = null;
});

/** A scratch HOME and the environment the demo runs with: nothing inherited, no credentials. */
function demoEnvironment(): { env: Record<string, string>; dir: string } {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'flower-screen-e2e-')));
  const home = join(scratch, 'home');
  mkdirSync(join(home, '.config', 'flower'), { recursive: true });
  return {
    dir: scratch,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: scratch,
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
      NO_COLOR: '1',
      FLOWER_NO_UPDATE: '1',
    },
  };
}

/**
 * Lines the terminal had to fold because they were wider than the screen (read with `capture({ joined })`,
 * which gives them back whole). flower wraps its own lines first, so the only ones allowed are a single
 * unbreakable word such as a path, which the terminal folds and a person can still copy — never a sentence
 * that the terminal would cut mid-word.
 */
function cutMidSentence(lines: readonly string[], columns: number): string[] {
  return lines.filter((line) => displayWidth(line) > columns && /\S\s+\S/.test(line.trim()));
}

describe('the terminal a person reads (e2e, tmux)', () => {
  test.each([60, 120])(
    'flower demo at %i columns: the judge speaks under its name, nothing is cut mid-word, paths stay whole',
    async (columns) => {
      const { env, dir } = demoEnvironment();
      screen = await TmuxScreen.start({
        command: ['node', FLOWER_CLI, 'demo'],
        env,
        cwd: dir,
        columns,
        rows: 50,
        scratch: dir,
      });
      const rows = await screen.waitFor('[exit ', 150_000);
      const shown = rows.join('\n');
      expect(shown, shown).toContain('[exit 0]');

      // Who speaks: the coordinator under its name in the work step, then the judge with its round; the
      // verdict follows the judge's name with no other speaker in between, and says it is the judge's.
      const work = rows.findIndex((row) => row.startsWith('== work '));
      const coordinator = rows.indexOf('  [coordinator]', work);
      const judge = rows.indexOf('  [judge · round 1]', coordinator);
      const verdict = rows.findIndex((row, index) => index > judge && row.startsWith('  = judge: NOT_YET: '));
      expect(work, shown).toBeGreaterThan(0);
      expect(coordinator, shown).toBeGreaterThan(work);
      expect(judge, shown).toBeGreaterThan(coordinator);
      expect(verdict, shown).toBeGreaterThan(judge);
      expect(rows.slice(judge + 1, verdict).filter((row) => row.startsWith('  ['))).toEqual([]);
      expect(rows.indexOf('  [judge · round 2]'), shown).toBeGreaterThan(verdict);
      // The judge's Markdown is drawn: its headings read as headings, no ** left.
      expect(rows.slice(judge, verdict)).toContain('  ## Conclusion');
      expect(shown).not.toContain('**');

      // Width: no sentence folded mid-word by the terminal, and no path or line shortened with "...".
      expect(cutMidSentence(await screen.capture({ joined: true }), columns)).toEqual([]);
      expect(shown).not.toContain('...');
      // The run folder path is whole on one row after "Run folder:", as is the folder in the closing lines.
      const folder = /^Run folder: (\S+)$/m.exec(shown)?.[1] ?? '';
      expect(folder.startsWith(join(dir, 'flower-demo-'))).toBe(true);
      // The demo's own lines wrap at word boundaries: every word of its intro is whole on some row.
      for (const word of uiText('demo.shows').split(' ')) {
        expect(
          rows.some((row) => row.split(' ').includes(word)),
          word,
        ).toBe(true);
      }
      // The answer the demo types is shown as the live input line shows it: the hint once, then the short
      // prompt with the typed text on its row.
      expect(rows).toContain(uiText('live.answer'));
      expect(rows.some((row) => row.startsWith(`${uiText('live.mark')}A file given as an argument`))).toBe(
        true,
      );
    },
    200_000,
  );

  test('flower demo into a pipe: nothing wrapped or cut, Markdown as the model wrote it', async () => {
    const { env, dir } = demoEnvironment();
    const run = await execa('node', [FLOWER_CLI, 'demo'], {
      env: { ...env, COLUMNS: '60' },
      extendEnv: false,
      cwd: dir,
      reject: false,
      timeout: 150_000,
    });
    // With stdout not a terminal the demo's transcript goes to stdout, as `once` writes its answer there.
    const stderr = `${String(run.stdout)}\n${String(run.stderr)}`;
    expect(run.exitCode, stderr).toBe(0);
    const lines = stderr.split('\n');
    // Each of flower's own lines whole on one line, however wide.
    expect(lines).toContain(uiText('demo.shows'));
    expect(lines.some((line) => line.startsWith('  = judge: NOT_YET: ') && displayWidth(line) > 60)).toBe(
      true,
    );
    expect(lines.filter((line) => displayWidth(line) > 60).length).toBeGreaterThan(3);
    // The judge's text as written, still under its speaker line.
    expect(lines).toContain('  [judge · round 1]');
    expect(lines).toContain('  ## Conclusion');
    expect(stderr).not.toContain('...');
  }, 200_000);

  test('the live input line at 60 columns: a one-time hint, then a short prompt with typing on its row', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    server = await FakeAnthropicServer.start(async (request) => {
      if (request.thread !== MAIN_THREAD) return undefined;
      const turns = [
        message([text('Starting.'), toolUse('Bash', { command: 'echo 1', description: 'one' }, 'toolu_h1')]),
        message([text('Done.')]),
      ];
      // Held until the test has typed: the run is mid-step, the prompt at the bottom.
      if (request.turn === 1) await released;
      return turns[request.turn];
    });
    environment = await scratchEnvironment({ baseUrl: server.url });
    const target = writeWorkflow(environment.dir);
    screen = await TmuxScreen.start({
      command: ['node', FLOWER_CLI, '-w', environment.workspace, 'run', target],
      env: { ...environment.env, TERM: 'xterm-256color', LANG: 'C.UTF-8', NO_COLOR: '1' },
      cwd: environment.dir,
      columns: 60,
      rows: 30,
      scratch: environment.dir,
    });
    const mark = uiText('live.mark');
    const before = await screen.waitFor(new RegExp(`^${mark.trimEnd()}$`, 'm'));
    // The hint is on the rows above the prompt, wrapped at word boundaries, every word whole.
    const hint = uiText('live.idle');
    const promptRow = before.lastIndexOf(mark.trimEnd());
    const hintText = before
      .slice(0, promptRow)
      .filter((row) => hint.includes(row.trim()) && row.trim() !== '')
      .join(' ');
    expect(hintText).toBe(hint);
    expect(cutMidSentence(await screen.capture({ joined: true }), 60)).toEqual([]);

    await screen.type('add a test for the counter');
    const typed = await screen.waitFor(`${mark}add a test for the counter`);
    // Typing starts on the prompt's own row: the prompt row is the last row, mark and text together.
    expect(typed.at(-1)).toBe(`${mark}add a test for the counter`);
    release();
  }, 120_000);
});
