// Stopping a run, as a person does it: in a real terminal (tmux) the first Ctrl-C says that a second one stops
// the run; the second ends with the closing line (cost, manifest, elapsed time) and the exact command that
// continues — for `run`, `once` and `demo` (which says where its folder was kept). SIGTERM and SIGHUP end the
// same way. The built CLI, the real SDK and Claude Code, flower's fake Messages API holding the model's reply.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import { uiText } from '../../src/config/ui-text.js';
import { readManifest } from '../../src/runtime/manifest.js';
import { FakeAnthropicServer, scratchEnvironment, type ScratchEnvironment } from '../../src/testing/index.js';
import { FLOWER_CLI, FlowerProcess, killStrayFlowers } from './support/flower-process.js';
import { writeWorkflow } from './support/workflow-fixture.js';

const CTRL_C = '\u0003';
// Lines may be wrapped at word boundaries on a terminal; the tests read them with whitespace made single.
const CLOSING = /Total cost \$0\.\d{4} · manifest (\S+manifest\.json) · \d+:\d\d/;
const flat = (text: string): string => text.replace(/\s+/g, ' ');
const SESSION = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

let screen: Terminal | null = null;
let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await screen?.kill();
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
  screen = null;
  server = null;
  scratch = null;
});

/** A fake API that never answers: the run stays mid-step until it is stopped. */
async function heldModel(): Promise<ScratchEnvironment> {
  server = await FakeAnthropicServer.start(() => ({ kind: 'hang' }));
  scratch = await scratchEnvironment({ baseUrl: server.url });
  // The credential probe would wait for the held model too.
  scratch.env['FLOWER_NO_PROBE'] = '1';
  return scratch;
}

