/**
 * Signals during a run (docs/runtime.md): SIGHUP and SIGTERM write the in-flight step
 * to the manifest (`killed-by-signal`), then re-raise the signal so the process dies by it — a terminal
 * crash sends SIGHUP, whose default action skips every `finally`, and one reference run left no manifest
 * at all. Ctrl-C (SIGINT) rescues the same way and exits 130. After the rescue a `farewell` may write the
 * closing line (cost, elapsed time, manifest) and the command that continues: a person who stopped a run
 * wants to know what it cost and how to go on. It is written synchronously and may fail (the terminal may
 * be gone after a SIGHUP); the rescue has already happened by then.
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

/** Words written after the rescue, before the process ends; told which signal ended the run. */
export type Farewell = (signal: NodeJS.Signals) => void;

/** The rescues of the guards installed now: a closed pipe ends the process without a signal and uses them. */
const activeRescues = new Set<() => void>();

/**
 * Runs the rescue of every installed guard (the in-flight step is written as `killed-by-signal`) and
 * reports whether there was any, i.e. whether a run was cut short. For an end that comes without a signal.
 */
export function rescueActiveRuns(): boolean {
  const rescues = [...activeRescues];
  activeRescues.clear();
  for (const rescue of rescues) rescue();
  return rescues.length > 0;
}

/** Calls `farewell`, ignoring what it throws: the process ends either way. */
export function sayFarewell(farewell: Farewell | undefined, signal: NodeJS.Signals): void {
  try {
    farewell?.(signal);
  } catch {
    // A terminal that went away cannot be written to; the manifest already holds the row.
  }
}

/**
 * Installs one-shot handlers that call `rescue()` (synchronous, never throws), remove themselves, call
 * `farewell`, and then re-raise SIGHUP/SIGTERM or exit 130 for SIGINT. SIGHUP is skipped on Windows, which
 * does not have it.
 */
export function guardSignals(
  rescue: () => void,
  target: SignalTarget = process,
  farewell?: Farewell,
): SignalGuard {
  const signals: NodeJS.Signals[] =
    target.platform === 'win32' ? ['SIGTERM', 'SIGINT'] : ['SIGHUP', 'SIGTERM', 'SIGINT'];
  const listeners = new Map<NodeJS.Signals, () => void>();
  const dispose = (): void => {
    for (const [signal, listener] of listeners) target.off(signal, listener);
    listeners.clear();
    activeRescues.delete(rescue);
  };
  activeRescues.add(rescue);
  for (const signal of signals) {
    const listener = (): void => {
      rescue();
      dispose();
      sayFarewell(farewell, signal);
      if (signal === 'SIGINT') target.exit(SIGINT_EXIT_CODE);
      else target.kill(target.pid, signal);
    };
    listeners.set(signal, listener);
    target.on(signal, listener);
  }
  return { dispose };
}
