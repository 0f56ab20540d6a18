/**
 * The moves of `flower demo`'s scripted model: the name of each answer it can give, and the answer with its
 * name.
 *
 * @module
 */
import type { FakeResponse } from '../testing/fake-response.js';

/** Which scripted move answers a request; the unit test checks the routing by these names. */
export type DemoMove =
  | 'clarify.ask'
  | 'clarify.brief'
  | 'goal.set'
  | 'judge.look'
  | 'judge.read'
  | 'judge.notYet'
  | 'judge.achieved'
  | 'round1.look'
  | 'round1.dispatch'
  | 'round1.report'
  | 'round2.crossing'
  | 'round2.afterLook'
  | 'handoff.write'
  | 'successor.dispatch'
  | 'successor.look'
  | 'successor.report'
  | 'code.write'
  | 'code.run'
  | 'code.report'
  | 'readme.write'
  | 'readme.check'
  | 'readme.report'
  | 'bequest';

/** A move and the answer it sends. */
export interface DemoTurn {
  move: DemoMove;
  response: FakeResponse;
}
