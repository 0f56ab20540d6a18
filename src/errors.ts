/**
 * The one error class flower throws on purpose. The CLI maps it to a single stderr line and an exit code
 * (2 for usage errors, 1 for every other deliberate stop); anything else is a bug and shows a stack only
 * under `--debug`.
 *
 * @module
 */

/** Every deliberate failure flower reports, one code each. */
export type FlowerErrorCode =
  | 'USAGE'
  | 'CONFIG_INVALID'
  | 'CREDENTIALS_MISSING'
  | 'CREDENTIALS_REJECTED'
  | 'NO_TTY'
  | 'CANCELLED'
  | 'EMPTY_REQUEST'
  | 'NOT_A_GIT_REPO'
  | 'TARGET_FORM'
  | 'TARGET_NOT_FOUND'
  | 'TARGET_IMPORT'
  | 'TARGET_NO_EXPORT'
  | 'TS_LOADER_MISSING'
  | 'RUNTIME_BUSY'
  | 'SESSION_IN_USE'
  | 'MISSING_SESSION'
  | 'STEP_FAILED'
  | 'BUDGET_EXHAUSTED'
  | 'STORE_MISSING'
  | 'STORE_UNREADABLE'
  | 'STORE_DRIVER'
  | 'PORT_UNAVAILABLE'
  | 'NO_RUN'
  | 'EXPORT_CREDENTIAL'
  | 'RUN_ARCHIVE'
  | 'NOT_SUPPORTED'
  | 'LEASE_LOST'
  | 'RUN_DIR_FULL';

const marker = Symbol.for('flower-agent.error');

/** A deliberate stop with a message meant for the user: what is wrong and what to do. */
export class FlowerError extends Error {
  readonly code: FlowerErrorCode;
  readonly exitCode: 1 | 2;
  readonly [marker] = true;

  constructor(code: FlowerErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = code === 'USAGE' ? 2 : 1;
  }
}

/** True for a {@link FlowerError}, also across copies of the package (checks a `Symbol.for` marker). */
export function isFlowerError(error: unknown): error is FlowerError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}
