/**
 * `StepAbort`: how a gate (or an `onReject`) says "stop this step now, the remaining attempts would only
 * burn money" — for example when the judge finds the goal unreachable and nobody answers the question.
 *
 * @module
 */

/**
 * Thrown from a step's `gate` or `onReject` to end the step at once: the attempt counts as failed, no
 * further attempts run, the message is kept in `ctx._aborted`, and the step's `onFail` decides what the
 * workflow does next.
 */
export class StepAbort extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StepAbort';
  }
}

/** True for a {@link StepAbort}, also one thrown by another copy of the package (checks the name). */
export function isStepAbort(error: unknown): error is StepAbort {
  return error instanceof StepAbort || (error instanceof Error && error.name === 'StepAbort');
}
