import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isEphemeral } from '../guards/ephemeral-command.js';
import { TIMEOUT_TEXT } from '../human/channel-texts.js';
import { HumanChannel } from '../human/human-channel.js';
import { ASK_TOOL } from '../guards/human-tool-names.js';
import { Bequest, bequestPrompt } from '../roles/bequest.js';
import { Brief } from '../roles/brief.js';
import { Goal } from '../roles/goal.js';
import { HandoffDocument } from '../roles/handoff-document.js';
import { handoffPrompt, successorPrompt } from '../roles/handoff-prompt.js';
import { judge } from '../roles/judge.js';
import { Verdict } from '../roles/verdict.js';
import { HandoffPolicy } from '../runtime/handoff-policy.js';
import type { ToolUseBlock } from '../testing/content-blocks.js';
import type { FakeRequest } from '../testing/request-matching.js';
import { setGoalPrompt, verifyPrompt } from '../workflow/judge-prompts.js';
import { buildStarter } from '../workflow/starter-flow.js';
import {
  CODE_TASK,
  DEMO_OPTIONS,
  DEMO_REQUEST,
  GOAL_REPLY,
  HANDOFF_REPLY,
  README_TASK,
  VERDICT_NOT_YET,
} from './demo-replies.js';
import { CROSSING_CONTEXT } from './demo-coordinator-turn.js';
import type { DemoTurn } from './demo-move.js';
import { spillPath } from './demo-progress.js';
import { DEMO_CALL_LIMIT, DEMO_WINDOW, demoScenario } from './demo-scenario.js';
import { demoTurn } from './demo-turn.js';

type Message = { role: 'user' | 'assistant'; content: unknown };
type Request = Pick<FakeRequest, 'body' | 'thread' | 'turn' | 'compaction'>;

/** The rule texts the go path really sends, taken from the real starter workflow. */
const rules = { clarifier: '', coordinator: '', judge: '', bequest: '' };
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-demo-scenario-'));
  const { workflow } = buildStarter(DEMO_REQUEST, { workspace: dir });
  const instructions = (name: string): string =>
    workflow.steps.find((step) => step.name === name)?.spec.instructions ?? '';
  rules.clarifier = instructions('clarify');
  rules.judge = instructions('goal');
  rules.coordinator = instructions('work');
  rules.bequest = instructions('bequest');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A request as the Claude Code binary sends it: its preset first, the role's rules appended. */
function request(rule: string, messages: Message[], thread = 'main'): Request {
  return {
    body: {
      system: [
        { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.334' },
        { type: 'text', text: `You are Claude Code, Anthropic's official CLI for Claude.\n\n${rule}` },
      ],
      messages,
    },
    thread,
    turn: messages.filter((entry) => entry.role === 'assistant').length,
    compaction: false,
  };
}

const user = (text: string): Message => ({
  role: 'user',
  content: [
    { type: 'text', text: '<system-reminder>\nAs you answer, use the context.\n</system-reminder>' },
    { type: 'text', text },
  ],
});

/** The assistant message a turn sent, as the binary echoes it back. */
const said = (turn: DemoTurn | null): Message => {
  if (turn?.response.kind !== 'message') throw new Error('not a message turn');
  return { role: 'assistant', content: turn.response.content };
};

const result = (id: string, text: string, isError = false): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text }], is_error: isError }],
});

