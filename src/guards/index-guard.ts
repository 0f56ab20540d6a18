/**
 * Keeps INDEX.md current (docs/guards.md and decisions.md D115): after a write into the workbench, the index
 * is rewritten, so the next session's workbench block lists the new script. The reference watched only
 * Write and Edit with a substring test; a script made by `cat > … <<EOF` or a notebook edit went unlisted.
 *
 * @module
 */
import { resolve } from 'node:path';

import { isPathInsideAny } from '../workbench/path-inside.js';
import type { Workbench } from '../workbench/workbench.js';
import { isEphemeral } from './ephemeral-command.js';
import type { Guard, GuardDecision, ToolHookInput } from './guard.js';

/** The tools that can add or change a workbench file. */
export const INDEX_TOOLS = 'Write|Edit|NotebookEdit|Bash';

/**
 * A PostToolUse guard that calls `workbench.refresh()` after a Write, Edit or NotebookEdit whose file lies
 * inside the workbench (resolved against the call's cwd), and after any Bash command that is not a
 * side-effect-free look (a shell command is not parsed for the files it writes; an unchanged index is not
 * rewritten, so this is cheap). Always passes; a failed refresh is swallowed.
 */
export function indexGuard(workbench: Workbench): Guard {
  return {
    name: 'index',
    event: 'PostToolUse',
    matcher: INDEX_TOOLS,
    failClosed: false,
    decide(input): GuardDecision {
      try {
        if (touchesWorkbench(input, workbench)) workbench.refresh();
      } catch {
        // A stale index is better than a failed tool call; the runtime refreshes again before each attempt.
      }
      return { action: 'pass' };
    },
  };
}

function touchesWorkbench(input: ToolHookInput, workbench: Workbench): boolean {
  if (input.toolName === 'Bash') {
    const command = input.toolInput['command'];
    return typeof command === 'string' && !isEphemeral(command);
  }
  const key = input.toolName === 'NotebookEdit' ? 'notebook_path' : 'file_path';
  const path = input.toolInput[key];
  if (typeof path !== 'string' || path === '') return false;
  return isPathInsideAny(resolve(input.cwd, path), [workbench.root]);
}