/** Resolves once the model has been asked: the step is running. */
async function modelAsked(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!server!.calls.some((call) => call.path === '/v1/messages')) {
    if (Date.now() > deadline) throw new Error(`the model was never asked:\n${(await screen?.text()) ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const quote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * A command in a tmux pane of its own server. The shell that starts it ignores SIGINT: a Ctrl-C typed in the
 * pane goes to the whole foreground group, and the shell must outlive it to report the exit code (Node resets
 * SIGINT to its default for flower, so flower still gets it).
 */
class Terminal {
  constructor(readonly socket: string) {}

  static async start(command: string[], environment: ScratchEnvironment, columns: number): Promise<Terminal> {
    const env = { ...environment.env, TERM: 'xterm-256color', LANG: 'C.UTF-8', NO_COLOR: '1' };
    const script = join(environment.dir, `start-${columns}.sh`);
    writeFileSync(
      script,
      [
        ...Object.entries(env).map(([name, value]) => `export ${name}=${quote(value)}`),
        "trap '' INT",
        `cd ${quote(environment.dir)}`,
        command.map(quote).join(' '),
        'echo "[exit $?]"',
        'exec sleep 3600',
        '',
      ].join('\n'),
    );
    const socket = join(environment.dir, `tmux-${columns}.sock`);
    await execa('tmux', [
      '-S',
      socket,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-x',
      String(columns),
      '-y',
      '40',
      `env -i sh ${quote(script)}`,
    ]);
    await execa('tmux', ['-S', socket, 'set', '-g', 'history-limit', '20000']);
    return new Terminal(socket);
  }

  /** The screen and its scrollback, lines the terminal folded joined again. */
  async text(): Promise<string> {
    const { stdout } = await execa('tmux', ['-S', this.socket, 'capture-pane', '-p', '-J', '-S', '-20000']);
    return String(stdout);
  }

  /** Polls the screen until `expected` shows (bounded); never a fixed sleep. */
  async waitFor(expected: string | RegExp, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.text();
      // Lines may be wrapped at word boundaries: compare with whitespace made single.
      if (typeof expected === 'string' ? flat(screen).includes(flat(expected)) : expected.test(screen)) {
        return screen;
      }
      if (Date.now() > deadline)
        throw new Error(`screen never showed ${String(expected)}; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async press(keys: string): Promise<void> {
    await execa('tmux', ['-S', this.socket, 'send-keys', '-l', keys]);
  }

  async kill(): Promise<void> {
    await execa('tmux', ['-S', this.socket, 'kill-server'], { reject: false });
  }
}

async function inTerminal(
  command: string[],
  environment: ScratchEnvironment,
  columns: number,
): Promise<Terminal> {
  screen = await Terminal.start(command, environment, columns);
  return screen;
}

describe('Ctrl-C in a terminal (e2e)', () => {
  test('flower run: the first press says a second stops; the second closes with the continue command', async () => {
    const environment = await heldModel();
    const target = writeWorkflow(environment.dir);
    const terminal = await inTerminal(
      ['node', FLOWER_CLI, '-w', environment.workspace, 'run', target],
      environment,
      120,
    );
    await modelAsked();
    await terminal.waitFor(uiText('live.mark').trimEnd());

    await terminal.press(CTRL_C);
    await terminal.waitFor(uiText('quit.interrupting'));
    await terminal.press(CTRL_C);
    await terminal.waitFor('[exit 130]');
    const screenText = flat(await terminal.text());
    expect(screenText).toMatch(CLOSING);
    expect(CLOSING.exec(screenText)?.[1]).toBe(join(environment.workspace, 'runs', 'manifest.json'));
    expect(screenText).toContain(
      `Stopped by Ctrl-C; continue with: flower -w ${environment.workspace} run ${target}`,
    );
    const [row] = readManifest(join(environment.workspace, 'runs'));
    expect(row).toMatchObject({ ok: false, error: 'killed-by-signal' });
  }, 120_000);

  test('flower once at 60 columns: a first press only warns; the second closes and names the session to resume', async () => {
    const environment = await heldModel();
    const terminal = await inTerminal(['node', FLOWER_CLI, 'once', 'say hello'], environment, 60);
    await modelAsked();

    await terminal.press(CTRL_C);
    await terminal.waitFor(uiText('quit.confirm'));
    await terminal.press(CTRL_C);
    await terminal.waitFor('[exit 130]');
    const screenText = flat(await terminal.text());
    // The first press reached flower alone: the agent's turn was not broken off (no retry).
    expect(screenText).not.toContain('Attempt 1 failed');
    expect(screenText).toMatch(CLOSING);
    expect(screenText).toMatch(
      new RegExp(`Stopped by Ctrl-C; continue with: flower once --resume ${SESSION} 'say hello'`),
    );
    // The manifest the closing line names holds the stopped step.
    const [row] = readManifest(dirname(CLOSING.exec(screenText)?.[1] ?? '-'));
    expect(row).toMatchObject({ step: 'ad-hoc', ok: false, error: 'killed-by-signal' });
  }, 120_000);

  test('flower demo: the second press closes and repeats where the folder was kept', async () => {
    scratch = await scratchEnvironment({ baseUrl: 'http://127.0.0.1:9' });
    const terminal = await inTerminal(['node', FLOWER_CLI, 'demo'], scratch, 120);
    // The first step has started: its header is on screen.
    await terminal.waitFor(/^== \S+ =+/m);

    await terminal.press(CTRL_C);
    await terminal.waitFor(uiText('quit.confirm'));
    await terminal.press(CTRL_C);
    await terminal.waitFor('[exit 130]');
    const screenText = flat(await terminal.text());
    expect(screenText).toMatch(CLOSING);
    expect(screenText).toContain('Stopped by Ctrl-C');
    const kept = /The run's files are kept in (\S+flower-demo-\w+)/.exec(screenText);
    expect(kept?.[1]).toBeDefined();
    // The closing line's manifest is in the kept folder.
    expect(CLOSING.exec(screenText)?.[1]?.startsWith(kept?.[1] ?? '-')).toBe(true);
  }, 120_000);
});

describe('SIGTERM and SIGHUP (e2e)', () => {
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    test(`${signal} ends flower once with the closing line and the continue command, then by the signal`, async () => {
      const environment = await heldModel();
      const flower = new FlowerProcess(['once', 'say hello'], {
        cwd: environment.workspace,
        env: environment.env,
      });
      await modelAsked();
      flower.child.kill(signal);
      const exit = await flower.exited;
      expect(exit).toEqual({ code: null, signal });
      expect(flat(flower.stderr)).toMatch(CLOSING);
      expect(flat(flower.stderr)).toMatch(
        new RegExp(`Stopped by ${signal}; continue with: flower once --resume ${SESSION} 'say hello'`),
      );
      const [row] = readManifest(join(environment.workspace, 'runs'));
      expect(row).toMatchObject({ ok: false, error: 'killed-by-signal' });
    }, 90_000);
  }

  test('SIGTERM ends flower run the same way, with the run command to continue', async () => {
    const environment = await heldModel();
    const target = writeWorkflow(environment.dir);
    const flower = new FlowerProcess(['-w', environment.workspace, 'run', target], {
      cwd: environment.dir,
      env: environment.env,
    });
    await modelAsked();
    flower.child.kill('SIGTERM');
    expect(await flower.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(flat(flower.stderr)).toMatch(CLOSING);
    expect(flat(flower.stderr)).toContain(
      `Stopped by SIGTERM; continue with: flower -w ${environment.workspace} run ${target}`,
    );
  }, 90_000);
});
