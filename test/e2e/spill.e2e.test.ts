// The spill and index guards against the real SDK and its real Claude Code binary. For every tool shape the
// spill guard handles, the next request the fake Messages API receives must carry the pointer and the first
// 400 characters instead of the full text, the spill file must hold the full text, and reading a spill file
// back must not spill again. The shapes the binary accepts as a replacement are only known from running it
// by probing it, so one scripted run exercises them all and the tests below read what it left.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';

import { createSdkMcpServer, tool } from '../../src/agent/claude-sdk.js';
import type { HookCallbackMatcher, HookInput } from '../../src/agent/claude-sdk.js';
import type { SpillEvent } from '../../src/events/flower-event.js';
import { mergeHooks, toHooks } from '../../src/guards/hooks.js';
import { codePointLength } from '../../src/guards/spill-output.js';
import { indexGuard } from '../../src/guards/index-guard.js';
import { spillGuard, spillPointer } from '../../src/guards/spill-guard.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  message,
  scratchEnvironment,
  text,
  toolUse,
} from '../../src/testing/index.js';
import type { FakeRequest, FakeRequestBody, FakeResponse, FakeScript } from '../../src/testing/index.js';
import { Workbench } from '../../src/workbench/workbench.js';
import { allowEveryTool, e2eOptions, runQuery } from './support/run-query.js';

/** `count` lines of 50 characters (49 plus the line break), without a final line break. */
function lines(label: string, count: number): string {
  return Array.from({ length: count }, (_, index) => {
    const head = `${label} line ${String(index).padStart(4, '0')} `;
    return head + label[0]!.repeat(49 - head.length);
  }).join('\n');
}

// Above the binary's own 30,000-character Bash limit, so its truncate-and-save path is exercised too.
const BASH_TEXT = lines('bash', 1000);
const SUBAGENT_BASH_TEXT = lines('worker', 1000);
const READ_TEXT = lines('read', 600);
const MCP_TEXT = lines('mcp', 120);
const HUMAN_TEXT = lines('human', 120);
const REPORT_TEXT = lines('report', 120);
// Glob answers at most 100 paths; 100 of these are over 4,000 characters.
const DEEP = 'deep/directories/with/rather/long/names';

const PRINT_SCRIPT = `const label = process.argv[2];
const count = Number(process.argv[3]);
const lines = Array.from({ length: count }, (_, index) => {
  const head = label + ' line ' + String(index).padStart(4, '0') + ' ';
  return head + label[0].repeat(49 - head.length);
});
process.stdout.write(lines.join('\\n'));
`;

interface Call {
  thread: string;
  turn: number;
  body: FakeRequestBody;
}

/** The text the model was shown for tool call `id`, from the first request that carries its result. */
function shownFor(calls: readonly Call[], id: string): { text: string; isError: boolean } {
  for (const call of calls) {
    for (const entry of call.body.messages as Array<{ content: unknown }>) {
      if (!Array.isArray(entry.content)) continue;
      for (const block of entry.content as Array<Record<string, unknown>>) {
        if (block['type'] !== 'tool_result' || block['tool_use_id'] !== id) continue;
        const content = block['content'];
        const shown =
          typeof content === 'string'
            ? content
            : (content as Array<{ text?: string }>).map((part) => part.text ?? '').join('\n');
        return { text: shown, isError: block['is_error'] === true };
      }
    }
  }
  throw new Error(`no request carries the result of ${id}`);
}

/** The spill file a pointer names, resolved against the workspace. */
function pointedFile(shown: string, workspace: string): string {
  const path = /spilled to (\S+) —/.exec(shown)?.[1];
  if (path === undefined) throw new Error(`no spill pointer in: ${shown.slice(0, 300)}`);
  return join(workspace, path);
}

/**
 * Reads the spill file `shown` points to, checks it holds `full` (when given), and returns its text and the
 * exact pointer the guard makes for it, for the caller to compare with what the model saw.
 */
