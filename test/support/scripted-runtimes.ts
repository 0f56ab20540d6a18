// Real Runtimes on the in-process ScriptedBackend, each in a fresh temporary workspace that is removed after
// the test, for tests of workflow semantics that need no SDK.
import { Runtime } from '../../src/runtime/runtime.js';
import { ScriptedBackend, type ScriptedStep } from '../../src/testing/scripted-backend.js';
import { temporaryRuntimes } from './temporary-runtimes.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };

/** A Runtime and the scripted backend it queries. */
export interface ScriptedRuntime {
  rt: Runtime;
  backend: ScriptedBackend;
}

/**
 * Registers the temporary directory's lifecycle in the calling test file and returns a factory of Runtimes
 * (no resilience, so failures are not retried) that are closed after each test.
 */
export function scriptedRuntimes(prefix: string): (steps: ScriptedStep[]) => ScriptedRuntime {
  const temporary = temporaryRuntimes(prefix);
  return (steps) => {
    const backend = new ScriptedBackend(steps);
    const rt = temporary.keep(
      new Runtime({ workspace: temporary.workspace(), config, backend, resilience: false }),
    );
    return { rt, backend };
  };
}

/** The prompts the backend was sent, in order. */
export function prompts(backend: ScriptedBackend): string[] {
  return backend.requests.map((request) => request.prompt);
}
