/**
 * A PreToolUse hook that holds every tool call until the spill files of the resume's load are on disk. The
 * session store hands the model pointers to those files before it has written them, so a long first
 * trimmed resume does not wait for thousands of writes; Claude Code runs no tool before every PreToolUse
 * hook has answered, so no `Read` (or `cat`) can look for a file that is not there yet.
 *
 * @module
 */
import type { HookCallback, HookJSONOutput } from '../agent/claude-sdk.js';
import type { HooksConfig } from './hooks.js';

/** Hooks that await `written()` before each tool call and leave the decision to the other hooks. */
export function spillsWrittenHooks(written: () => Promise<void>): HooksConfig {
  const callback: HookCallback = async (): Promise<HookJSONOutput> => {
    await written();
    return {};
  };
  return { PreToolUse: [{ hooks: [callback] }] };
}
