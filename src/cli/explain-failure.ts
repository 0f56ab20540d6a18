/**
 * Why a step failed, said once after the closing line (docs/cli.md): a credential problem names
 * `flower setup` (and, on a terminal, runs it with the after-failure reason), overload and rate limits say
 * to wait, anything else shows the error text. A spent budget already had its own line (the `budget`
 * event), so nothing more is said about it.
 *
 * @module
 */
import type { FlowerConfig } from '../config/load-config.js';
import { uiText } from '../config/ui-text.js';
import type { TerminalRenderer } from '../render/terminal-renderer.js';
import type { StepResult } from '../runtime/step-result.js';
import type { CommandContext } from './command-context.js';
import { classifyFailure, failureText } from './failure-reason.js';

/** Prints why `result` failed and, for a credential problem on a terminal, offers setup. */
export async function explainFailure(
  result: StepResult,
  config: FlowerConfig,
  renderer: TerminalRenderer,
  context: CommandContext,
  color: boolean,
): Promise<void> {
  if (result.outcome.kind === 'budget') return;
  const text = failureText(result);
  switch (classifyFailure(text)) {
    case 'credentials': {
      renderer.print(uiText('fail.cred', { e: text.slice(0, 120) }, config.lang), 'red');
      if (!context.io.stdinIsTty) {
        renderer.print(uiText('fail.credHint', {}, config.lang), 'yellow');
        return;
      }
      const request = { config, reason: 'setup.reason.afterFail' as const };
      const write = (line: string): void => renderer.line(line);
      // The dialogue's module (and the prompt library under it) loads only here, not with every run.
      const setup = await (context.setup
        ? context.setup(request)
        : import('./commands/setup.js').then(({ runSetup }) =>
            runSetup({ ...request, isTty: true, write, color }),
          ));
      if (setup.completed) renderer.print(uiText('fail.reconfigured', {}, config.lang), 'green');
      else renderer.print(uiText('fail.credHint', {}, config.lang), 'yellow');
      return;
    }
    case 'overloaded':
      renderer.print(uiText('fail.overloaded', { e: text.slice(0, 120) }, config.lang), 'red');
      return;
    case 'rate_limited':
      renderer.print(uiText('fail.rateLimited', { e: text.slice(0, 120) }, config.lang), 'red');
      return;
    case 'spawn':
      // The Node error may quote the refused value (a secret from .env): show only its first line's head.
      renderer.print(uiText('fail.spawn', { e: spawnReason(text) }, config.lang), 'red');
      return;
    case 'other':
      renderer.print(uiText('fail.other', { e: text.slice(0, 200) }, config.lang), 'red');
      return;
  }
}

/** The part of a spawn failure worth showing: `spawn E2BIG`, or the refusal without the value it quotes. */
function spawnReason(text: string): string {
  return text.replace(/\.?\s*Received\b[\s\S]*$/, '').slice(0, 120);
}