function replyText(turn: DemoTurn | null): string {
  if (turn?.response.kind !== 'message') return '';
  return turn.response.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

function toolCalls(turn: DemoTurn | null): ToolUseBlock[] {
  if (turn?.response.kind !== 'message') return [];
  return turn.response.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
}

/** The id of a turn's `index`-th tool call. */
const idOf = (turn: DemoTurn | null, index = 0): string => toolCalls(turn)[index]?.id ?? 'no such call';

function context(turn: DemoTurn | null): number {
  if (turn?.response.kind !== 'message') return 0;
  const usage = turn.response.usage ?? {};
  return (
    (usage.input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0)
  );
}

const SPILL_POINTER =
  '[6124 characters spilled to .flower/spill/b4105ece487759e2.txt — Read it for all of it, Grep to search it]\nFirst 400 characters: ok 1 - 2 lines';

describe('demoTurn', () => {
  test('has the clarifier ask one question with options, then write a complete brief with the answer', () => {
    const opening = [user('Clarify this request; do not carry it out.\n\nThe request:\n\nBuild it.')];
    const ask = demoTurn(request(rules.clarifier, opening));
    expect(ask?.move).toBe('clarify.ask');
    expect(toolCalls(ask)).toEqual([
      expect.objectContaining({
        name: ASK_TOOL,
        input: expect.objectContaining({ options: DEMO_OPTIONS }) as unknown,
      }),
    ]);

    const answered = demoTurn(
      request(rules.clarifier, [...opening, said(ask), result(idOf(ask), DEMO_OPTIONS[0] ?? '')]),
    );
    expect(answered?.move).toBe('clarify.brief');
    const brief = Brief.parse(replyText(answered));
    expect(brief.complete()).toBe(true);
    expect(brief.unknowns).toContain(DEMO_OPTIONS[0]);

    const unanswered = demoTurn(
      request(rules.clarifier, [...opening, said(ask), result(idOf(ask), TIMEOUT_TEXT)]),
    );
    expect(Brief.parse(replyText(unanswered)).unknowns).toContain('nobody answered');
  });

  test('has the judge set a goal with a three-item checklist for job A', () => {
    const prompt = setGoalPrompt({ brief: 'Goal: a word counter.', facts: 'OS: Linux' });
    const turn = demoTurn(request(rules.judge, [user(prompt)]));
    expect(turn?.move).toBe('goal.set');
    const goal = Goal.parse(replyText(turn));
    expect(goal.complete()).toBe(true);
    expect(goal.checks).toHaveLength(3);
  });

  test('has the judge inspect the scene and answer NOT_YET without a README, ACHIEVED with one', () => {
    const prompt = verifyPrompt({
      goal: Goal.parse(GOAL_REPLY),
      goalPath: 'notes/goal.md',
      reply: 'Done.',
      amendments: [],
    });
    const opening = [user(prompt)];
    const look = demoTurn(request(rules.judge, opening));
    expect(look?.move).toBe('judge.look');
    expect(toolCalls(look)[0]?.name).toBe('Glob');

    const without = demoTurn(
      request(rules.judge, [...opening, said(look), result(idOf(look), '/w/wc.js\n/w/wc.test.js')]),
    );
    expect(without?.move).toBe('judge.notYet');
    const notYet = Verdict.parse(replyText(without));
    expect(notYet.state).toBe('NOT_YET');
    expect(notYet.failed).toHaveLength(1);

    const listed = [...opening, said(look), result(idOf(look), '/w/README.md\n/w/wc.js\n/w/wc.test.js')];
    const read = demoTurn(request(rules.judge, listed));
    expect(read?.move).toBe('judge.read');
    expect(toolCalls(read)[0]?.input).toEqual({ file_path: '/w/README.md' });

    const documented = demoTurn(
      request(rules.judge, [...listed, said(read), result(idOf(read), '     1\t# wc.js\n     5\t## Usage')]),
    );
    expect(documented?.move).toBe('judge.achieved');
    expect(Verdict.parse(replyText(documented)).state).toBe('ACHIEVED');
  });

  test('has the coordinator glance, dispatch the coder, and report the spilled log in round 1', () => {
    const opening = [user('Do it per this brief.\n\n## Goal\nA word counter.')];
    const look = demoTurn(request(rules.coordinator, opening));
    expect(look?.move).toBe('round1.look');
    const glance = toolCalls(look)[0];
    expect(glance?.name).toBe('Bash');
    // The coordinator's wall lets only side-effect-free glances through.
    expect(isEphemeral((glance?.input as { command: string }).command)).toBe(true);

    const afterLook = [...opening, said(look), result(idOf(look), 'runs')];
    const dispatch = demoTurn(request(rules.coordinator, afterLook));
    expect(dispatch?.move).toBe('round1.dispatch');
    expect(toolCalls(dispatch)[0]).toMatchObject({
      name: 'Agent',
      input: { subagent_type: 'coder', prompt: CODE_TASK },
    });

    const report = demoTurn(
      request(rules.coordinator, [
        ...afterLook,
        said(dispatch),
        result(idOf(dispatch), '  **Evidence**: the full log is in .flower/spill/b4105ece487759e2.txt.'),
      ]),
    );
    expect(report?.move).toBe('round1.report');
    expect(replyText(report)).toContain('.flower/spill/b4105ece487759e2.txt');
    expect(toolCalls(report)).toEqual([]);
  });

  test('resumed after flower stopped, the coordinator reads back before dispatching again', () => {
    const opening = [user('Do it per this brief.\n\n## Goal\nA word counter.')];
    const look = demoTurn(request(rules.coordinator, opening));
    const afterLook = [...opening, said(look), result(idOf(look), 'runs')];
    const dispatch = demoTurn(request(rules.coordinator, afterLook));
    const wake = user('Continue where you stopped.');
    const resumed = (answer: Message): Message[] => [
      ...afterLook,
      said(dispatch),
      answer,
      { role: 'assistant', content: [{ type: 'text', text: 'No response requested.' }] },
      wake,
    ];
    // The worker's report is above: report it, do not dispatch again.
    const reported = resumed(
      result(idOf(dispatch), 'the full log is in .flower/spill/b4105ece487759e2.txt.'),
    );
    expect(demoTurn(request(rules.coordinator, reported))?.move).toBe('round1.report');
    // Only the journal's "may have completed": look, and report when the worker's files are there.
    const unsure = resumed(
      result(
        idOf(dispatch),
        '[This call was started before flower stopped and may have completed; its result was lost.]',
        true,
      ),
    );
    const check = demoTurn(request(rules.coordinator, unsure));
    expect(check?.move).toBe('round1.look');
    const seen = (listing: string): DemoTurn | null =>
      demoTurn(request(rules.coordinator, [...unsure, said(check), result(idOf(check), listing)]));
    expect(seen('runs\nwc.js\nwc.test.js')?.move).toBe('round1.report');
    expect(seen('runs')?.move).toBe('round1.dispatch');
  });

  test('has the worker write the program and its test, run the test, and report in four parts', () => {
    const opening = [user(CODE_TASK)];
    const write = demoTurn(request('Implement what the task brief asks.', opening, 'a51b'));
    expect(write?.move).toBe('code.write');
    expect(
      toolCalls(write).map((call) => [call.name, (call.input as { file_path: string }).file_path]),
    ).toEqual([
      ['Write', 'wc.js'],
      ['Write', 'wc.test.js'],
    ]);

    // Parallel calls come back one result per message, in either order.
    const written = [
      ...opening,
      said(write),
      result(idOf(write, 1), 'File created successfully at: wc.test.js'),
      result(idOf(write, 0), 'File created successfully at: wc.js'),
    ];
    const run = demoTurn(request('', written, 'a51b'));
    expect(run?.move).toBe('code.run');
    expect(toolCalls(run)[0]?.input).toMatchObject({ command: 'node wc.test.js' });

    const report = demoTurn(request('', [...written, said(run), result(idOf(run), SPILL_POINTER)], 'a51b'));
    expect(report?.move).toBe('code.report');
    const text = replyText(report);
    for (const part of ['**Conclusion**', '**Evidence**', '**Output**', '**Unverified / risks**']) {
      expect(text).toContain(part);
    }
    expect(text).toContain('all 150 generated cases pass');
    expect(text).toContain('.flower/spill/b4105ece487759e2.txt');

    const failed = demoTurn(
      request('', [...written, said(run), result(idOf(run), SPILL_POINTER, true)], 'a51b'),
    );
    expect(replyText(failed)).toContain('the test fails');
  });

  test('crosses the handoff threshold once in round 2, with a tool call that keeps the turn going', () => {
    const threshold = new HandoffPolicy({ window: DEMO_WINDOW }).at;
    const feedback = Verdict.parse(VERDICT_NOT_YET).feedback();
    const history = [
      user('Do it per this brief.'),
      { role: 'assistant' as const, content: [{ type: 'text', text: 'Done.' }] },
    ];
    const crossing = demoTurn(request(rules.coordinator, [...history, user(feedback)]));
    expect(crossing?.move).toBe('round2.crossing');
    expect(context(crossing)).toBe(CROSSING_CONTEXT);
    expect(CROSSING_CONTEXT).toBeGreaterThanOrEqual(threshold);
    expect(CROSSING_CONTEXT).toBeLessThan(DEMO_WINDOW);
    expect(toolCalls(crossing)[0]?.name).toBe('Bash');

    // If the glance's result still gets through before the runtime breaks, the session says one line more.
    const late = demoTurn(
      request(rules.coordinator, [
        ...history,
        user(feedback),
        said(crossing),
        result(idOf(crossing), 'wc.js'),
      ]),
    );
    expect(late?.move).toBe('round2.afterLook');
    expect(toolCalls(late)).toEqual([]);

    const writing = demoTurn(
      request(rules.coordinator, [
        ...history,
        user(feedback),
        said(crossing),
        user(handoffPrompt(CROSSING_CONTEXT, DEMO_WINDOW)),
      ]),
    );
    expect(writing?.move).toBe('handoff.write');
    const document = HandoffDocument.parse(replyText(writing));
    expect(document.doing).not.toBe('');
    expect(document.next).toContain('README.md');
    expect(document.deadends).toBe('none yet');
  });

  test('has the successor dispatch the README task, and the worker write and check it', () => {
    const successor = successorPrompt(HandoffDocument.parse(HANDOFF_REPLY), {
      handoffPath: '.flower/notes/handoff-work.md',
      notesDir: '.flower/notes/',
    });
    const opening = [user(successor)];
    const dispatch = demoTurn(request(rules.coordinator, opening));
    expect(dispatch?.move).toBe('successor.dispatch');
    expect(toolCalls(dispatch)[0]).toMatchObject({ name: 'Agent', input: { prompt: README_TASK } });

    const worker = [user(README_TASK)];
    const write = demoTurn(request('', worker, 'b77c'));
    expect(write?.move).toBe('readme.write');
    const check = demoTurn(
      request('', [...worker, said(write), result(idOf(write), 'File created successfully')], 'b77c'),
    );
    expect(toolCalls(check)[0]?.input).toMatchObject({ command: 'node wc.js README.md' });
    const report = demoTurn(
      request(
        '',
        [
          ...worker,
          said(write),
          result(idOf(write), 'ok'),
          said(check),
          result(idOf(check), '15 53 336 README.md'),
        ],
        'b77c',
      ),
    );
    expect(report?.move).toBe('readme.report');
    expect(replyText(report)).toContain('"15 53 336 README.md"');

    const done = demoTurn(
      request(rules.coordinator, [
        ...opening,
        said(dispatch),
        result(idOf(dispatch), 'README.md is written.'),
      ]),
    );
    expect(done?.move).toBe('successor.report');
  });

  test('writes a complete bequest for the finishing turn', () => {
    const turn = demoTurn(request(rules.bequest, [user(bequestPrompt({ workbench: '.flower' }))]));
    expect(turn?.move).toBe('bequest');
    expect(Bequest.parse(replyText(turn)).complete()).toBe(true);
  });

  test('keeps every reply but the crossing ones below the threshold', () => {
    const threshold = new HandoffPolicy({ window: DEMO_WINDOW }).at;
    const small = [
      demoTurn(request(rules.clarifier, [user('Clarify this request.')])),
      demoTurn(request(rules.coordinator, [user('Do it per this brief.')])),
      demoTurn(request('', [user(CODE_TASK)], 'a51b')),
      demoTurn(
        request(judge('judge', new HumanChannel()).instructions, [
          user(setGoalPrompt({ brief: 'x', facts: 'y' })),
        ]),
      ),
    ];
    for (const turn of small) expect(context(turn)).toBeLessThan(threshold / 4);
  });

  test('has no answer for a compaction request, an unknown role or an unknown job', () => {
    expect(demoTurn({ ...request(rules.coordinator, [user('Do it.')]), compaction: true })).toBeNull();
    expect(demoTurn(request('You are a helpful assistant.', [user('Hello')]))).toBeNull();
    expect(demoTurn(request(rules.judge, [user('Tell me a joke.')]))).toBeNull();
  });
});

describe('demoScenario', () => {
  const call = (scripted: Request): FakeRequest => ({
    ...scripted,
    method: 'POST',
    path: '/v1/messages',
    headers: {},
  });

  test('answers a known request, and an unknown one with a 400 that names it (not retried)', async () => {
    const script = demoScenario();
    await expect(
      script(call(request(rules.coordinator, [user('Do it per this brief.')]))),
    ).resolves.toMatchObject({
      kind: 'message',
    });
    await expect(script(call(request('You are a helpful assistant.', [user('Hello')])))).resolves.toEqual({
      kind: 'status',
      status: 400,
      errorType: 'invalid_request_error',
      message: 'flower demo: no scripted answer for main turn 0; the scripted run is off its script',
    });
  });

  test('stops answering after DEMO_CALL_LIMIT calls, so a run off its script cannot loop', async () => {
    const script = demoScenario();
    const known = call(request(rules.coordinator, [user('Do it per this brief.')]));
    for (let index = 0; index < DEMO_CALL_LIMIT; index++) {
      await expect(script(known)).resolves.toMatchObject({ kind: 'message' });
    }
    await expect(script(known)).resolves.toMatchObject({ kind: 'status', status: 400 });
  });

  test('gives a repeated move a new tool id, and the same id to a retried request', () => {
    const feedback = Verdict.parse(VERDICT_NOT_YET).feedback();
    const once = [
      user('Do it per this brief.'),
      { role: 'assistant' as const, content: [{ type: 'text', text: 'Done.' }] },
    ];
    const twice = [
      ...once,
      user(feedback),
      { role: 'assistant' as const, content: [{ type: 'text', text: 'Done.' }] },
    ];
    const first = demoTurn(request(rules.coordinator, [...once, user(feedback)]));
    const again = demoTurn(request(rules.coordinator, [...twice, user(feedback)]));
    expect(again?.move).toBe('round2.crossing');
    expect(idOf(again)).not.toBe(idOf(first));
    expect(idOf(demoTurn(request(rules.coordinator, [...once, user(feedback)])))).toBe(idOf(first));
  });
});

describe('spillPath', () => {
  test('finds the spill file in a pointer and in a report that passes it on', () => {
    expect(spillPath(SPILL_POINTER)).toBe('.flower/spill/b4105ece487759e2.txt');
    expect(spillPath('the full log is in /tmp/w/.flower/spill/00ff.txt.')).toBe(
      '/tmp/w/.flower/spill/00ff.txt',
    );
    expect(spillPath('nothing spilled')).toBeNull();
  });
});
