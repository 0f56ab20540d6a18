/**
 * `flower demo` (decisions.md D16): the whole go path against the scripted model bundled with the package,
 * in a scratch folder, with no credentials and no cost. The work is in `src/cli/run-demo.ts`; this is the
 * command's entry, kept beside the other commands.
 *
 * @module
 */
import { runDemo } from '../run-demo.js';
import type { CommandContext } from '../command-context.js';
import type { GlobalOptions } from '../program.js';

/** Runs `flower demo`; resolves to the exit code (0 when the whole go path passed). */
export function demoCommand(globals: GlobalOptions, context: CommandContext): Promise<number> {
  return runDemo(globals, context);
}
