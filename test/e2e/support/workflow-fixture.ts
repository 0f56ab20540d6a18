/**
 * The workflow module the `flower run` end-to-end tests load: one step `work` whose agent may run Bash and
 * dispatch one subagent (`helper`, Bash only). It imports flower from the built `dist/`, as a user's
 * module would import the installed package.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = (path: string): string =>
  pathToFileURL(resolve(fileURLToPath(new URL('../../../dist/', import.meta.url)), path)).href;

/** The prompts of the step, so tests can find them in requests. */
export const WORK_PROMPT = 'Work through the numbered plan, one Bash step at a time.';
export const WORK_RESUME_PROMPT = 'Continue the plan where you stopped.';

/** Writes `flows.mjs` into `dir` and returns `flows.mjs:main`. */
export function writeWorkflow(dir: string): string {
  const source = `
import { Workflow } from '${dist('workflow/workflow.js')}';
import { step } from '${dist('workflow/step.js')}';
import { agentSpec } from '${dist('agent/agent-spec.js')}';

// Subagent tool calls carry an agent_id; the main thread is gated by flower's own whitelist.
const allow = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } };
const subagentTools = { hooks: [async (input) => (input.agent_id ? allow : {})] };

const worker = agentSpec({
  name: 'worker',
  instructions: 'Follow the plan exactly.',
  allowedTools: ['Bash', 'Agent'],
  tools: ['Bash', 'Agent'],
  agents: { helper: { description: 'Runs one side task.', prompt: 'You run one side task.', tools: ['Bash'] } },
  hooks: { PreToolUse: [subagentTools] },
});

export const main = () =>
  new Workflow([step('work', worker, ${JSON.stringify(WORK_PROMPT)}, { resumePrompt: ${JSON.stringify(WORK_RESUME_PROMPT)} })]);
`;
  writeFileSync(join(dir, 'flows.mjs'), source);
  return 'flows.mjs:main';
}
