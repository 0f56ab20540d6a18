/**
 * The judge's part in `flower demo`: it sets the goal, and judges each round from the workspace (it lists it
 * and reads the README) rather than from the coordinator's claim.
 *
 * @module
 */
import { setGoalInstructions, verdictInstructions } from '../roles/judge.js';
import { text, toolUse } from '../testing/content-blocks.js';
import { callId, context, turn } from './demo-answer-parts.js';
import type { Conversation } from './demo-conversation.js';
import type { DemoTurn } from './demo-move.js';
import { result } from './demo-progress.js';
import { GOAL_REPLY, VERDICT_ACHIEVED, VERDICT_NOT_YET } from './demo-replies.js';
import { DEMO_TOOL_IDS } from './demo-tool-ids.js';

/** The judge's answer: the goal, or the next move of a verdict (look, read, then NOT_YET or ACHIEVED). */
export function judgeTurn(conversation: Conversation, turnNumber: number): DemoTurn | null {
  if (conversation.firstUser.includes(setGoalInstructions())) {
    return turn('goal.set', [text(GOAL_REPLY)], context(12_600, turnNumber));
  }
  if (!conversation.firstUser.includes(verdictInstructions())) return null;
  // Judge the scene, not the claim: list the workspace, read the README if there is one.
  const looked = result(conversation, DEMO_TOOL_IDS.judgeLook);
  const read = result(conversation, DEMO_TOOL_IDS.judgeRead);
  if (looked === undefined && read === undefined) {
    return turn(
      'judge.look',
      [toolUse('Glob', { pattern: '*' }, callId(DEMO_TOOL_IDS.judgeLook, turnNumber))],
      context(12_600, turnNumber),
    );
  }
  if (looked !== undefined) {
    const readme = looked.text.split('\n').find((line) => /(^|\/)README\.md$/.test(line.trim()));
    if (readme === undefined)
      return turn('judge.notYet', [text(VERDICT_NOT_YET)], context(12_600, turnNumber));
    return turn(
      'judge.read',
      [toolUse('Read', { file_path: readme.trim() }, callId(DEMO_TOOL_IDS.judgeRead, turnNumber))],
      context(12_600, turnNumber),
    );
  }
  const documented = read !== undefined && !read.isError && read.text.includes('## Usage');
  return documented
    ? turn('judge.achieved', [text(VERDICT_ACHIEVED)], context(12_600, turnNumber))
    : turn('judge.notYet', [text(VERDICT_NOT_YET)], context(12_600, turnNumber));
}
