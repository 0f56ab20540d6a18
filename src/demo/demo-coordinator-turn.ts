/**
 * The coordinator's part in `flower demo`: round 1 looks and dispatches the worker; round 2 crosses the handoff
 * threshold once, writes the handoff, and its successor dispatches the worker again. Each resumed session
 * reads back over what it did, so a dispatch is never made twice.
 *
 * @module
 */
import { text } from '../testing/content-blocks.js';
import { callId, context, dispatch, glance, turn } from './demo-answer-parts.js';
import type { Conversation } from './demo-conversation.js';
import { DEMO_MARKERS } from './demo-markers.js';
import type { DemoTurn } from './demo-move.js';
import { listed, reported, result, spillPath, unaccounted } from './demo-progress.js';
import {
  CODE_TASK,
  HANDOFF_REPLY,
  README_TASK,
  ROUND1_LOOK,
  ROUND1_RECHECKED,
  round1Report,
  ROUND2_AFTER_LOOK,
  ROUND2_LOOK,
  ROUND2_REPORT,
  SUCCESSOR_LOOK,
} from './demo-replies.js';
import { DEMO_TOOL_IDS } from './demo-tool-ids.js';

/** The context the one crossing reply reports: past the threshold of a 200,000-token window (150,000). */
export const CROSSING_CONTEXT = 152_300;

/** The coordinator's answer, from where the conversation shows its round stands. */
export function coordinatorTurn(conversation: Conversation, turnNumber: number): DemoTurn | null {
  // The writing turn first: it resumes whichever session ran out of room.
  if (conversation.lastUser.includes(DEMO_MARKERS.handoff)) {
    return turn('handoff.write', [text(HANDOFF_REPLY)], context(CROSSING_CONTEXT + 1_600, 0));
  }
  // A resumed session reads back over what it did: a dispatch whose report is above is not made again.
  const dispatched =
    result(conversation, DEMO_TOOL_IDS.successorDispatch) ??
    reported(conversation, DEMO_TOOL_IDS.successorDispatch);
  if (dispatched !== undefined)
    return turn('successor.report', [text(ROUND2_REPORT)], context(26_900, turnNumber));
  if (conversation.firstUser.includes(DEMO_MARKERS.successor)) {
    // Resumed after flower stopped with its dispatch unaccounted for: look before dispatching again.
    if (unaccounted(conversation, DEMO_TOOL_IDS.successorDispatch)) {
      const looked = result(conversation, DEMO_TOOL_IDS.successorLook);
      if (looked === undefined) {
        return turn(
          'successor.look',
          [glance(callId(DEMO_TOOL_IDS.successorLook, turnNumber))],
          context(24_300, turnNumber),
        );
      }
      if (listed(looked.text, 'README.md'))
        return turn('successor.report', [text(ROUND2_REPORT)], context(26_900, turnNumber));
    }
    return turn(
      'successor.dispatch',
      [
        text(SUCCESSOR_LOOK),
        dispatch(
          README_TASK,
          'Add README.md with usage',
          callId(DEMO_TOOL_IDS.successorDispatch, turnNumber),
        ),
      ],
      context(24_300, turnNumber),
    );
  }
  if (result(conversation, DEMO_TOOL_IDS.round2Look) !== undefined) {
    return turn('round2.afterLook', [text(ROUND2_AFTER_LOOK)], context(CROSSING_CONTEXT + 800, 0));
  }
  if (conversation.lastUser.includes(DEMO_MARKERS.feedback)) {
    // The one reply past the threshold. The tool call keeps the turn going, so the runtime breaks at the
    // next message boundary and asks this session for its handoff.
    return turn(
      'round2.crossing',
      [text(ROUND2_LOOK), glance(callId(DEMO_TOOL_IDS.round2Look, turnNumber))],
      context(CROSSING_CONTEXT, 0),
    );
  }
  const report =
    result(conversation, DEMO_TOOL_IDS.round1Dispatch) ??
    reported(conversation, DEMO_TOOL_IDS.round1Dispatch);
  if (report !== undefined) {
    return turn('round1.report', [text(round1Report(spillPath(report.text)))], context(25_100, turnNumber));
  }
  const looked = result(conversation, DEMO_TOOL_IDS.round1Look);
  if (looked !== undefined) {
    // Resumed after flower stopped with the dispatch unaccounted for, and the worker's files are there.
    if (
      unaccounted(conversation, DEMO_TOOL_IDS.round1Dispatch) &&
      listed(looked.text, 'wc.js') &&
      listed(looked.text, 'wc.test.js')
    ) {
      return turn('round1.report', [text(ROUND1_RECHECKED)], context(25_100, turnNumber));
    }
    return turn(
      'round1.dispatch',
      [
        text(ROUND1_LOOK),
        dispatch(CODE_TASK, 'Write wc.js and its test', callId(DEMO_TOOL_IDS.round1Dispatch, turnNumber)),
      ],
      context(23_600, turnNumber),
    );
  }
  return turn(
    'round1.look',
    [glance(callId(DEMO_TOOL_IDS.round1Look, turnNumber))],
    context(22_800, turnNumber),
  );
}
