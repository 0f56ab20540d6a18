// Real Runtimes on the SdkLikeBackend (it loads and mirrors the session store as the SDK does), configured
// for a model with a list price, each in a fresh temporary workspace removed after the test: for tests of
// what a step records and reports about its cost (manifest rows, cost events).
import { agentSpec } from '../../src/agent/agent-spec.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { SdkLikeBackend, type LikeStep } from './sdk-like-backend.js';
import { temporaryRuntimes } from './temporary-runtimes.js';

/** A configuration whose model has a list price (claude-opus-5-5: $4 in, $20 out per million tokens). */
export const PRICED_CONFIG = {
  env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_MODEL: 'claude-opus-5-5' },
};

/** A plain worker spec. */
export const PRICED_SPEC = agentSpec({ name: 'worker', instructions: '' });

/** Dollars for `input` and `output` tokens at {@link PRICED_CONFIG}'s list price. */
export function listPrice(input: number, output = 0): number {
  return (input * 4 + output * 20) / 1e6;
}

/** A Runtime and the backend it queries. */
export interface PricedRuntime {
  runtime: Runtime;
  backend: SdkLikeBackend;
}

/**
 * Registers the temporary directory's lifecycle in the calling test file and returns a factory of Runtimes
 * (no resilience, so a failure is not retried) that are closed after each test.
 */
export function pricedRuntimes(prefix: string): (steps: LikeStep[]) => PricedRuntime {
  const temporary = temporaryRuntimes(prefix);
  return (steps) => {
    const backend = new SdkLikeBackend(steps);
    const runtime = temporary.keep(
      new Runtime({ workspace: temporary.workspace(), config: PRICED_CONFIG, backend, resilience: false }),
    );
    return { runtime, backend };
  };
}
