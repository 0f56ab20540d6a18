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
import { ASK_TOOL } from '../guards/human-tool-names.js';
import { setGoalInstructions, verdictInstructions } from '../roles/judge.js';
import { text, toolUse, type ContentBlock } from '../testing/content-blocks.js';
import { message, type FakeResponse, type Usage } from '../testing/fake-response.js';
import type { FakeScript } from '../testing/fake-script.js';
import { describeTurn, MAIN_THREAD, type FakeRequest } from '../testing/request-matching.js';
import { readConversation, systemText, type Conversation, type SeenResult } from './demo-conversation.js';
import {
  BEQUEST_REPLY,
  briefReply,
  CODE_TASK,
  codeReport,
  DEMO_OPTIONS,
  DEMO_QUESTION,
  GOAL_REPLY,
  HANDOFF_REPLY,
  README_SOURCE,
  README_TASK,
  readmeReport,
  ROUND1_LOOK,
  ROUND1_RECHECKED,
  round1Report,
  ROUND2_AFTER_LOOK,
  ROUND2_LOOK,
  ROUND2_REPORT,
  SUCCESSOR_LOOK,
  VERDICT_ACHIEVED,
  VERDICT_NOT_YET,
  WC_SOURCE,
  WC_TEST_SOURCE,
} from './demo-replies.js';

/** The phrases that tell the roles apart; each is pinned to the real prompt by the unit test. */
export const DEMO_MARKERS = {
  /** The clarifier's rule text (system prompt). */
  clarifier: '# Your role: clarifier',
  /** The coordinator's rule text (system prompt). */
  coordinator: '# Your role: coordinator',
  /** The judge's rule text (system prompt). */
  judge: '# Your role: judge',
  /** The bequest step's prompt (first user message). */
  bequest: 'The run is over. Write its bequest',
  /** The handoff writing turn (last user message). */
  handoff: 'Write that handoff now',
  /** The successor's first prompt (first user message). */
  successor: 'You are taking over',
  /** The judge's feedback that resumes the coordinator for another round (last user message). */
  feedback: 'The last round did not meet the goal',
  /** The second task brief (the worker's first user message). */
  readmeTask: 'Write README.md for wc.js',
} as const;

/**
 * The bases of the scripted tool calls' ids (each call adds `__<turn>`): the script reads its progress from the
 * results that come back.
 */
export const DEMO_TOOL_IDS = {
  ask: 'toolu_demo_clarify_ask',
  round1Look: 'toolu_demo_round1_look',
  round1Dispatch: 'toolu_demo_round1_dispatch',
  round2Look: 'toolu_demo_round2_look',
  successorDispatch: 'toolu_demo_successor_dispatch',
  successorLook: 'toolu_demo_successor_look',
  writeProgram: 'toolu_demo_code_write_program',
  writeTest: 'toolu_demo_code_write_test',
  runTest: 'toolu_demo_code_run_test',
  writeReadme: 'toolu_demo_readme_write',
  checkReadme: 'toolu_demo_readme_check',
  judgeLook: 'toolu_demo_judge_look',
  judgeRead: 'toolu_demo_judge_read',
} as const;

/** The context the one crossing reply reports: past the threshold of a 200,000-token window (150,000). */
export const CROSSING_CONTEXT = 152_300;

/** The window the demo runs with: its threshold (150,000) is crossed once, by the scripted round 2. */
export const DEMO_WINDOW = 200_000;

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

function clarifierTurn(conversation: Conversation, turnNumber: number): DemoTurn | null {
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

function judgeTurn(conversation: Conversation, turnNumber: number): DemoTurn | null {
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

function coordinatorTurn(conversation: Conversation, turnNumber: number): DemoTurn | null {
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

function workerTurn(conversation: Conversation, turnNumber: number): DemoTurn | null {
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

/**
 * The spill file a text points at — a spill pointer (`… spilled to .flower/spill/<hash>.txt — Read it …`) or a
 * report that passes the path on — or null.
 */
export function spillPath(seen: string): string | null {
  return /([^\s`"'()[\]]*spill\/[0-9a-f]+\.txt)/.exec(seen)?.[1] ?? null;
}

function turn(move: DemoMove, content: ContentBlock[], usage: Usage): DemoTurn {
  return { move, response: message(content, { usage }) };
}

/** Usage for a context of about `base` tokens that grows a little with each turn; mostly cache reads (cheap). */
function context(base: number, turnNumber: number): Usage {
  const total = base + turnNumber * 700;
  return {
    input_tokens: 420,
    cache_read_input_tokens: total - 420,
    cache_creation_input_tokens: 0,
    output_tokens: 160,
  };
}

function glance(id: string): ContentBlock {
  return bash('ls', 'List the workspace', id);
}

function bash(command: string, description: string, id: string): ContentBlock {
  return toolUse('Bash', { command, description }, id);
}

function dispatch(prompt: string, description: string, id: string): ContentBlock {
  return toolUse('Agent', { description, prompt, subagent_type: 'coder' }, id);
}

/**
 * The id of the call `base` made at `turnNumber`. Each use gets its own id — a session that repeats a move
 * (another round) must not send an id it already used — and stays the same when a request is retried.
 */
function callId(base: string, turnNumber: number): string {
  return `${base}__${turnNumber}`;
}

/**
 * What a careful model makes of flower's tool journal: a call of `base` answered only by "was started before
 * flower stopped and may have completed" (and never with a real result) may have had its effect, so it looks
 * before doing it again.
 */
function unaccounted(conversation: Conversation, base: string): boolean {
  const mine = conversation.allResults.filter((seen) => seen.id.startsWith(`${base}__`));
  return (
    mine.some((seen) => seen.text.includes(JOURNALLED_PHRASE)) &&
    !mine.some((seen) => !seen.isError && !seen.text.includes(JOURNALLED_PHRASE))
  );
}

/** The real result of a call of `base` anywhere in the conversation (not the journal's "may have completed"). */
function reported(conversation: Conversation, base: string): SeenResult | undefined {
  return conversation.allResults.find(
    (seen) => seen.id.startsWith(`${base}__`) && !seen.isError && !seen.text.includes(JOURNALLED_PHRASE),
  );
}

/** A phrase of the journal's answer to a call whose result was lost (`PLACEHOLDER_TEXT.journalled`). */
const JOURNALLED_PHRASE = 'may have completed';

/** True when a listing (`ls`, one name a line) shows `name`. */
function listed(listing: string, name: string): boolean {
  return listing.split('\n').some((line) => line.trim() === name);
}

function result(conversation: Conversation, base: string): SeenResult | undefined {
  return conversation.results.find((seen) => seen.id.startsWith(`${base}__`));
}
