/**
 * What every command handler gets: the CLI's surroundings plus optional replacements used by tests.
 *
 * @module
 */
import type { AgentBackend } from '../agent/agent-backend.js';
import type { Resilience } from '../runtime/resilience.js';
import type { SetupRunner } from './ensure-credentials.js';
import type { CliIo } from './cli-io.js';
import type { SignalTarget } from './signals.js';

/** Shared input of the command handlers. */
export interface CommandContext {
  io: CliIo;
  /** Runs agents; the real SDK when absent. */
  backend?: AgentBackend;
  /** Replaces the resilience of the runtimes the commands build (tests: no waiting, no network probe). */
  resilience?: Resilience;
  /** Receives signal handlers; `process` when absent. */
  signals?: SignalTarget;
  /** Replaces the interactive setup dialogue. */
  setup?: SetupRunner;
  /** Clock in milliseconds; `Date.now` when absent. */
  now?: () => number;
  /** The words after `flower` as typed, for the command that continues a stopped run; unknown when absent. */
  argv?: readonly string[];
}
