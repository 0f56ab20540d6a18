/**
 * What a person sees of retries and network waits. A failed attempt that flower retries used to show its
 * error (often two lines), a red `x failed` line and a status line before the retry line: five lines and a
 * red "failed" for something that was about to be fixed. The retry line names the attempt, the next one
 * ("attempt 2 of 6") and the error's first words, so the attempt's own error and result lines are held back
 * until the next event shows whether a retry follows — dropped if it does, shown as they were if not (the
 * manifest and `events.jsonl` keep every one of them either way).
 *
 * A wait for the network sends a countdown event after each failed probe. Into a pipe or a file every check
 * is its own line; on a terminal the status footer counts the wait down instead (see the renderer's
 * `countdownLines`), so no line here ever needs to be replaced.
 *
 * @module
 */
import type { FlowerEvent } from '../events/flower-event.js';
import type { TerminalRenderer } from '../render/terminal-renderer.js';

/** Events that never write a line: they do not end a hold. */
const SILENT = new Set<FlowerEvent['kind']>(['cost', 'context', 'stream']);

/** `renderer` with retried attempts folded into their retry line. */
export function quietRetries(renderer: TerminalRenderer): TerminalRenderer {
  let held: FlowerEvent[] = [];
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
    renderer(event);
  };
  const wrapped = sink as TerminalRenderer;
  wrapped.print = (text, style) => {
    flush();
    renderer.print(text, style);
  };
  wrapped.line = (text) => {
    flush();
    renderer.line(text);
  };
  Object.defineProperty(wrapped, 'state', { get: () => renderer.state });
  wrapped.close = () => {
    flush();
    renderer.close();
  };
  // Whatever else the renderer offers is the renderer's own.
  for (const key of Object.keys(renderer)) {
    if (!(key in wrapped))
      Object.defineProperty(wrapped, key, { get: (): unknown => Reflect.get(renderer, key) });
  }
  return wrapped;
}

/** The main thread's error lines and failed result: what a retry makes moot. */
function isAttemptFailure(event: FlowerEvent): boolean {
  if (event.kind === 'result') return event.isError;
  return event.kind === 'error' && !event.subagent;
}
