// `flower once` against an address where nothing ever listened: flower must say at once that the endpoint was
// never reached, keep checking only for the short FLOWER_UNREACHABLE_WAIT (not the hour a run that had been
// working gets), count the wait down (a line per check into a pipe, the status footer on a terminal), and fold each retried attempt into one "attempt N of M" line.
// The built CLI, the real SDK and its real Claude Code binary; the port is closed (src/testing/closed-port.ts).
import { execa } from 'execa';
import { afterEach, expect, test } from 'vitest';
import { readManifest } from '../../src/runtime/manifest.js';
import { closedPortUrl, scratchEnvironment, type ScratchEnvironment } from '../../src/testing/index.js';
import { FLOWER_CLI } from './support/flower-process.js';
import { TmuxScreen } from './support/tmux-screen.js';
import { join } from 'node:path';

let scratch: ScratchEnvironment | null = null;
let screen: TmuxScreen | null = null;

afterEach(async () => {
  await screen?.kill();
  await scratch?.cleanup();
  screen = null;
  scratch = null;
});

test('flower once against a closed port says it was never reached and stops after the short wait', async () => {
  const url = await closedPortUrl();
  const { port } = new URL(url);
  scratch = await scratchEnvironment({ baseUrl: url });
  // The default hour would outlive the test's timeout by far; 2 s means two probes at most.
  const run = await execa('node', [FLOWER_CLI, 'once', 'say hello'], {
    env: { ...scratch.env, FLOWER_UNREACHABLE_WAIT: '2' },
    extendEnv: false,
    cwd: scratch.workspace,
    reject: false,
    timeout: 60_000,
  });
  const lines = run.stderr.split('\n');
  expect(run.exitCode, run.stderr).toBe(1);

  // One retry line, naming the attempt to come, and none of the failed attempt's own lines before it.
  const retry = lines.findIndex((line) => line.includes('attempt 2 of 6'));
  expect(retry, run.stderr).toBeGreaterThanOrEqual(0);
  expect(lines[retry]).toMatch(
    /^ {2}~ Attempt 1 failed \(transient\): .*ECONNREFUSED.* · attempt 2 of 6 in \d+ s/,
  );
  expect(lines.slice(0, retry).join('\n')).not.toMatch(/x failed|API Error/);

  // Said at once, right after the retry line: never reached, with the bound and the setting that sets it.
  expect(lines[retry + 1]).toBe(
    `  ~ 127.0.0.1:${port} was never reached from this process: check ANTHROPIC_BASE_URL and that the API or gateway is running; checking again for 2 s, then stopping (FLOWER_UNREACHABLE_WAIT)`,
  );
  // Piped: the countdown is one plain line per check.
  expect(lines[retry + 2]).toBe(
    `  ~ waiting for 127.0.0.1:${port} · 0:00 so far · next check in 2 s · Ctrl-C to stop`,
  );
  expect(run.stderr).not.toContain('\u001b[');
  expect(run.stderr).not.toContain('is unreachable; waiting up to');
  expect(run.stderr).toContain('the API endpoint was never reachable; stopped after 2 s');

  const [row] = readManifest(join(scratch.workspace, 'runs'));
  expect(row).toMatchObject({ step: 'ad-hoc', ok: false, attempts: 1 });
  expect(row?.error).toContain('the API endpoint was never reachable; stopped after 2 s');
}, 90_000);

test('on a terminal at 60 columns the countdown is one footer line, counted down every second', async () => {
  const url = await closedPortUrl();
  const { port } = new URL(url);
  scratch = await scratchEnvironment({ baseUrl: url });
  screen = await TmuxScreen.start({
    command: ['node', FLOWER_CLI, 'once', 'say hello'],
    env: {
      ...scratch.env,
      FLOWER_UNREACHABLE_WAIT: '20',
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      NO_COLOR: '1',
    },
    cwd: scratch.workspace,
    columns: 60,
    rows: 30,
    scratch: scratch.dir,
  });
  // The footer counts down between checks (every second), not only when a check fails (every 15 s). At 60
  // columns it keeps the endpoint and the next check whole; the time waited and the Ctrl-C hint give way.
  const countdown = (next: string): RegExp =>
    new RegExp(`~ waiting for 127\\.0\\.0\\.1:${port} · next check in (${next}) s *$`, 'm');
  const first = countdown('\\d+').exec((await screen.waitFor(countdown('\\d+'), 60_000)).join('\n'))?.[1];
  // A different figure in the same place: the footer line was redrawn, not a new line added.
  await screen.waitFor(countdown(`(?!${first ?? ''} s)\\d+`), 10_000);
  const screenText = (await screen.capture()).join('\n').replace(/\s+/g, ' ');
  // One countdown on the screen: no log line beside the footer showing an older figure.
  expect(screenText.split('waiting for').length - 1).toBe(1);
  expect(screenText).toContain(`127.0.0.1:${port} was never reached from this process`);
  await screen.waitFor('[exit 1]', 60_000);
}, 120_000);
