/**
 * Driving a workflow from the command line, the same way for `go` and `run` (docs/workflows.md,
 * docs/human-channel.md, docs/cli.md): one renderer for the whole run; every event also goes to
 * `<runDir>/events.jsonl` (so
 * `flower ask` in another terminal sees the run) and to a recent-event window for side questions; the live
 * input line reads standard input for the whole run (answers, inbox, `?` side questions, the interrupt
 * message); SIGHUP and SIGTERM write the in-flight row; Ctrl-C is two-stage on a terminal and quits at once
 * without one (exit 130 after the rescue). At the end: wait (at most 120 s) for side questions still being
 * answered, the closing line, and for a failed step why it failed and exit 1.
 *
 * @module
 */
import { incompleteNote, RecordedFailures } from './recorded-failures.js';
import { uiText } from '../config/ui-text.js';
import type { HumanChannel } from '../human/human-channel.js';
import type { OracleAnswer } from '../workflow/ask-oracle.js';
import { RecentWindow } from '../human/recent-window.js';
import { watchAnswers } from '../human/answer-file.js';
import type { EventSink, FlowerEvent } from '../events/flower-event.js';
import { renderWidth } from '../render/display-width.js';
import { formatElapsed } from '../render/format-numbers.js';
import type { Runtime } from '../runtime/runtime.js';
import type { Ctx } from '../workflow/step.js';
import type { CommandContext } from './command-context.js';
import { explainFailure } from './explain-failure.js';
import { guardRunSignals, type RunSignals } from './interrupt-keys.js';
import { startLiveInput, type LiveInput } from './live-input.js';
import { answerSideQuestion } from './side-question.js';
import type { StartedCommand } from './start-run-command.js';
import { closingLine, closingText, continueLine, recordsPlace } from './stop-lines.js';
import { watchInterruptKey, type KeyInput } from './interrupt-key-watch.js';
import { teeEvents } from './tee-events.js';
import { jsonEventSink } from './json-events.js';

/** How long the end of a run waits for side questions still being answered (docs/human-channel.md). */
export const ASIDE_WAIT_MS = 120_000;

/**
 * What the driver needs of a workflow: a `Workflow`, or what `flower run` loaded from a user's module (which
 * may import its own copy of flower-agent; `loadTarget` checked its channel by shape).
 */
export interface DrivenWorkflow {
  run(rt: Runtime, options?: { onEvent?: EventSink | null }): Promise<Ctx>;
  /** The human channel its agents ask through; the live input line answers it. */
  readonly channel?: HumanChannel | null;
  /** Failures it recorded instead of throwing (a `Workflow` has them); shown as warnings. */
  readonly uiErrors?: readonly string[];
}

/** Options of {@link driveWorkflow}. */
export interface DriveWorkflowOptions {
  workflow: DrivenWorkflow;
  /** The runtime to run it on; closed by the driver. */
  runtime: Runtime;
  /** The command's renderer, its output relay, configuration and colour. */
  startup: StartedCommand;
  context: CommandContext;
  /** When the command started (milliseconds, the context's clock), for the elapsed time. */
  started: number;
  /** The lines after the closing line when a signal stops the run; default: the command that continues. */
  stopLines?: (signal: NodeJS.Signals) => string[];
  /**
   * A terminal's input with no live input line on it (the demo): Ctrl-C is read from it as a key, the first
   * press only warns and a second one stops the run.
   */
  quitKeys?: KeyInput;
  /** `--json`: every event also goes to stdout as one JSON line. */
  json?: boolean;
  /**
   * The warning when stdin is a pipe and the channel waits for answers: its advice must be something the
   * command has (`go`'s `--timeout 0`; `run` has no such flag, the workflow's channel sets it).
   */
  noTtyWarning?: 'warn.noTty' | 'warn.noTtyRun';
}

/**
 * Runs `workflow` on `runtime` and resolves to the exit code: 0 when every step passed, 1 after a failed
 * step, 130 after Ctrl-C quit the run (a signal target that does not end the process lets it return).
 */
