// Roles see what they may use: each of the five roles, started through the Runtime with the real SDK and
// Claude Code binary against the fake Messages API, is offered exactly its own tools in its first request —
// nothing it would be refused afterwards, and the human channel's tools inline, not behind ToolSearch. The
// expected lists are written out here, from docs/roles.md, not read from the specs. A call a guard refuses
// reaches the model as a permission denial that is the guard's reason, not as a "hook error".
import { describe, expect, test } from 'vitest';
import type { AgentSpec } from '../../src/agent/agent-spec.js';
import { inspectGuard } from '../../src/guards/inspect-guard.js';
import { HumanChannel } from '../../src/human/human-channel.js';
import { clarify } from '../../src/roles/clarifier.js';
import { coordinator } from '../../src/roles/coordinator.js';
import { judge } from '../../src/roles/judge.js';
import { oracle } from '../../src/roles/oracle.js';
import { worker } from '../../src/roles/worker.js';
import {
  message,
  scriptTurns,
  text,
  toolUse,
  type FakeRequest,
  type ScriptedTurns,
} from '../../src/testing/index.js';
import { inProcessRuns } from './support/in-process-run.js';
import { seenToolResult } from './support/tool-results.js';

const setUp = inProcessRuns();

const TASK_LIST = ['TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate'];
const WORKER_TOOLS = ['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep', 'WebFetch', 'WebSearch'];

/** Every tool name in a request, deferred ones included, sorted: the order is Claude Code's, not ours. */
function offered(request: FakeRequest | undefined): string[] {
  return ((request?.body.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name).sort();
}

const coder = (): ReturnType<typeof worker> =>
  worker('Writes code and tests.', 'Implement what you are asked.');
const answerOnly: ScriptedTurns = { main: [message([text('Done.')])] };

interface RoleCase {
  role: string;
  spec: (channel: HumanChannel) => AgentSpec;
  script: ScriptedTurns;
  /** Which thread's first request shows the role's tools. */
  thread: 'main' | 'subagent';
  tools: string[];
}

const cases: RoleCase[] = [
  {
    role: 'coordinator',
    spec: (channel) => coordinator('coordinator', '', { coder: coder() }, { channel }),
    script: answerOnly,
    thread: 'main',
    tools: ['Agent', 'SendMessage', ...TASK_LIST, 'Read', 'Bash', 'mcp__human__ask', 'mcp__human__inbox'],
  },
  {
    role: 'worker',
    spec: (channel) => coordinator('coordinator', '', { coder: coder() }, { channel }),
    script: {
      main: [
        message([
          toolUse('Agent', { description: 'code', prompt: 'Say done.', subagent_type: 'coder' }, 'go'),
        ]),
        message([text('Done.')]),
      ],
      subagent: [message([text('Conclusion: done.')])],
    },
    thread: 'subagent',
    tools: WORKER_TOOLS,
  },
  {
    role: 'clarifier',
    spec: (channel) => clarify('clarify', channel),
    script: answerOnly,
    thread: 'main',
    tools: ['mcp__human__ask', 'Read', 'Glob', 'Grep', 'WebFetch', 'WebSearch'],
  },
  {
    role: 'judge',
    spec: (channel) => judge('judge', channel, { canRun: 'inspect' }),
    script: answerOnly,
    thread: 'main',
    tools: ['mcp__human__ask', 'Read', 'Glob', 'Grep', 'Bash'],
  },
  {
    role: 'oracle',
    spec: () => oracle(),
    script: answerOnly,
    thread: 'main',
    tools: ['Read', 'Glob', 'Grep'],
  },
];

describe('the tools each role is offered (e2e)', () => {
  test.each(cases)(
    'the $role is offered exactly its own tools in its first request',
    async ({ spec, script, thread, tools }) => {
      const { server, runtime: runtimeWith } = await setUp(scriptTurns(script));
      const channel = new HumanChannel({ timeoutS: 0 });
      const result = await runtimeWith({ workbench: false }).run(spec(channel), 'Begin.');

      expect(result.error).toBeNull();
      const first = server.calls.find((call) =>
        thread === 'main' ? call.thread === 'main' : call.thread !== 'main',
      );
      expect(first, 'no request from that thread').toBeDefined();
      expect(offered(first)).toEqual([...tools].sort());
    },
    90_000,
  );
});

describe('a refused call (e2e)', () => {
  test('reaches the model as a permission denial whose text is the guard’s reason, not a hook error', async () => {
    const command = { command: 'rm -rf dist', description: 'clean' };
    const {
      server,
      scratch,
      runtime: runtimeWith,
    } = await setUp(
      scriptTurns({
        main: [
          message([toolUse('Bash', command, 'refused'), toolUse('Bash', { command: 'ls' }, 'looked')]),
          message([text('Conclusion: NOT_YET')]),
        ],
      }),
    );
    const decision = await inspectGuard().decide({
      event: 'PreToolUse',
      toolName: 'Bash',
      toolInput: command,
      toolUseId: 'refused',
      agentId: null,
      agentType: null,
      cwd: scratch.workspace,
    });
    expect(decision.action).toBe('deny');
    const reason = decision.action === 'deny' ? decision.reason : '';

    const result = await runtimeWith({ workbench: false }).run(
      judge('judge', null, { canRun: 'inspect' }),
      'Judge.',
    );

    expect(result.error).toBeNull();
    const refused = seenToolResult(server, 'refused');
    expect(refused?.isError).toBe(true);
    expect(refused?.text).toBe(reason);
    expect(refused?.text).not.toMatch(/hook error/i);
    // The guard's other answer, an approval, still lets a glance run.
    expect(seenToolResult(server, 'looked')?.isError).toBe(false);
  }, 90_000);
});
