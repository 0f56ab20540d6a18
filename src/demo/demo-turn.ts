/**
 * Which role of the go path a request of `flower demo` is for, and so which of the scripted roles answers it.
 *
 * @module
 */
import { text } from '../testing/content-blocks.js';
import { MAIN_THREAD, type FakeRequest } from '../testing/request-matching.js';
import { context, turn } from './demo-answer-parts.js';
import { clarifierTurn } from './demo-clarifier-turn.js';
import { coordinatorTurn } from './demo-coordinator-turn.js';
import { readConversation, systemText } from './demo-conversation.js';
import { judgeTurn } from './demo-judge-turn.js';
import { DEMO_MARKERS } from './demo-markers.js';
import type { DemoTurn } from './demo-move.js';
import { BEQUEST_REPLY } from './demo-replies.js';
import { workerTurn } from './demo-worker-turn.js';

/** Decides the answer to one request; null when the demo has none (a compaction request, an unknown role). */
export function demoTurn(
  request: Pick<FakeRequest, 'body' | 'thread' | 'turn' | 'compaction'>,
): DemoTurn | null {
  if (request.compaction) return null;
  const conversation = readConversation(request.body);
  if (request.thread !== MAIN_THREAD) return workerTurn(conversation, request.turn);
  const system = systemText(request.body);
  if (conversation.firstUser.includes(DEMO_MARKERS.bequest)) {
    return turn('bequest', [text(BEQUEST_REPLY)], context(11_200, request.turn));
  }
  if (system.includes(DEMO_MARKERS.clarifier)) return clarifierTurn(conversation, request.turn);
  if (system.includes(DEMO_MARKERS.judge)) return judgeTurn(conversation, request.turn);
  if (system.includes(DEMO_MARKERS.coordinator)) return coordinatorTurn(conversation, request.turn);
  return null;
}
