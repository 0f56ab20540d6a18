/**
 * The script contract of the fake Messages API: a function from a request to the answer it gets.
 *
 * @module
 */
import type { FakeResponse } from './fake-response.js';
import type { FakeRequest } from './request-matching.js';

/**
 * Answers one `POST /v1/messages` request. Return `undefined` (or throw {@link UnscriptedCallError}) when
 * the script has no answer for it: a strict server then answers 500 and records the call as unexpected.
 */
export type FakeScript = (
  request: FakeRequest,
) => FakeResponse | undefined | Promise<FakeResponse | undefined>;

/** Thrown by a script that has no answer for a request; its message becomes the 500's error message. */
export class UnscriptedCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
