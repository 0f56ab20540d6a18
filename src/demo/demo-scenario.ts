/**
 * The scripted model of `flower demo` (decisions.md D16): a {@link FakeScript} for flower's own fake Messages
 * API that plays every role of the go path. Like a real model it decides from the request alone — which
 * thread asks (main or a subagent), which role it plays (a phrase of its rule text in the system prompt, or
 * the step prompt in the first user message), and what the conversation already shows (the results of the
 * tool calls it made, recognised by their ids). So a retried request gets the same answer, and nothing
 * depends on the order in which sessions start.
 *
 * The scenario: the clarifier asks one question with options, then writes the brief; the judge sets a goal
 * with a three-item checklist; the coordinator glances (`ls`) and dispatches the `coder` worker, which writes
 * `wc.js` and its test and runs it (about 6,000 characters of output, so it is spilled); the judge inspects
 * and says NOT_YET (no README); in round 2 the coordinator reports a context past the handoff threshold, the
 * runtime asks it for a handoff, a successor dispatches the worker to add the README, the judge says
 * ACHIEVED, and the bequest turn writes its sections. Usage numbers are small, except the one crossing.
 *
 * @module
 */
import type { FakeScript } from '../testing/fake-script.js';
import { describeTurn } from '../testing/request-matching.js';
import { demoTurn } from './demo-turn.js';

/** The window the demo runs with: its threshold (150,000) is crossed once, by the scripted round 2. */
export const DEMO_WINDOW = 200_000;

/** Options of {@link demoScenario}. */
export interface DemoScenarioOptions {
  /**
   * How long each reply "thinks" before it is sent, in milliseconds; 0 by default. The CLI's demo pauses so a
   * person can follow the run: without a pause the whole go path scrolls by in about fifteen seconds.
   */
  pauseMs?: number;
}

/**
 * More calls than this and the run is off its script (the whole demo makes about 25): it is stopped rather
 * than left to loop.
 */
export const DEMO_CALL_LIMIT = 100;

/**
 * The demo's script: {@link demoTurn}'s answer. A request it has no answer for, or one past
 * {@link DEMO_CALL_LIMIT}, gets a 400 naming the call: a client error is not retried, so a broken demo stops at
 * once with the reason on screen instead of waiting through retries.
 */
export function demoScenario(options: DemoScenarioOptions = {}): FakeScript {
  const pauseMs = options.pauseMs ?? 0;
  let calls = 0;
  return async (request) => {
    calls += 1;
    const turn = calls > DEMO_CALL_LIMIT ? null : demoTurn(request);
    if (turn === null) {
      const why = calls > DEMO_CALL_LIMIT ? `more than ${DEMO_CALL_LIMIT} calls` : 'no scripted answer';
      return {
        kind: 'status',
        status: 400,
        errorType: 'invalid_request_error',
        message: `flower demo: ${why} for ${describeTurn(request)}; the scripted run is off its script`,
      };
    }
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    return turn.response;
  };
}
