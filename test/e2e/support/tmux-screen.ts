/**
 * A real terminal for end-to-end tests: a command runs in a detached tmux session of a given size, on a
 * socket of its own in a scratch folder, and tests read the screen as a person sees it (`capture-pane`)
 * and type into it (`send-keys`). Waiting is by polling the screen for expected text, bounded, never by
 * sleeping a fixed time.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';

/** Options of {@link TmuxScreen.start}. */
export interface TmuxScreenOptions {
  /** The command and its arguments; run with exactly `env` (nothing inherited). */
  command: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
  /** Terminal size. */
  columns: number;
  rows?: number;
  /** A scratch folder for the socket, the config and the start script. */
  scratch: string;
}

const quote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** A command running in a tmux pane. */
export class TmuxScreen {
  readonly #socket: string;

  private constructor(socket: string) {
    this.#socket = socket;
  }

  /** Starts `options.command` in a fresh tmux server; the pane stays open after it exits, with its code. */
  static async start(options: TmuxScreenOptions): Promise<TmuxScreen> {
    const socket = join(options.scratch, `tmux-${options.columns}.sock`);
    const config = join(options.scratch, 'tmux.conf');
    // A long history, so a whole run can be read back; no status bar, so every row is the program's.
    writeFileSync(config, 'set -g history-limit 20000\nset -g status off\n');
    const script = join(options.scratch, `start-${options.columns}.sh`);
    const exports = Object.entries(options.env).map(([name, value]) => `export ${name}=${quote(value)}`);
    writeFileSync(
      script,
      [
        ...exports,
        `cd ${quote(options.cwd)}`,
        `${options.command.map(quote).join(' ')}`,
        'echo "[exit $?]"',
        'exec sleep 3600',
        '',
      ].join('\n'),
    );
    await execa('tmux', [
      '-S',
      socket,
      '-f',
      config,
      'new-session',
      '-d',
      '-x',
      String(options.columns),
      '-y',
      String(options.rows ?? 40),
      `env -i sh ${quote(script)}`,
    ]);
    return new TmuxScreen(socket);
  }

  /**
   * The screen and its scrollback as rows of text, as a person would read them. With `joined`, a line the
   * terminal itself folded (it was wider than the screen) comes back whole, so a test can tell the program's
   * own line breaks from the terminal's.
   */
  async capture(options: { joined?: boolean } = {}): Promise<string[]> {
    const join = options.joined === true ? ['-J'] : [];
    const { stdout } = await execa('tmux', [
      '-S',
      this.#socket,
      'capture-pane',
      '-p',
      ...join,
      '-S',
      '-20000',
    ]);
    const rows = String(stdout).split('\n');
    while (rows.length > 0 && rows.at(-1)?.trim() === '') rows.pop();
    return rows;
  }

  /** Polls the screen until `expected` shows (bounded); resolves to the rows then on screen. */
  async waitFor(expected: string | RegExp, timeoutMs = 90_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await this.capture();
      const screen = rows.join('\n');
      if (typeof expected === 'string' ? screen.includes(expected) : expected.test(screen)) return rows;
      if (Date.now() > deadline) {
        throw new Error(`screen never showed ${String(expected)}; it shows:\n${screen}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Types `text` literally (no key names). */
  async type(text: string): Promise<void> {
    await execa('tmux', ['-S', this.#socket, 'send-keys', '-l', text]);
  }

  /** Ends the tmux server and everything running in it. */
  async kill(): Promise<void> {
    await execa('tmux', ['-S', this.#socket, 'kill-server'], { reject: false });
  }
}
