/**
 * Whether output to a stream should be coloured, by the conventions of the environment (`NO_COLOR`,
 * `TERM=dumb`, `FORCE_COLOR`). Here, in `src/config`, because it reads the environment: the CLI passes its
 * own, and the library's terminal renderer asks with the process environment when no colour is given.
 *
 * @module
 */
import { processEnvironment, type Env } from './process-environment.js';

/**
 * Whether to colour `stream`: never with `NO_COLOR` set (any non-empty value) or `TERM=dumb`; always with
 * `FORCE_COLOR` set to anything but `0`; otherwise only when the stream is a terminal. `env` is the process
 * environment unless given.
 */
export function colorWanted(stream: { isTTY?: boolean }, env: Env = processEnvironment()): boolean {
  if (env['NO_COLOR']) return false;
  if (env['TERM'] === 'dumb') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0';
  return stream.isTTY === true;
}
