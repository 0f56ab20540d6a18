/**
 * What a person sees of retries and network waits. A failed attempt that flower retries used to show its
 * error (often two lines), a red `x failed` line and a status line before the retry line: five lines and a
 * red "failed" for something that was about to be fixed. The retry line names the attempt, the next one
 * ("attempt 2 of 6") and the error's first words, so the attempt's own error and result lines are held back
 * until the next event shows whether a retry follows — dropped if it does, shown as they were if not (the
 * manifest and `events.jsonl` keep every one of them either way).
 *
 * A wait for the network sends a countdown event after each failed probe. On a terminal each one replaces the
 * previous countdown line (one line, updated in place); into a pipe or a file every check is its own line,
 * with no cursor movement.
 *
 * @module
 */
import type { FlowerEvent } from '../events/flower-event.js';
import type { TerminalRenderer } from '../render/terminal-renderer.js';

/** Moves to the line above and clears it; once per row of the last countdown line. */
const CLEAR_ROW_ABOVE = '\u001b[1A\u001b[2K';

/** Events that never write a line: they do not end a hold or a countdown. */
const SILENT = new Set<FlowerEvent['kind']>(['cost', 'context', 'stream']);

/** The renderer's own output: the countdown's rows are counted on it and its cursor movement goes there. */
export interface ScreenOutput {
  write: (text: string) => unknown;
  readonly isTTY?: boolean;
}

/** `renderer` with retried attempts folded into their retry line and the countdown kept to one line. */
export function quietRetries(renderer: TerminalRenderer, output: ScreenOutput): TerminalRenderer {
  let held: FlowerEvent[] = [];
  // Rows of the countdown line last written, when nothing has been written after it; 0 otherwise.
  let countdownRows = 0;
  const flush = (): void => {
    const events = held;
    held = [];
    for (const event of events) renderer(event);
  };
  const sink = (event: FlowerEvent): void => {
    if (SILENT.has(event.kind)) {
      renderer(event);
      return;
    }
    if (isAttemptFailure(event)) {
      held.push(event);
      return;
    }
    if (event.kind === 'retry' && event.cause !== 'interrupt') held = [];
    else flush();
    if (event.kind !== 'waiting' || output.isTTY !== true) {
      renderer(event);
      countdownRows = 0;
      return;
    }
    if (countdownRows > 0) output.write(`${CLEAR_ROW_ABOVE.repeat(countdownRows)}\r`);
    countdownRows = rowsWritten(output, () => renderer(event));
  };
  const wrapped = sink as TerminalRenderer;
  wrapped.print = (text, style) => {
    flush();
    countdownRows = 0;
    renderer.print(text, style);
  };
  wrapped.line = (text) => {
    flush();
    countdownRows = 0;
    renderer.line(text);
  };
  Object.defineProperty(wrapped, 'state', { get: () => renderer.state });
  wrapped.close = () => {
    flush();
    renderer.close();
  };
  // Whatever else the renderer offers is the renderer's own.
  for (const key of Object.keys(renderer)) {
    if (!(key in wrapped)) Object.defineProperty(wrapped, key, { get: () => Reflect.get(renderer, key) });
  }
  return wrapped;
}

/** Runs `work` (synchronous writes to `output`) and counts the rows it wrote. */
function rowsWritten(output: ScreenOutput, work: () => void): number {
  const write = output.write;
  let rows = 0;
  output.write = (text: string) => {
    rows += text.split('\n').length - 1;
    return write.call(output, text);
  };
  try {
    work();
  } finally {
    output.write = write;
  }
  return rows;
}

/** The main thread's error lines and failed result: what a retry makes moot. */
function isAttemptFailure(event: FlowerEvent): boolean {
  if (event.kind === 'result') return event.isError;
  return event.kind === 'error' && !event.subagent;
}
