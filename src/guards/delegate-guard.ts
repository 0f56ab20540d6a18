/**
 * The coordinator's wall (docs/guards.md, decisions.md D105, D106): on the main thread it approves the tools
 * of delegation and reading — and, with glance, Bash commands that are side-effect-free looks — and denies
 * everything else, so hands-on work has to go to a worker. Installed whenever a spec is `delegateOnly`,
 * with or without a workbench (the reference installed it only with a workbench, which left a coordinator
 * without one unwalled).
 *
 * Deny by default, not a list of banned tools (decisions.md D106): newer harness tools and `WebFetch` would
 * otherwise fall through to the permission layer. Subagent calls pass untouched: `allowedTools` and
 * `disallowedTools` are session-scoped, so shaping the coordinator with them would also disable its
 * workers (measured in the reference).
 *
 * @module
 */
import { loadPrompt } from '../internal/load-prompt.js';
import { workbenchPlaces, type WorkbenchLike } from '../workbench/workbench-places.js';
import { isEphemeral } from './ephemeral-command.js';
import type { Guard, GuardDecision } from './guard.js';
import { ASK_TOOL, INBOX_TOOL } from './human-tool-names.js';
import { isMainThread } from './main-thread.js';
import { HANDS_ON, TASK_LIST_TOOLS } from './tool-groups.js';

/**
 * The tools a coordinator uses itself: dispatching (`SendMessage` continues a dispatched worker, so it is
 * delegation too), planning, reading, and the human channel.
 */
export const DELEGATE_ALLOWED: readonly string[] = Object.freeze([
  'Agent',
  'SendMessage',
  ...TASK_LIST_TOOLS,
  'Read',
  'Glob',
  'Grep',
  ASK_TOOL,
  INBOX_TOOL,
]);

/** Options of {@link delegateGuard}. */
export interface DelegateGuardOptions {
  /**
   * The hands-on tools, whose denial says the work belongs to a worker: a list (preferred) or one
   * `|`-separated string (the form the public API first listed). Default {@link HANDS_ON}.
   */
  tools?: readonly string[] | string;
  /** Let Bash through when the command is a glance (`isEphemeral`). Default false. */
  allowGlance?: boolean;
  /**
   * The workbench whose artifacts folder the denial names (decisions.md D113); none: the default location.
   */
  workbench?: WorkbenchLike | null;
}

/**
 * A PreToolUse guard on every tool (matcher `''`, so nothing slips past), fail closed. Main thread: the
 * tools in {@link DELEGATE_ALLOWED} and, with `allowGlance`, glance Bash are approved; everything else is
 * denied with directions to dispatch a worker. Subagents: pass.
 */
export function delegateGuard(options: DelegateGuardOptions = {}): Guard {
  const tools = options.tools ?? HANDS_ON;
  const handsOn = new Set(
    (typeof tools === 'string' ? tools.split('|') : tools).filter((tool) => tool !== ''),
  );
  const allowGlance = options.allowGlance ?? false;
  // Denial texts are read by the model, not the user: English, in src/roles/prompts/ with the other texts the
  // model reads, not the UI catalog. Short on purpose: a denial stays in the transcript (the reference
  // measured ~273 characters per denied call).
  const dispatch = loadPrompt('delegate-dispatch', {
    artifacts: workbenchPlaces(options.workbench).artifacts,
  });
  const glanceOnly = loadPrompt('delegate-glance-only');
  const allowed = new Set(DELEGATE_ALLOWED);
  return {
    name: 'delegate',
    event: 'PreToolUse',
    matcher: '',
    failClosed: true,
    decide(input): GuardDecision {
      if (!isMainThread(input)) return { action: 'pass' };
      const tool = input.toolName;
      if (allowed.has(tool)) return { action: 'allow' };
      if (tool === 'Bash' && allowGlance) {
        const command = input.toolInput['command'];
        if (typeof command === 'string' && isEphemeral(command)) return { action: 'allow' };
        return { action: 'deny', reason: `${glanceOnly} ${dispatch}` };
      }
      const opening = loadPrompt(handsOn.has(tool) ? 'delegate-hands-on' : 'delegate-unavailable', { tool });
      return { action: 'deny', reason: `${opening} ${dispatch}` };
    },
  };
}
