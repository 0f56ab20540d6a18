/**
 * The `coder` worker's part in `flower demo`: the first task writes `wc.js` and its test and runs it; the
 * second writes the README and runs its usage example.
 *
 * @module
 */
import { text, toolUse } from '../testing/content-blocks.js';
import { bash, callId, context, turn } from './demo-answer-parts.js';
import type { Conversation } from './demo-conversation.js';
import { DEMO_MARKERS } from './demo-markers.js';
import type { DemoTurn } from './demo-move.js';
import { result, spillPath } from './demo-progress.js';
import { codeReport, README_SOURCE, readmeReport, WC_SOURCE, WC_TEST_SOURCE } from './demo-replies.js';
import { DEMO_TOOL_IDS } from './demo-tool-ids.js';

/** The worker's answer, from the task it was given and the results of its own calls. */
export function workerTurn(conversation: Conversation, turnNumber: number): DemoTurn | null {
  if (conversation.firstUser.includes(DEMO_MARKERS.readmeTask)) {
    const checked = result(conversation, DEMO_TOOL_IDS.checkReadme);
    if (checked !== undefined) {
      const example = checked.text.trim().split('\n')[0] ?? '';
      return turn('readme.report', [text(readmeReport(example))], context(9_400, turnNumber));
    }
    if (result(conversation, DEMO_TOOL_IDS.writeReadme) !== undefined) {
      return turn(
        'readme.check',
        [
          bash(
            'node wc.js README.md',
            'Run the usage example',
            callId(DEMO_TOOL_IDS.checkReadme, turnNumber),
          ),
        ],
        context(9_100, turnNumber),
      );
    }
    return turn(
      'readme.write',
      [
        toolUse(
          'Write',
          { file_path: 'README.md', content: README_SOURCE },
          callId(DEMO_TOOL_IDS.writeReadme, turnNumber),
        ),
      ],
      context(8_900, turnNumber),
    );
  }
  const ran = result(conversation, DEMO_TOOL_IDS.runTest);
  if (ran !== undefined) {
    return turn(
      'code.report',
      [text(codeReport(!ran.isError, spillPath(ran.text)))],
      context(9_600, turnNumber),
    );
  }
  if (result(conversation, DEMO_TOOL_IDS.writeTest) !== undefined) {
    return turn(
      'code.run',
      [bash('node wc.test.js', 'Run the tests', callId(DEMO_TOOL_IDS.runTest, turnNumber))],
      context(9_300, turnNumber),
    );
  }
  return turn(
    'code.write',
    [
      toolUse(
        'Write',
        { file_path: 'wc.js', content: WC_SOURCE },
        callId(DEMO_TOOL_IDS.writeProgram, turnNumber),
      ),
      toolUse(
        'Write',
        { file_path: 'wc.test.js', content: WC_TEST_SOURCE },
        callId(DEMO_TOOL_IDS.writeTest, turnNumber),
      ),
    ],
    context(8_900, turnNumber),
  );
}
