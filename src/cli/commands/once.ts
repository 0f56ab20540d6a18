/**
 * `flower once <prompt>` (docs/cli.md): one agent, no workflow, no verdict. The spec is named
 * `ad-hoc`, which is also its manifest step. One renderer serves the whole run, so the status line's totals
 * and elapsed time accumulate (the reference made a new renderer per event, so both stayed at zero:
 * decisions.md D203); a failed step prints why and exits 1 (decisions.md D209).
 *
 * @module
 */
import { join } from 'node:path';
import { agentSpec } from '../../agent/agent-spec.js';
import { loadConfig, type FlowerConfig } from '../../config/load-config.js';
import { uiText } from '../../config/ui-text.js';
import { FlowerError } from '../../errors.js';
import { formatElapsed } from '../../render/format-numbers.js';
import { commandRuntime, startRunCommand } from '../start-run-command.js';
import type { StepResult } from '../../runtime/step-result.js';
import type { CommandContext } from '../command-context.js';
import { explainFailure } from '../explain-failure.js';
import { classifyFailure, failureText } from '../failure-reason.js';
import { incompleteNote, RecordedFailures } from '../recorded-failures.js';
import type { GlobalOptions, OnceOptions } from '../program.js';
import { watchInterruptKey } from '../interrupt-key-watch.js';
import { guardRunSignals } from '../interrupt-keys.js';
import { closingLine, closingText, continueLine, recordsPlace, resumeOnceWords } from '../stop-lines.js';
import { jsonEventSink } from '../json-events.js';

/** The step name of every `once` run (docs/cli.md). */
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

  const startup = await startRunCommand(config, globals, context);
  config = startup.config;
  const { renderer, color } = startup;
  // -W: the step gets the workbench in the run directory (index in its first message, big results spilled).
  const runtime = await commandRuntime(config, globals, context, { workbench: globals.workbench === true });
  const spec = agentSpec({
    name: ONCE_STEP,
    instructions: options.instructions ?? '',
    allowedTools: options.tools,
    tools: options.tools,
    permissionMode: options.permissionMode,
    maxBudgetUsd: options.budget ?? null,
  });
  // A session that is not stored here cannot be resumed: without this check the SDK's refusal was retried
  // and the closing line then offered the id of a new, empty session.
  if (options.resume !== undefined && !(await runtime.hasSession(options.resume))) {
    await runtime.close();
    renderer.close();
    throw new FlowerError(
      'USAGE',
      uiText('err.noSuchSession', { id: options.resume, path: storeShown(runtime) }, config.lang),
    );
  }
  const failures = new RecordedFailures([runtime.uiErrors], (failure) =>
    renderer.print(uiText('warn.recordFailed', { e: failure }, config.lang), 'yellow'),
  );
  // Stopped by Ctrl-C or a signal: the closing line, then the command that continues in the same session.
  const farewell = (signal: NodeJS.Signals): void => {
    renderer.print('');
    const elapsedS = (now() - started) / 1000;
    renderer.print(closingLine(runtime.totalCost(), recordsPlace(runtime), elapsedS, config.lang), 'dim');
    const sessionId = runtime.results.at(-1)?.sessionId ?? null;
    const words = context.argv === undefined ? undefined : resumeOnceWords(context.argv, sessionId);
    renderer.print(continueLine(signal, words, config.lang), 'yellow');
    renderer.close();
    keys?.close();
  };
  // On a terminal a first Ctrl-C only warns (one stray key must not end a paid run); a second one stops.
  let warned = false;
  const pressAgain = (): void => {
    if (warned) signals.quit();
    else renderer.print(uiText('quit.confirm', {}, config.lang), 'yellow');
    warned = true;
  };
  const signals = guardRunSignals({
    rescue: () => runtime.rescue(),
    ...(context.signals === undefined ? {} : { target: context.signals }),
    onInterrupt: io.stdinIsTty ? pressAgain : null,
    farewell,
  });
  // The key itself, so that the agent's turn is not broken off by a SIGINT to the whole process group.
  const keys = io.stdinIsTty ? watchInterruptKey(io.stdin, pressAgain) : null;
  const json = options.json === true ? jsonEventSink(io.stdout) : null;
  let result: StepResult;
  try {
    result = await runtime.run(spec, prompt, {
      stepName: ONCE_STEP,
      resume: options.resume ?? null,
      fork: options.fork === true,
      onEvent: (event) => {
        json?.(event);
        renderer(event);
        failures.flush();
      },
    });
  } finally {
    signals.dispose();
    keys?.close();
    await runtime.close();
    failures.flush();
  }

  // The answer is the command's result: when stdout is not the terminal, it goes there (once) so
  // `flower once "…" > answer.txt` works; the event log above went to stderr. With --json stdout holds
  // events only: the answer is already there, as the main thread's `text` events.
  if (json === null && result.ok && result.text !== '' && io.stdout.isTTY !== true)
    io.stdout.write(`${result.text}\n`);

  const elapsed = formatElapsed((now() - started) / 1000);
  renderer.print('');
  renderer.print(
    `${closingText(runtime.totalCost(), recordsPlace(runtime), config.lang)} · ${elapsed}${incompleteNote(failures, config.lang)}`,
    failures.count === 0 ? 'dim' : 'yellow',
  );
  // A rejected key ends the session before it did anything worth continuing: the way on is `flower setup`.
  if (result.sessionId !== null && !(!result.ok && classifyFailure(failureText(result)) === 'credentials'))
    renderer.print(uiText('once.resume', { id: result.sessionId }, config.lang), 'dim');
  if (result.ok && failures.count > 0) {
    const vars = { n: failures.count, path: recordsPlace(runtime).path };
    renderer.print(uiText('err.recordIncomplete', vars, config.lang), 'red');
    renderer.close();
    return 1;
  }
  if (result.ok) {
    renderer.close();
    return 0;
  }
  await explainFailure(result, config, renderer, context, color);
  // `once` has one step, and its internal name means nothing to the person who typed the command.
  renderer.print(uiText('err.onceStopped', {}, config.lang), 'red');
  renderer.close();
  return 1;
}

/** Where the runtime's transcripts are, as a person may see it: the redacted server location, or the file. */
function storeShown(runtime: { store: object; runDir: string }): string {
  const location = (runtime.store as { location?: unknown }).location;
  return typeof location === 'string' ? location : join(runtime.runDir, 'sessions.db');
}
