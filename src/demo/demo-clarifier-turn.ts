/**
 * The clarifier's part in `flower demo`: it asks the one question with options, then writes the brief from
 * the answer.
 *
 * @module
 */
import { ASK_TOOL } from '../guards/human-tool-names.js';
import { text, toolUse } from '../testing/content-blocks.js';
import { callId, context, turn } from './demo-answer-parts.js';
import type { Conversation } from './demo-conversation.js';
import type { DemoTurn } from './demo-move.js';
import { result } from './demo-progress.js';
import { briefReply, DEMO_OPTIONS, DEMO_QUESTION } from './demo-replies.js';
import { DEMO_TOOL_IDS } from './demo-tool-ids.js';

/** The clarifier's answer: the question until it has an answer, then the brief. */
export function clarifierTurn(conversation: Conversation, turnNumber: number): DemoTurn | null {
  const asked = result(conversation, DEMO_TOOL_IDS.ask);
  if (asked === undefined) {
    return turn(
      'clarify.ask',
      [
        toolUse(
          ASK_TOOL,
          { question: DEMO_QUESTION, options: DEMO_OPTIONS },
          callId(DEMO_TOOL_IDS.ask, turnNumber),
        ),
      ],
      context(13_400, turnNumber),
    );
  }
  // The human's choice, matched whole; anything else (no answer, a fall-through text) becomes an assumption.
  const chosen = DEMO_OPTIONS.find((option) => option === asked.text.trim()) ?? null;
  return turn('clarify.brief', [text(briefReply(chosen))], context(13_400, turnNumber));
}
