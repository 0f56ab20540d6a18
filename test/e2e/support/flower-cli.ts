/**
 * One-shot runs of the built CLI (`node dist/cli/main.js`) against a fake Messages API in a scratch home:
 * the run's exit code, stdout and stderr, for tests that only need what a person sees and what is on disk.
 *
 * @module
 */
import { execa, type Options } from 'execa';
import { FLOWER_CLI } from './flower-process.js';
import {
  FakeAnthropicServer,
  scratchEnvironment,
  type FakeScript,
  type ScratchEnvironment,
} from '../../../src/testing/index.js';

/** A fake server and a scratch home, closed and removed by {@link FlowerCli.close}. */
export interface FlowerCli {
  server: FakeAnthropicServer;
  scratch: ScratchEnvironment;
  /**
   * Runs `flower …` in the scratch workspace (or `options.cwd`); never rejects on a non-zero exit. A function
   * property, not a method, because tests destructure it.
   */
  run: (
    args: string[],
    options?: { input?: string; env?: Record<string, string>; cwd?: string; extra?: Options },
  ) => Promise<{ exitCode: number | undefined; stdout: string; stderr: string }>;
  close(): Promise<void>;
}

/** Starts the fake API with `script` and a scratch home pointing at it. */
export async function flowerCli(script: FakeScript): Promise<FlowerCli> {
  const server = await FakeAnthropicServer.start(script);
  const scratch = await scratchEnvironment({ baseUrl: server.url });
  return {
    server,
    scratch,
    async run(args, options = {}) {
      const result = await execa('node', [FLOWER_CLI, ...args], {
        env: { ...scratch.env, ...options.env },
        extendEnv: false,
        cwd: options.cwd ?? scratch.workspace,
        reject: false,
        timeout: 110_000,
        ...(options.input === undefined ? { stdin: 'ignore' } : { input: options.input }),
        ...options.extra,
      });
      return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
    },
    async close() {
      await server.close();
      await scratch.cleanup();
    },
  };
}