function spilled(shown: string, bench: Workbench, full?: string): { saved: string; pointer: string } {
  const path = pointedFile(shown, bench.workspace);
  const saved = readFileSync(path, 'utf8');
  if (full !== undefined) expect(saved).toBe(full);
  return { saved, pointer: spillPointer(codePointLength(saved), bench.display(path), saved) };
}

/** Everything the one scripted run left behind. */
interface Run {
  bench: Workbench;
  mainCalls: Call[];
  subagentCalls: Call[];
  spills: SpillEvent[];
  /** Tool names of the PostToolUse calls the binary handed to the spill guard, in order. */
  handed: string[];
  indexAfterWrite: string;
  indexAfterRun: string;
}

const cleanups: Array<() => Promise<void>> = [];
let run: Run;

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(async () => {
  let indexPath = '';
  let indexAfterWrite = '';
  // One main-thread turn per step; a function sees the request (to follow a pointer, as a model would).
  const main: Array<FakeResponse | ((request: FakeRequest) => FakeResponse)> = [
    message([toolUse('Bash', { command: 'node print.js bash 1000', description: 'print' }, 'tu_bash')]),
    message([toolUse('Read', { file_path: 'big.txt' }, 'tu_read')]),
    message([toolUse('Grep', { pattern: 'read line', path: 'big.txt', output_mode: 'content' }, 'tu_grep')]),
    message([toolUse('Glob', { pattern: `${DEEP}/*.txt` }, 'tu_glob')]),
    message([toolUse('mcp__fw__dump', { label: 'mcp' }, 'tu_mcp')]),
    message([toolUse('mcp__human__ask', { label: 'human' }, 'tu_human')]),
    message([
      toolUse(
        'Agent',
        {
          description: 'print',
          prompt: 'Print and report.',
          subagent_type: 'worker',
          run_in_background: false,
        },
        'tu_agent',
      ),
    ]),
    (request) => {
      const path = /spilled to (\S+) —/.exec(shownFor([request], 'tu_bash').text)?.[1] ?? 'missing-pointer';
      return message([toolUse('Read', { file_path: path }, 'tu_read_back')]);
    },
    // 100 lines: over the spill threshold, under the ~20K at which the binary saves a Grep result itself.
    message([
      toolUse(
        'Grep',
        { pattern: 'bash line', path: '.flower/spill', output_mode: 'content', head_limit: 100 },
        'tu_grep_back',
      ),
    ]),
    message([
      toolUse('Write', {
        file_path: '.flower/scripts/count.sh',
        content: '# desc: counts the rows\nwc -l big.txt\n',
      }),
    ]),
    () => {
      // This request comes after the Write's PostToolUse hooks: what the index says now is the Write's doing.
      indexAfterWrite = readFileSync(indexPath, 'utf8');
      return message([
        toolUse('Bash', {
          command: "printf '# Keep the fake\\n' > .flower/notes/decision.md",
          description: 'note',
        }),
      ]);
    },
    message([text('All done.')]),
  ];
  const subagent: FakeResponse[] = [
    message([toolUse('Bash', { command: 'node print.js worker 1000', description: 'print' }, 'tu_sub_bash')]),
    message([text(REPORT_TEXT)]),
  ];
  const script: FakeScript = (request) => {
    const step = request.thread === MAIN_THREAD ? main[request.turn] : subagent[request.turn];
    return typeof step === 'function' ? step(request) : step;
  };
  const server = await FakeAnthropicServer.start(script);
  cleanups.push(() => server.close());
  const scratch = await scratchEnvironment({ baseUrl: server.url });
  cleanups.push(() => scratch.cleanup());

  const workspace = scratch.workspace;
  writeFileSync(join(workspace, 'print.js'), PRINT_SCRIPT);
  writeFileSync(join(workspace, 'big.txt'), READ_TEXT);
  mkdirSync(join(workspace, DEEP), { recursive: true });
  for (let index = 0; index < 120; index++) {
    writeFileSync(join(workspace, DEEP, `file-number-${String(index).padStart(3, '0')}.txt`), '');
  }
  const bench = new Workbench(workspace).ensure();
  indexPath = bench.index;

  const dump = (name: string, body: string) =>
    tool(name, 'Returns a long text', { label: z.string() }, () =>
      Promise.resolve({ content: [{ type: 'text' as const, text: body }] }),
    );
  const spills: SpillEvent[] = [];
  const spillHooks = toHooks(
    spillGuard(bench, { onSpill: (event) => spills.push(event as SpillEvent) }),
    indexGuard(bench),
  );
  const [spillMatcher, indexMatcher] = spillHooks.PostToolUse as HookCallbackMatcher[];
  // Record which calls the binary hands to the spill guard: its matcher is a regular expression with a lookahead.
  const handed: string[] = [];
  const recorded: HookCallbackMatcher = {
    ...spillMatcher!,
    hooks: spillMatcher!.hooks.map((hook) => async (input: HookInput, id, options) => {
      if (input.hook_event_name === 'PostToolUse') handed.push(input.tool_name);
      return hook(input, id, options);
    }),
  };

  const outcome = await runQuery(
    'Look at the big outputs.',
    e2eOptions(scratch, {
      tools: ['Bash', 'Read', 'Grep', 'Glob', 'Agent', 'Write'],
      mcpServers: {
        fw: createSdkMcpServer({ name: 'fw', version: '1.0.0', tools: [dump('dump', MCP_TEXT)] }),
        human: createSdkMcpServer({ name: 'human', version: '1.0.0', tools: [dump('ask', HUMAN_TEXT)] }),
      },
      agents: {
        worker: { description: 'Prints things', prompt: 'You print things.', tools: ['Bash', 'Read'] },
      },
      hooks: mergeHooks({ PreToolUse: [allowEveryTool] }, { PostToolUse: [recorded, indexMatcher!] }),
    }),
  );

  expect(outcome.error).toBeNull();
  expect(outcome.result?.subtype).toBe('success');
  expect(server.unexpectedCalls).toEqual([]);
  const calls = server.calls.filter((call) => call.path === '/v1/messages');
  run = {
    bench,
    mainCalls: calls.filter((call) => call.thread === MAIN_THREAD),
    subagentCalls: calls.filter((call) => call.thread !== MAIN_THREAD),
    spills,
    handed,
    indexAfterWrite,
    indexAfterRun: readFileSync(join(bench.root, 'INDEX.md'), 'utf8'),
  };
  expect(run.mainCalls).toHaveLength(main.length);
  expect(run.subagentCalls).toHaveLength(subagent.length);
});

