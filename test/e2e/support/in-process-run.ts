/**
 * The setup of an end-to-end test that drives a `Runtime` in the test process: the fake Messages API, a
 * scratch environment pointing at it, and runtimes on that environment (real SDK, real Claude Code binary),
 * all closed after each test.
 *
 * @module
 */
import { afterEach } from 'vitest';
import { Runtime, type RuntimeOptions } from '../../../src/runtime/runtime.js';
import {
  FakeAnthropicServer,
  scratchEnvironment,
  type FakeScript,
  type ScratchEnvironment,
} from '../../../src/testing/index.js';

/** A fake API and a scratch environment that talks to it. */
export interface InProcessRun {
  server: FakeAnthropicServer;
  scratch: ScratchEnvironment;
  /**
   * A runtime in the scratch workspace (no resilience unless asked), closed after the test. A function
   * property, not a method, because tests destructure it.
   */
  runtime: (options?: Omit<RuntimeOptions, 'workspace' | 'config'>) => Runtime;
}

/** Registers the cleanup in the calling test file; returns the function that sets up one test. */
export function inProcessRuns(): (script: FakeScript) => Promise<InProcessRun> {
  const open: Array<{ server: FakeAnthropicServer; scratch: ScratchEnvironment; runtimes: Runtime[] }> = [];
  afterEach(async () => {
    for (const { server, scratch, runtimes } of open.splice(0)) {
      for (const runtime of runtimes) void runtime.close();
      await server.close();
      await scratch.cleanup();
    }
  });
  return async (script) => {
    const server = await FakeAnthropicServer.start(script);
    const scratch = await scratchEnvironment({ baseUrl: server.url });
    const runtimes: Runtime[] = [];
    open.push({ server, scratch, runtimes });
    return {
      server,
      scratch,
      runtime: (options = {}) => {
        const runtime = new Runtime({
          resilience: false,
          ...options,
          workspace: scratch.workspace,
          config: { env: scratch.env },
        });
        runtimes.push(runtime);
        return runtime;
      },
    };
  };
}
