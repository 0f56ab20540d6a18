// Texts a scripted model replies with on the go path (brief, goal, verdict), and a Runtime on the scripted
// backend that shares a given workspace and workbench, for the tests of src/workflow's go-path steps.
import { Runtime } from '../../src/runtime/runtime.js';
import { ScriptedBackend, type ScriptedStep } from '../../src/testing/scripted-backend.js';
import type { Workbench } from '../../src/workbench/workbench.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };

/** A clarifier's reply holding a complete brief. */
export const BRIEF_REPLY = [
  '## Goal',
  'A CLI that prints the date, for shell scripts.',
  '## Acceptance criteria',
  '- run `date-cli` → see today in ISO form',
  '## Boundaries',
  'No network access.',
  '## Unknowns and assumptions',
  '- Time zone: not asked; assume UTC.',
].join('\n');

/** A judge's job-A reply: a goal with `checks` as its checklist. */
export function goalReply(
  checks: readonly string[],
  statement = 'date-cli prints today in ISO form.',
): string {
  return ['## Goal', statement, '## Checklist', ...checks.map((check) => `- ${check}`)].join('\n');
}

/** A judge's job-B reply. */
export function verdictReply(state: string, reason: string, failed: readonly string[] = []): string {
  const items = failed.length === 0 ? ['(none)'] : failed.map((item) => `- ${item}`);
  return ['## Conclusion', state, '## Reason', reason, '## Failed', ...items].join('\n');
}

/**
 * A Runtime (no resilience) on a scripted backend in `workspace`, with the workbench when given. The scripted
 * backend stores no sessions, so every session counts as alive. Close it after the test.
 */
export function scriptedRuntime(
  workspace: string,
  steps: ScriptedStep[],
  options: { workbench?: Workbench; runDir?: string } = {},
): { rt: Runtime; backend: ScriptedBackend } {
  const backend = new ScriptedBackend(steps);
  const rt = new Runtime({
    workspace,
    config,
    backend,
    resilience: false,
    ...(options.workbench === undefined ? {} : { workbench: options.workbench }),
    ...(options.runDir === undefined ? {} : { runDir: options.runDir }),
  });
  Object.assign(rt, { hasSession: () => true });
  return { rt, backend };
}

/** A complete four-section brief for a shell clock, as the CLI tests of `go` freeze it. */
export const CLOCK_BRIEF = [
  '## Goal',
  'A clock for the shell.',
  '## Acceptance criteria',
  '- run `clock` → see the time',
  '## Boundaries',
  'No network.',
  '## Unknowns and assumptions',
  '- Time zone: assume UTC.',
].join('\n');
