// What a person sees in a real terminal (tmux) before a `go` run starts: the credential check answered
// ("credentials ok"), the wake banner above the question whether to continue (so "last time" is on screen
// before the answer), and an empty Enter at "What should I do?" asking again. The built CLI against flower's
// fake Messages API (it answers the credential probe); no model turn is needed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Lineage } from '../../src/runtime/lineage.js';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  text,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { CLOCK_BRIEF } from '../support/go-path.js';
import { FLOWER_CLI, killStrayFlowers } from './support/flower-process.js';
import { TmuxScreen } from './support/tmux-screen.js';

let screen: TmuxScreen | null = null;
let server: FakeAnthropicServer | null = null;
let environment: ScratchEnvironment | null = null;

afterEach(async () => {
  await screen?.kill();
  await killStrayFlowers();
  await server?.close();
  await environment?.cleanup();
  screen = null;
  server = null;
  environment = null;
});

/** A fake API that answers every request (the probe is the only one these runs make). */
async function setUp(): Promise<ScratchEnvironment> {
  server = await FakeAnthropicServer.start(() => message([text('ok')]));
  environment = await scratchEnvironment({ baseUrl: server.url });
  return environment;
}

/** A workspace a previous `go` left with a confirmed brief, a goal of two checks and two wakes. */
function wakingWorkspace(workspace: string): void {
  const notes = join(workspace, '.flower', 'notes');
  mkdirSync(notes, { recursive: true });
  writeFileSync(join(notes, 'brief.md'), `${CLOCK_BRIEF}\n`);
  writeFileSync(
    join(notes, 'goal.md'),
    '## Goal\nA clock.\n\n## Checklist\n- run `clock` → time\n- `clock --utc` → UTC\n',
  );
  const lineage = Lineage.open(join(workspace, 'runs'), workspace);
  lineage.remember('clarify', 'sess-old');
  lineage.bump();
  lineage.bump();
}

async function startGo(env: ScratchEnvironment, columns: number): Promise<TmuxScreen> {
  screen = await TmuxScreen.start({
    command: ['node', FLOWER_CLI, '-w', env.workspace, 'go', '--clarify-only', '--timeout', '0'],
    env: { ...env.env, TERM: 'xterm-256color', LANG: 'C.UTF-8', NO_COLOR: '1' },
    cwd: env.dir,
    columns,
    rows: 30,
    scratch: env.dir,
  });
  return screen;
}

describe('before a go run starts, on a terminal (e2e)', () => {
  for (const columns of [60, 120]) {
    test(`at ${columns} columns: credentials ok, then the wake banner above "Continue from last time?"`, async () => {
      const env = await setUp();
      wakingWorkspace(env.workspace);
      const terminal = await startGo(env, columns);
      await terminal.waitFor('Continue from last time?');
      const rows = await terminal.capture({ joined: true });
      const at = (needle: string): number => rows.findIndex((row) => row.includes(needle));
      // The checking line is answered, on the next row.
      expect(rows[at('- Checking credentials…') + 1]).toBe('+ credentials ok');
      const banner = at('<- Resuming in');
      expect(rows[banner]).toContain('brief confirmed · 2 goal checks · wake #3');
      expect(banner).toBeGreaterThan(at('+ credentials ok'));
      expect(banner).toBeLessThan(at('Continue from last time?'));

      await terminal.type('\r');
      const ended = await terminal.waitFor('[exit 0]');
      // flower wraps its own lines at word boundaries: read the words, not the rows.
      expect(ended.join(' ').replace(/\s+/g, ' ')).toContain('--clarify-only has nothing to do');
      // The banner was shown once, above the question, and not again after the answer.
      const after = await terminal.capture({ joined: true });
      expect(after.filter((row) => row.includes('<- Resuming in'))).toHaveLength(1);
    }, 60_000);
  }

  test('an empty Enter at "What should I do?" asks again; Ctrl-C then cancels', async () => {
    const env = await setUp();
    const terminal = await startGo(env, 60);
    await terminal.waitFor('What should I do?');
    await terminal.type('\r');
    await terminal.waitFor(/What should I do\?[\s\S]*What should I do\?/);
    const rows = await terminal.capture({ joined: true });
    expect(rows.join('\n')).not.toContain('The request is empty');
    await terminal.type('\u0003');
    const ended = await terminal.waitFor('[exit 1]');
    expect(ended.join('\n')).toContain('Cancelled');
  }, 60_000);
});
