/**
 * The Bash gate of a judge with `canRun: 'inspect'` (decisions.md D101): main-thread Bash runs only when it
 * inspects (`isInspectCommand`), so the judge can look at an artifact — run `file` on it, check its version —
 * but cannot "fix, then pass".
 *
 * @module
 */
import type { Guard, GuardDecision } from './guard.js';
import { isInspectCommand } from './inspect-command.js';
import { isMainThread } from './main-thread.js';

// Model-facing, so English and not in the UI catalog; short, because a denial stays in the transcript.
const DENIAL =
  'Bash here only inspects: glances (ls, cat, git status, …), file, ldd, otool -L, lipo -info, readelf -h, ' +
  'checksums, `<program> --version`. No writes, no cd. Judge from what these show.';

/**
 * A PreToolUse guard on Bash that allows inspection commands on the main thread and denies every other
 * command. Fail closed. Subagent calls pass (a judge has none; if one appears, its own rules apply).
 */
export function inspectGuard(): Guard {
  return {
    name: 'inspect',
    event: 'PreToolUse',
    matcher: 'Bash',
    failClosed: true,
    decide(input): GuardDecision {
      if (!isMainThread(input) || input.toolName !== 'Bash') return { action: 'pass' };
      const command = input.toolInput['command'];
      if (typeof command === 'string' && isInspectCommand(command)) return { action: 'allow' };
      return { action: 'deny', reason: DENIAL };
    },
  };
}
