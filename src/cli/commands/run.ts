/**
 * `flower run <module>:<export>` (cli-and-config.md §1.5): runs a workflow the user wrote, driven as `go`
 * drives its own: credentials first, then the target is loaded; one renderer for the whole run; SIGHUP and
 * SIGTERM write the in-flight row and leave the session resumable; the closing line gives this process's
 * cost and the manifest; a failed step says why and exits 1. `-b` caps the whole run (decision 25), `-T`
 * trims old large results on resume. A rerun of the same command resumes each step's session (lineage).
 *
 * @module
 */
import { loadConfig } from '../../config/load-config.js';
import { uiText } from '../../config/ui-text.js';
import { formatElapsed } from '../../render/format-numbers.js';
import { commandRuntime, startRunCommand } from '../start-run-command.js';
import type { StepResult } from '../../runtime/step-result.js';
import type { Ctx } from '../../workflow/step.js';
import type { CommandContext } from '../command-context.js';
import { explainFailure } from '../explain-failure.js';
import { loadTarget } from '../load-target.js';
import type { GlobalOptions } from '../program.js';
import { guardSignals } from '../signals.js';

/** `run` options, as parsed. */
export interface RunCommandOptions {
  budget?: number;
}

/** Runs `flower run`; resolves to the exit code. Throws `FlowerError` for deliberate stops before the run. */
export async function runCommand(
  target: string,
  options: RunCommandOptions,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const now = context.now ?? Date.now;
  const started = now();
  let config = loadConfig({ env: io.env, cwd: io.cwd });
  const startup = await startRunCommand(config, globals, context);
  config = startup.config;
  const { renderer, color } = startup;
  const workflow = await loadTarget(target, io.cwd, config.lang);

  const runtime = commandRuntime(config, globals, context, { budgetUsd: options.budget ?? null });
  const signals = guardSignals(() => runtime.rescue(), context.signals);
  let ctx: Ctx;
  try {
    ctx = await workflow.run(runtime, { onEvent: renderer });
  } finally {
    signals.dispose();
    runtime.close();
  }

  const elapsed = formatElapsed((now() - started) / 1000);
  renderer.print('');
  renderer.print(
    `${uiText('close', { c: runtime.totalCost().toFixed(4), path: runtime.manifestPath }, config.lang)} · ${elapsed}`,
    'dim',
  );
  const failedAt = ctx._failedAt;
  if (failedAt === undefined) {
    renderer.close();
    return 0;
  }
  const result: StepResult | undefined = ctx._results?.[failedAt];
  if (result !== undefined) await explainFailure(result, config, renderer, context, color);
  renderer.print(uiText('err.abortedAt', { step: failedAt }, config.lang), 'red');
  renderer.close();
  return 1;
}
