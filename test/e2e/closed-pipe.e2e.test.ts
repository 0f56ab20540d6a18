// A reader that closes its end early (`flower --help | head -1`): flower must end quietly, with no EPIPE stack
// trace, and with exit code 0 when nothing was running (docs/cli.md, Exit codes). The pipe is a real one whose
// reading end is closed before the built CLI writes its first byte.
import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  scriptTurns,
  text,
} from '../../src/testing/index.js';
import { FLOWER_CLI } from './support/flower-process.js';

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the built CLI with stdout a pipe whose reading end is closed at once. */
function intoClosedPipe(args: string[], env: Record<string, string>, cwd: string): Promise<Ended> {
  const child = spawn(process.execPath, [FLOWER_CLI, ...args], {
    env,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Node takes far longer to start than this takes: the reader is gone before flower writes.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stderr })));
}

const plainEnv = (): Record<string, string> => ({
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: process.env['HOME'] ?? '/tmp',
  FLOWER_NO_UPDATE: '1',
});

describe('writing into a closed pipe (e2e)', () => {
  test('flower --help and --version end quietly with exit code 0', async () => {
    for (const args of [['--help'], ['--version'], ['once', '--help']]) {
      const ended = await intoClosedPipe(args, plainEnv(), process.cwd());
      expect(ended.stderr, args.join(' ')).toBe('');
      expect({ code: ended.code, signal: ended.signal }, args.join(' ')).toEqual({ code: 0, signal: null });
    }
  });

  test('flower once whose answer goes into a closed pipe ends quietly after the run', async () => {
    const server = await FakeAnthropicServer.start(scriptTurns({ main: [message([text('The answer.')])] }));
    const scratch = await scratchEnvironment({ baseUrl: server.url });
    try {
      const ended = await intoClosedPipe(['once', 'say something'], scratch.env, scratch.workspace);
      expect(ended.stderr).not.toMatch(/EPIPE|\n\s+at /);
      // The run itself finished; only its answer found nobody to read it.
      expect(ended.stderr).toContain('manifest');
      expect({ code: ended.code, signal: ended.signal }).toEqual({ code: 0, signal: null });
    } finally {
      await server.close();
      await scratch.cleanup();
    }
  }, 60_000);
});
