// The live status footer of issue 11 item 2, in a real terminal (tmux) at 60 and 120 columns and in a pipe:
// `flower once` runs the real SDK and its Claude Code binary against the fake Messages API, whose reply
// pauses mid-stream. While it waits, the bottom line shows the call's elapsed time ticking and the tokens
// streamed so far; after the run nothing of it is left anywhere in the scrollback. A pipe gets none of it.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  scriptTurns,
  text,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { TmuxScreen } from './support/tmux-screen.js';

const cli = resolve(fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url)));
const REPLY = `The answer starts here and ${'keeps going for a while '.repeat(8)}until it ends.`;
/** Long enough for the footer's clock to tick several times while the reply waits. */
const PAUSE_MS = 6000;

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;
let screen: TmuxScreen | null = null;

afterEach(async () => {
  await screen?.kill();
  await server?.close();
  await scratch?.cleanup();
  screen = null;
  server = null;
  scratch = null;
});

async function slowReplySetUp(): Promise<{ env: Record<string, string>; workspace: string; dir: string }> {
  server = await FakeAnthropicServer.start(
    scriptTurns({ main: [message([text(REPLY)], { pauseMs: PAUSE_MS })] }),
  );
  scratch = await scratchEnvironment({ baseUrl: server.url });
  const workspace = join(scratch.dir, 'work');
  mkdirSync(workspace);
  return { env: scratch.env, workspace, dir: scratch.dir };
}

/** The seconds of the footer's `model call m:ss` on screen, or null when it is not there. */
function callSeconds(rows: readonly string[]): number | null {
  for (const row of rows) {
    const match = /~ model call (\d+):(\d\d)/.exec(row);
    if (match !== null) return Number(match[1]) * 60 + Number(match[2]);
  }
  return null;
}

describe('the status footer (e2e)', () => {
  for (const columns of [60, 120]) {
    test(`ticks at the bottom of a ${columns}-column terminal during a slow reply and leaves no trace`, async () => {
      const { env, workspace, dir } = await slowReplySetUp();
      screen = await TmuxScreen.start({
        command: ['node', cli, '-w', workspace, 'once', 'answer slowly'],
        env,
        cwd: dir,
        columns,
        scratch: dir,
      });
      // The reply has started (its first delta counted) and then waits: the clock must move on its own.
      const first = await screen.waitFor(/~ model call \d+:\d\d · \d+ tokens/, 40_000);
      const start = callSeconds(first);
      expect(start).not.toBeNull();
      const later = await screen.waitFor(
        (() => {
          const pattern = /~ model call (\d+):(\d\d)/;
          return {
            test: (shown: string): boolean => {
              const match = pattern.exec(shown);
              return match !== null && Number(match[1]) * 60 + Number(match[2]) >= (start ?? 0) + 2;
            },
          } as RegExp;
        })(),
      );
      // One footer line, the last non-empty row, never wider than the terminal.
      const footers = later.filter((row) => row.includes('~ model call'));
      expect(footers).toHaveLength(1);
      expect(later.at(-1)).toContain('~ model call');
      expect(footers[0]!.length).toBeLessThan(columns);
      expect(footers[0]).toMatch(/ · \$\d+\.\d\d/);

      const done = await screen.waitFor('[exit 0]');
      const history = done.join('\n');
      expect(history).toMatch(/until it\s+ends\./);
      expect(history).toContain('+ done 1 turn');
      expect(history).not.toContain('model call');
    });
  }

  test('flower demo at 60 columns: the footer follows every step and none of it stays in the scrollback', async () => {
    scratch = await scratchEnvironment({ baseUrl: 'http://127.0.0.1:9' });
    screen = await TmuxScreen.start({
      command: ['node', cli, 'demo'],
      env: scratch.env,
      cwd: scratch.dir,
      columns: 60,
      scratch: scratch.dir,
    });
    // The work step dispatches a worker: the footer names it while it runs.
    const shown = await screen.waitFor(/~ model call \d+:\d\d .*worker /, 90_000);
    expect(shown.filter((row) => row.includes('~ model call'))).toHaveLength(1);
    const done = await screen.waitFor('[exit 0]', 90_000);
    expect(done.join('\n')).toContain('== bequest');
    expect(done.join('\n')).not.toContain('model call');
  }, 200_000);

  test('a piped run gets no footer and no cursor movement', async () => {
    const { env, workspace, dir } = await slowReplySetUp();
    const run = await execa('node', [cli, '-w', workspace, 'once', 'answer slowly'], {
      env,
      extendEnv: false,
      cwd: dir,
      reject: false,
      timeout: 90_000,
    });
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(run.stderr).toContain('+ done 1 turn');
    expect(run.stderr).not.toContain('model call');
    expect(run.stderr).not.toContain('\x1b[2K');
    expect(run.stderr).not.toContain('\r');
  });
});
