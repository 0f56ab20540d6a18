/**
 * `oracle()`: a read-only side channel that answers a human's question about a run that is still going
 * (docs/roles.md). It runs on its own runtime and store; its answer is discarded, so nothing
 * it says enters the run's context (answering in the coordinator would keep the Q&A in its decision context
 * forever and stall the work).
 *
 * @module
 */
import { agentSpec, type AgentSpec } from '../agent/agent-spec.js';
import { loadPrompt } from '../internal/load-prompt.js';
import { workbenchPlaces, type WorkbenchLike } from '../workbench/workbench-places.js';

/** Options of {@link oracle}. */
export interface OracleOptions {
  /** Default 12: a passing question must not run away. */
  maxTurns?: number;
  /** Default 0.5 USD. */
  maxBudgetUsd?: number;
  /** The caller's own instructions, appended after the role's rules. */
  instructions?: string;
  /** The run's workbench, whose paths the rule text names (decisions.md D113); none: the default location. */
  workbench?: WorkbenchLike | null;
}

/**
 * An oracle spec: Read, Glob and Grep, with the workbench block (the only role besides the coordinator
 * that gets it), no channel, and `dontAsk` so nothing else can run (decisions.md D106).
 */
export function oracle(name = 'aside', options: OracleOptions = {}): AgentSpec {
  const rules = [loadPrompt('oracle', workbenchPlaces(options.workbench))];
  if (options.instructions !== undefined && options.instructions.trim() !== '')
    rules.push(options.instructions.trim());
  return agentSpec({
    name,
    instructions: rules.join('\n\n'),
    tools: ['Read', 'Glob', 'Grep'],
    allowedTools: ['Read', 'Glob', 'Grep'],
    permissionMode: 'dontAsk',
    maxTurns: options.maxTurns ?? 12,
    maxBudgetUsd: options.maxBudgetUsd ?? 0.5,
    workbench: true,
    delegateOnly: false,
  });
}
