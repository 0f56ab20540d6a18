/**
 * The process environment as one frozen snapshot. Only `src/config` touches `process.env`; every other
 * module receives an `Env` from here or from `loadConfig()`.
 *
 * @module
 */

/** A read-only view of environment variables. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A frozen copy of the current process environment. */
export function processEnvironment(): Env {
  return Object.freeze({ ...process.env });
}
