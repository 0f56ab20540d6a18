/**
 * `StepBuild`: the options every built-in step factory (`clarifyStep`, `goalStep`, `withGoal`, `bequestStep`)
 * shares (docs/workflows.md), kept in one place so the factories agree on their meaning.
 *
 * @module
 */
import type { AgentSpec } from '../agent/agent-spec.js';
import type { OnFail } from './step.js';

/** Options shared by the step factories of the go path. */
export interface StepBuild {
  /** The step's base name; each factory has its default from `STEP_NAMES`. */
  name?: string;
  /** Use this agent instead of the one the factory builds from its role. */
  spec?: AgentSpec;
  /** The caller's own instructions, appended after the role's rules (ignored with `spec`). */
  instructions?: string;
  /** What a failure of the step means for the workflow; `'stop'` unless the factory says otherwise. */
  onFail?: OnFail;
  /** Reruns after a failed or rejected attempt; 0 by default. */
  retries?: number;
}
