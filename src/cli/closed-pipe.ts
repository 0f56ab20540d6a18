/**
 * A reader that goes away (`flower --help | head -1`, `flower once … | head`) closes the pipe flower writes
 * to; the next write fails with EPIPE, which Node raises as an `'error'` event on the stream and, with no
 * listener, as an uncaught exception with a stack trace and exit code 1. A closed pipe is not flower's
 * failure: the reader took what it wanted. So flower ends quietly — after writing the in-flight step to the
 * manifest when a run was cut off, exactly as for a hang-up — with exit code 0 when nothing was running and
 * 141 (128 + SIGPIPE, what shells report for a program ended by a closed pipe) when a run was cut short, so a
 * script never mistakes an unfinished run for a finished one.
 *
 * @module
 */
import { rescueActiveRuns } from './signals.js';

/** Exit code when a closed pipe cut a run short: 128 + SIGPIPE (13), as shells report it. */
export const CLOSED_PIPE_EXIT_CODE = 141;

/** The part of a stream the guard needs. */
export interface GuardedStream {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** What ending the process means; `process.exit` by default (tests pass a recorder). */
export type Exit = (code: number) => void;

/**
 * Listens for `'error'` on each of `streams`: EPIPE ends the process quietly (see the module comment); any
 * other error is thrown again, as it would have been without a listener.
 */
export function exitQuietlyOnClosedPipe(
  streams: readonly GuardedStream[],
  exit: Exit = (code) => process.exit(code),
): void {
  let ending = false;
  const onError = (error: Error): void => {
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
    // Both streams may report the same closed terminal; the first report decides.
    if (ending) return;
    ending = true;
    const cutShort = rescueActiveRuns();
    exit(cutShort ? CLOSED_PIPE_EXIT_CODE : 0);
  };
  for (const stream of streams) stream.on('error', onError);
}