describe('spillGuard with the real SDK', () => {
  test('is handed every watched tool, never the human channel (the lookahead matcher works)', () => {
    expect(run.handed).toEqual([
      'Bash',
      'Read',
      'Grep',
      'Glob',
      'mcp__fw__dump',
      'Bash',
      'Agent',
      'Read',
      'Grep',
      'Bash',
    ]);
  });

  test('Bash over the binary own 30,000-character limit: the pointer only, the whole output on disk', () => {
    const bash = shownFor(run.mainCalls, 'tu_bash').text;
    // Not the binary's "<persisted-output>" preview, and not its truncated 30,000 characters in the file.
    expect(bash).toBe(spilled(bash, run.bench, BASH_TEXT).pointer);
  });

  test('Read: the pointer under the binary line numbers', () => {
    const read = shownFor(run.mainCalls, 'tu_read').text;
    const numbered = spilled(read, run.bench, READ_TEXT)
      .pointer.split('\n')
      .map((line, index) => `${index + 1}\t${line}`);
    expect(read).toBe(numbered.join('\n'));
  });

  test('Grep in content mode: the pointer, then the binary pagination note', () => {
    const grep = shownFor(run.mainCalls, 'tu_grep').text;
    const { saved, pointer } = spilled(grep, run.bench);
    expect(grep.startsWith(`${pointer}\n`)).toBe(true);
    expect(grep.length).toBeLessThan(pointer.length + 100);
    // One file searched, so the lines are numbered without a file name.
    const [line0, line1] = READ_TEXT.split('\n');
    expect(saved.split('\n').slice(0, 2)).toEqual([`1:${line0}`, `2:${line1}`]);
  });

  test('Glob: the paths one per line, the count of a truncated list said by the pointer', () => {
    const glob = shownFor(run.mainCalls, 'tu_glob').text;
    const { saved, pointer } = spilled(glob, run.bench);
    // Not the binary's own note, which would count the one-element list: "Showing 1 of 120".
    expect(glob).toBe(
      `${pointer}\n(The list holds the first 100 of 120 matching files; narrow the pattern or path to see the rest.)`,
    );
    const paths = saved.split('\n');
    expect(paths).toHaveLength(100);
    expect(paths.every((path) => path.startsWith(`${DEEP}/file-number-`))).toBe(true);
  });

  test('an in-process MCP tool: the content-block array', () => {
    const mcp = shownFor(run.mainCalls, 'tu_mcp').text;
    expect(mcp).toBe(spilled(mcp, run.bench, MCP_TEXT).pointer);
  });

  test('the human channel is never spilled', () => {
    const human = shownFor(run.mainCalls, 'tu_human').text;
    expect(human).toContain(HUMAN_TEXT);
    expect(human).not.toContain('spilled to');
  });

  test('a subagent: its own Bash result spills in its thread, its report in the main thread', () => {
    const subagentBash = shownFor(run.subagentCalls, 'tu_sub_bash').text;
    expect(subagentBash).toBe(spilled(subagentBash, run.bench, SUBAGENT_BASH_TEXT).pointer);
    const report = shownFor(run.mainCalls, 'tu_agent').text;
    // The hand-back frame indents every line of the report.
    const indented = spilled(report, run.bench, REPORT_TEXT).pointer.replace(/^/gm, '  ');
    expect(report).toContain('[Subagent hand-back]');
    expect(report).toContain(`The report follows:\n${indented}\n`);
    expect(report.length).toBeLessThan(indented.length + 1000);
  });

  test('reading a spill file back shows its content: no pointer, no second spill', () => {
    const readBack = shownFor(run.mainCalls, 'tu_read_back');
    expect(readBack.isError).toBe(false);
    expect(readBack.text).not.toContain('spilled to');
    expect(readBack.text).toContain('1\tbash line 0000 ');
    expect(readBack.text).toContain('1000\tbash line 0999 ');
    const grepBack = shownFor(run.mainCalls, 'tu_grep_back').text;
    expect(grepBack).not.toContain('spilled to');
    expect(grepBack.length).toBeGreaterThan(4000);
    expect(grepBack).toContain('bash line 0000 ');
  });

  test('emits one spill event per spilled text, none for the read-backs', () => {
    expect(run.spills.map((event) => [event.tool, event.subagent])).toEqual([
      ['Bash', false],
      ['Read', false],
      ['Grep', false],
      ['Glob', false],
      ['mcp__fw__dump', false],
      ['Bash', true],
      ['Agent', false],
    ]);
    const bash = shownFor(run.mainCalls, 'tu_bash').text;
    expect(run.spills[0]).toMatchObject({
      chars: BASH_TEXT.length,
      path: run.bench.display(pointedFile(bash, run.bench.workspace)),
    });
  });
});

describe('indexGuard with the real SDK', () => {
  test('refreshes INDEX.md after a Write and after a writing Bash command in the workbench', () => {
    expect(run.indexAfterWrite).toContain('- `scripts/count.sh` — counts the rows (38B)');
    expect(run.indexAfterWrite).toContain('## Decision records (0)');
    expect(run.indexAfterRun).toContain('- `scripts/count.sh` — counts the rows (38B)');
    expect(run.indexAfterRun).toContain('- `notes/decision.md` — Keep the fake (16B)');
    expect(run.indexAfterRun).not.toContain('spill/');
  });
});
