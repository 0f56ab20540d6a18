/**
 * What the CLI talks to: its streams, whether stdin is a terminal, the environment and the working
 * directory. Passed in rather than read from `process`, so the whole CLI runs inside tests.
 *
 * @module
 */
import { colorWanted } from '../config/color-wanted.js';
import type { Env } from '../config/process-environment.js';

/** An output stream, with the terminal facts Node adds to a TTY stream. */
export type OutputStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** An input stream; a terminal's has `isTTY` and `setRawMode`. */
export type InputStream = NodeJS.ReadableStream & {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
};

/** The CLI's surroundings. */
export interface CliIo {
  /** Results (the final answer when piped) and help. */
  stdout: OutputStream;
  /** Everything else: the event log, notes, errors. */
  stderr: OutputStream;
  /** Standard input is a terminal (the reference's test for "interactive"). */
  stdinIsTty: boolean;
  /**
   * Standard input, read by `go`'s startup prompt and by the live input line of `go` and `run`. Absent:
   * nothing can be typed (no input line; a startup prompt reads end of input).
   */
  stdin?: InputStream;
  /** The process environment, before the `.env` chain. */
  env: Env;
  cwd: string;
}

/** Whether to colour `stream` in `env` (the CLI's environment after `.env`): see {@link colorWanted}. */
export function useColor(stream: OutputStream, env: Env): boolean {
  return colorWanted(stream, env);
}
