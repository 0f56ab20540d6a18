/**
 * Signals while a workflow runs (docs/runtime.md, decisions.md D12). SIGHUP and SIGTERM always rescue the
 * in-flight row and re-raise ({@link guardSignals}). Ctrl-C depends on whether a human can type:
 *
 * - with a terminal and a live input line, a SIGINT is the first stage of the two-stage Ctrl-C — it goes to
 *   the line ({@link RunSignalsOptions.onInterrupt}), which asks the runtime to stop at the next message
 *   boundary and opens its interrupt prompt; the line decides when a press means "quit" (a second press
 *   within 2 s, or any press while the prompt is open) and calls {@link RunSignals.quit}. In character mode
 *   the key arrives as the byte 0x03 rather than a signal, and the line routes it the same way;
 * - without one, the first Ctrl-C quits at once, as Node's default would, but after the rescue.
 *
 * Quitting writes the in-flight step as `killed-by-signal`, removes the handlers, says the `farewell` (the
 * closing line and the command that continues) and exits 130: the session stays resumable. Beyond that
 * synchronous rescue and those few synchronous lines the handler does no I/O (waiting on anything there
 * froze the reference's event loop). SIGHUP and SIGTERM say the same farewell before the signal
 * is raised again.
 *
 * @module
 */
import { constants } from 'node:os';
import { guardSignals, sayFarewell, SIGINT_EXIT_CODE, type Farewell, type SignalTarget } from './signals.js';

/** Options of {@link guardRunSignals}. */
export interface RunSignalsOptions {
  /** Writes the in-flight row (`Runtime.rescue`): synchronous, never throws. */
  rescue: () => void;
  /** Receives the handlers; `process` by default. */
  target?: SignalTarget;
  /** A SIGINT's first stage (the live line's `requestInterrupt`); null: Ctrl-C quits at once. */
  onInterrupt: (() => void) | null;
  /** Said after the rescue, before the process ends: the closing line and how to continue. */
  farewell?: Farewell;
}

/** The installed handlers. */
export interface RunSignals {
  /** Ctrl-C meaning "quit": rescue, remove the handlers, exit 130. Idempotent. */
  quit(): void;
  /**
   * The exit code a handler chose (130 after a quit, 128 + n after signal n was re-raised), or null. In a
   * real process it is never read — the process is gone — but a caller whose target does not end the
   * process (tests) returns it.
   */
  readonly exitCode: number | null;
  /** Removes the handlers (call it in `finally`). */
  dispose(): void;
}

/** Installs the run's signal handlers; see the module comment. */
export function guardRunSignals(options: RunSignalsOptions): RunSignals {
  const target = options.target ?? process;
  const onInterrupt = options.onInterrupt;
  let exitCode: number | null = null;
  let ended = false;
  // The guard's own SIGINT handler quits at once; with a live line the first press must not.
  const relayed: SignalTarget = {
    pid: target.pid,
    platform: target.platform,
    on: (signal, listener) =>
      onInterrupt !== null && signal === 'SIGINT' ? target : target.on(signal, listener),
    off: (signal, listener) =>
      onInterrupt !== null && signal === 'SIGINT' ? target : target.off(signal, listener),
    kill: (pid, signal) => {
      ended = true;
      exitCode = 128 + (constants.signals[signal] ?? 0);
      return target.kill(pid, signal);
    },
    exit: (code) => {
      ended = true;
      exitCode = code;
      return target.exit(code);
    },
  };
  const guard = guardSignals(options.rescue, relayed, options.farewell);
  const interrupt = (): void => onInterrupt?.();
  if (onInterrupt !== null) target.on('SIGINT', interrupt);
  const dispose = (): void => {
    guard.dispose();
    if (onInterrupt !== null) target.off('SIGINT', interrupt);
  };
  return {
    quit(): void {
      if (ended) return;
      ended = true;
      options.rescue();
      dispose();
      sayFarewell(options.farewell, 'SIGINT');
      exitCode = SIGINT_EXIT_CODE;
      target.exit(SIGINT_EXIT_CODE);
    },
    get exitCode() {
      return exitCode;
    },
    dispose,
  };
}