export async function driveWorkflow(options: DriveWorkflowOptions): Promise<number> {
  const { workflow, runtime, startup, context } = options;
  const { io } = context;
  const { renderer, config } = startup;
  const lang = config.lang;
  const channel = workflow.channel ?? null;

  // Nobody can answer from a pipe; with --timeout 0 questions are settled at once, so that is fine
  // (decisions.md D216).
  if (channel !== null && !io.stdinIsTty && channel.timeoutS !== 0) {
    renderer.print(uiText(options.noTtyWarning ?? 'warn.noTty', {}, lang), 'yellow');
  }

  const window = new RecentWindow();
  const teed = teeEvents(renderer, runtime.runDir);
  const failures = new RecordedFailures(recordedLists(runtime, workflow, channel), (failure) =>
    renderer.print(uiText('warn.recordFailed', { e: failure }, lang), 'yellow'),
  );
  const json = options.json === true ? jsonEventSink(io.stdout) : null;
  const sink = (event: FlowerEvent): void => {
    json?.(event);
    window.sink(event);
    teed.sink(event);
    failures.flush();
  };
  const asides = new Set<Promise<OracleAnswer>>();
  const onSide = (question: string): void => {
    const answer = answerSideQuestion(question, {
      workspace: runtime.workspace,
      runDir: runtime.runDir,
      workbench: runtime.workbench,
      config,
      ...(context.backend === undefined ? {} : { backend: context.backend }),
      recent: () => window.lines(),
      print: (text, style) => renderer.print(text, style),
      // A pipe has no width: side answers are written whole there, as the event log is.
      width: io.stderr.isTTY === true ? renderWidth(io.stderr.columns) : Number.POSITIVE_INFINITY,
      lang,
    });
    asides.add(answer);
    void answer.finally(() => asides.delete(answer));
  };

  let live: LiveInput | null = null;
  const interactive = io.stdin !== undefined && io.stdinIsTty;
  // Stopped by Ctrl-C or a signal: the closing line and the command that continues, then the process ends.
  const farewell = (signal: NodeJS.Signals): void => {
    live?.close();
    startup.output.redirect(null);
    startup.footer?.attach(null);
    const elapsedS = ((context.now ?? Date.now)() - options.started) / 1000;
    renderer.print('');
    renderer.print(closingLine(runtime.totalCost(), recordsPlace(runtime), elapsedS, lang), 'dim');
    const lines = options.stopLines?.(signal) ?? [continueLine(signal, context.argv, lang)];
    for (const line of lines) renderer.print(line, 'yellow');
    renderer.close();
    keys?.close();
  };
  // Without a line to type into, a first Ctrl-C on a terminal only warns: one stray key must not end a run.
  let warned = false;
  const pressAgain = (): void => {
    if (warned) signals.quit();
    else renderer.print(uiText('quit.confirm', {}, lang), 'yellow');
    warned = true;
  };
  const signals: RunSignals = guardRunSignals({
    rescue: () => runtime.rescue(),
    ...(context.signals === undefined ? {} : { target: context.signals }),
    // SIGINT on a terminal is the first stage of Ctrl-C (cooked mode, or `kill -INT`); in character mode
    // the key arrives as a byte and the line handles it itself.
    onInterrupt: interactive
      ? () => live?.requestInterrupt()
      : options.quitKeys?.isTTY === true
        ? pressAgain
        : null,
    farewell,
  });
  const keys = interactive ? null : watchInterruptKey(options.quitKeys, pressAgain);
  if (io.stdin !== undefined) {
    live = startLiveInput({
      input: io.stdin,
      // Through the footer: without a prompt on screen the footer still draws itself under each line.
      output: startup.footer?.output ?? io.stderr,
      ...(startup.footer === null ? {} : { status: startup.footer.line.bind(startup.footer) }),
      channel,
      interrupt: (message) => {
        const accepted = runtime.interrupt(message);
        if (accepted) renderer.print(uiText('quit.interrupting', {}, lang), 'yellow');
        return accepted;
      },
      onSide,
      lang,
      onQuit: () => {
        live?.close();
        signals.quit();
      },
      characterMode: io.stdinIsTty,
      ...(context.now === undefined ? {} : { now: context.now }),
    });
    startup.output.redirect(live.output);
    // In character mode the prompt is the bottom line: the line draws the footer above it from now on.
    const drawing = live;
    if (io.stdinIsTty) startup.footer?.attach(() => drawing.refresh());
  }

  // Answers from the dashboard (another process, or this one with --dashboard) arrive through the run's
  // answer file and take the live line's own path into the channel (docs/dashboard.md).
  const filed =
    channel === null
      ? null
      : watchAnswers(runtime.runDir, (answer) => channel.answer(answer.askId, answer.text));

  let ctx: Ctx;
  try {
    ctx = await workflow.run(runtime, { onEvent: sink });
  } finally {
    filed?.close();
    signals.dispose();
    keys?.close();
    live?.close();
    startup.output.redirect(null);
    startup.footer?.attach(null);
    teed.close();
    await runtime.close();
    failures.flush();
  }
  // Quit by Ctrl-C (or killed by a signal): the rescue wrote the row; nothing more is said.
  if (signals.exitCode !== null) {
    renderer.close();
    return signals.exitCode;
  }

  await waitForAsides(asides, (count) => renderer.print(uiText('aside.waiting', { n: count }, lang), 'dim'));
  const now = context.now ?? Date.now;
  renderer.print('');
  renderer.print(
    `${closingText(runtime.totalCost(), recordsPlace(runtime), lang)} · ${formatElapsed((now() - options.started) / 1000)}${incompleteNote(failures, lang)}`,
    failures.count === 0 ? 'dim' : 'yellow',
  );
  const failedAt = ctx._failedAt;
  if (failedAt === undefined) {
    // Every step passed, but what the run wrote down is not what happened: the exit code must say so.
    if (failures.count > 0) {
      const vars = { n: failures.count, path: recordsPlace(runtime).path };
      renderer.print(uiText('err.recordIncomplete', vars, lang), 'red');
    }
    renderer.close();
    return failures.count > 0 ? 1 : 0;
  }
  const result = ctx._results?.[failedAt];
  if (result !== undefined && !result.ok) {
    await explainFailure(result, config, renderer, context, startup.color);
  } else if (typeof ctx._aborted === 'string' && ctx._aborted !== '') {
    // A gate gave up (e.g. an unreachable goal nobody decided on): its reason, not the step's result.
    renderer.print(ctx._aborted, 'red');
  } else if (ctx._verdict !== undefined && ctx._verdict.state !== 'ACHIEVED') {
    // Every round ran and the judge never said ACHIEVED: say so, and how to go on.
    const reason = ctx._verdict.reason === '' ? '-' : ctx._verdict.reason;
    renderer.print(uiText('verdict.roundsUsed', { n: ctx._goalRounds ?? 0, reason }, lang), 'red');
  }
  renderer.print(uiText('err.abortedAt', { step: failedAt }, lang), 'red');
  renderer.close();
  return 1;
}

/** Waits for the side questions still running, at most {@link ASIDE_WAIT_MS}, after saying how many. */
async function waitForAsides(
  asides: ReadonlySet<Promise<OracleAnswer>>,
  announce: (count: number) => void,
): Promise<void> {
  if (asides.size === 0) return;
  announce(asides.size);
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ASIDE_WAIT_MS);
    // A late answer is given up on; the timer must not keep the process alive on its own.
    timer.unref();
  });
  try {
    await Promise.race([Promise.allSettled([...asides]), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** The failure lists of the run: the runtime's, the workflow's and its human channel's, when they have one. */
function recordedLists(
  runtime: Runtime,
  workflow: DrivenWorkflow,
  channel: { uiErrors: readonly string[] } | null,
): Array<readonly string[]> {
  const lists: Array<readonly string[]> = [runtime.uiErrors];
  if (Array.isArray(workflow.uiErrors)) lists.push(workflow.uiErrors);
  if (channel !== null && Array.isArray(channel.uiErrors)) lists.push(channel.uiErrors);
  return lists;
}
