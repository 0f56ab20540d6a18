/**
 * Signals during a run (cli-and-config.md §2.5, runtime.md §5): SIGHUP and SIGTERM write the in-flight step
 * to the manifest (`killed-by-signal`), then re-raise the signal so the process dies by it — a terminal
 * crash sends SIGHUP, whose default action skips every `finally`, and one reference run left no manifest
 * at all. Ctrl-C (SIGINT) rescues the same way and exits 130. Nothing is printed: the terminal may be gone.
 * (The first-press interrupt that opens the input line comes with the input-line issue.)
 *
 * @module
 */

/** The part of `process` the guard uses; tests pass an event emitter. */
export interface SignalTarget {
  readonly pid: number;
  readonly platform: string;
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
  kill(pid: number, signal: NodeJS.Signals): unknown;
  exit(code: number): unknown;
}

/** Installed handlers; `dispose()` removes them (call it in `finally`). */
export interface SignalGuard {
  dispose(): void;
}

/** Exit code after Ctrl-C, as shells report death by SIGINT. */
export const SIGINT_EXIT_CODE = 130;

/**
 * Installs one-shot handlers that call `rescue()` (synchronous, never throws), remove themselves, and then
 * re-raise SIGHUP/SIGTERM or exit 130 for SIGINT. SIGHUP is skipped on Windows, which does not have it.
 */
export function guardSignals(rescue: () => void, target: SignalTarget = process): SignalGuard {
  const signals: NodeJS.Signals[] =
    target.platform === 'win32' ? ['SIGTERM', 'SIGINT'] : ['SIGHUP', 'SIGTERM', 'SIGINT'];
  const listeners = new Map<NodeJS.Signals, () => void>();
  const dispose = (): void => {
    for (const [signal, listener] of listeners) target.off(signal, listener);
    listeners.clear();
  };
  for (const signal of signals) {
    const listener = (): void => {
      rescue();
      dispose();
      if (signal === 'SIGINT') target.exit(SIGINT_EXIT_CODE);
      else target.kill(target.pid, signal);
    };
    listeners.set(signal, listener);
    target.on(signal, listener);
  }
  return { dispose };
}
