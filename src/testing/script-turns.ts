/**
 * The usual script: answers by thread and turn. `main[i]` answers the main thread's turn i; `subagent[i]`
 * answers turn i of every subagent thread, each agent id counting its own turns from 0. The turn is read
 * from the request body (docs/testing.md), so when the CLI retries a call, which re-sends the same
 * body, the retry lands on the same turn.
 *
 * @module
 */
import type { FakeResponse } from './fake-response.js';
import type { FakeScript } from './fake-script.js';
import { UnscriptedCallError } from './fake-script.js';
import { describeTurn, MAIN_THREAD } from './request-matching.js';

/**
 * The answer to one turn: one response, given to every attempt at the turn, or a list of responses given
 * to successive attempts (a retry of the turn gets the next one; the last one repeats). `[fault, answer]`
 * scripts "fail once, then succeed".
 */
export type ScriptedTurn = FakeResponse | readonly FakeResponse[];

/** The turns of {@link scriptTurns}. */
export interface ScriptedTurns {
  main: readonly ScriptedTurn[];
  subagent?: readonly ScriptedTurn[];
}

/**
 * A script that answers by thread and turn. A call beyond the script (or a compaction request, which this
 * script never answers) throws {@link UnscriptedCallError}, so a strict server answers 500 with, for
 * example, "fake API: no scripted answer for main turn 3" and records the call as unexpected.
 */
export function scriptTurns(turns: ScriptedTurns): FakeScript {
  const attempts = new Map<string, number>();
  return (request) => {
    const list = request.thread === MAIN_THREAD ? turns.main : (turns.subagent ?? []);
    const scripted = request.compaction ? undefined : list[request.turn];
    if (scripted === undefined) {
      throw new UnscriptedCallError(`fake API: no scripted answer for ${describeTurn(request)}`);
    }
    if (!Array.isArray(scripted)) return scripted as FakeResponse;
    const key = `${request.thread}\u0000${request.turn}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    const answer = scripted[Math.min(attempt, scripted.length - 1)] as FakeResponse | undefined;
    if (answer === undefined) {
      throw new UnscriptedCallError(`fake API: the script for ${describeTurn(request)} is an empty list`);
    }
    return answer;
  };
}
