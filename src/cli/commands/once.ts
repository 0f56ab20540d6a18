/**
 * `flower once <prompt>` (cli-and-config.md §1.6): one agent, no workflow, no verdict. The spec is named
 * `ad-hoc`, which is also its manifest step. One renderer serves the whole run, so the status line's totals
 * and elapsed time accumulate (reference issue #14); a failed step prints why and exits 1 (§12 D9).
 *
 * @module
 */
import { resolve } from 'node:path';
import { agentSpec } from '../../agent/agent-spec.js';
import { homeDirectory } from '../../config/config-dir.js';
import { describeConfig } from '../../config/describe-config.js';
import { loadConfig, type FlowerConfig } from '../../config/load-config.js';
import { uiText } from '../../config/ui-text.js';
import { FlowerError } from '../../errors.js';
import { formatElapsed } from '../../render/format-numbers.js';
import { createTerminalRenderer } from '../../render/terminal-renderer.js';
import { Runtime } from '../../runtime/runtime.js';
import type { StepResult } from '../../runtime/step-result.js';
import { useColor } from '../cli-io.js';
import type { CommandContext } from '../command-context.js';
import { ensureCredentials } from '../ensure-credentials.js';
import { explainFailure } from '../explain-failure.js';
import type { GlobalOptions, OnceOptions } from '../program.js';
import { guardSignals } from '../signals.js';

/** The step name of every `once` run (api.md §5). */
export const ONCE_STEP = 'ad-hoc';

/** Runs `flower once`; resolves to the exit code. Throws `FlowerError` for deliberate stops before the run. */
export async function onceCommand(
  prompt: string,
  options: OnceOptions,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const now = context.now ?? Date.now;
  const started = now();
  if (options.fork === true && options.resume === undefined) {
    throw new FlowerError('USAGE', uiText('err.forkNeedsResume'));
  }
  let config: FlowerConfig = loadConfig({ env: io.env, cwd: io.cwd });
  if (prompt.trim() === '') throw new FlowerError('EMPTY_REQUEST', uiText('err.noAsk', {}, config.lang));

  const color = useColor(io.stderr, config.env);
  const renderer = createTerminalRenderer({
    verbose: globals.verbose === true,
    output: io.stderr,
    color,
    lang: config.lang,
    home: homeDirectory(config.env),
    now,
  });
  for (const warning of config.warnings) renderer.print(warning, 'yellow');
  if (globals.verbose === true) for (const line of describeConfig(config)) renderer.print(line, 'dim');
  config = await ensureCredentials({
    config,
    isTty: io.stdinIsTty,
    write: (line) => renderer.line(line),
    color,
    ...(context.setup ? { setup: context.setup } : {}),
  });

  const runtime = new Runtime({
    workspace: resolve(io.cwd, globals.workspace),
    ...(globals.runDir === undefined ? {} : { runDir: resolve(io.cwd, globals.runDir) }),
    config,
    trim: globals.trim === true,
    ...(context.backend ? { backend: context.backend } : {}),
    ...(context.resilience ? { resilience: context.resilience } : {}),
  });
  const spec = agentSpec({
    name: ONCE_STEP,
    instructions: options.instructions ?? '',
    allowedTools: options.tools,
    tools: options.tools,
    permissionMode: options.permissionMode,
    maxBudgetUsd: options.budget ?? null,
  });
  const signals = guardSignals(() => runtime.rescue(), context.signals);
  let result: StepResult;
  try {
    result = await runtime.run(spec, prompt, {
      stepName: ONCE_STEP,
      resume: options.resume ?? null,
      fork: options.fork === true,
      onEvent: renderer,
    });
  } finally {
    signals.dispose();
    runtime.close();
  }

  // The answer is the command's result: when stdout is not the terminal, it goes there (once) so
  // `flower once "…" > answer.txt` works; the event log above went to stderr.
  if (result.ok && result.text !== '' && io.stdout.isTTY !== true) io.stdout.write(`${result.text}\n`);

  const elapsed = formatElapsed((now() - started) / 1000);
  renderer.print('');
  renderer.print(
    `${uiText('close', { c: runtime.totalCost().toFixed(4), path: runtime.manifestPath }, config.lang)} · ${elapsed}`,
    'dim',
  );
  if (result.sessionId !== null)
    renderer.print(uiText('once.resume', { id: result.sessionId }, config.lang), 'dim');
  if (result.ok) {
    renderer.close();
    return 0;
  }
  await explainFailure(result, config, renderer, context, color);
  renderer.print(uiText('err.abortedAt', { step: ONCE_STEP }, config.lang), 'red');
  renderer.close();
  return 1;
}
