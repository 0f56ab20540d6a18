import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { HookCallbackMatcher, HookInput } from '../agent/claude-sdk.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { isolated } from '../agent/isolation-mark.js';
import { Workbench } from '../workbench/workbench.js';
import { workbenchHooks } from './workbench-hooks.js';

const signal = new AbortController().signal;

function hookInput(
  event: 'PreToolUse' | 'PostToolUse',
  toolName: string,
  input: object,
  extra: object = {},
): HookInput {
  return {
    hook_event_name: event,
    session_id: 's',
    transcript_path: '/t.jsonl',
    cwd: workspace,
    tool_name: toolName,
    tool_input: input,
    tool_use_id: 'tu_1',
    ...extra,
  } as HookInput;
}

/** The parts of a hook's answer these tests read. */
interface HookAnswer {
  hookSpecificOutput: {
    permissionDecision?: string;
    permissionDecisionReason?: string;
    updatedInput?: unknown;
    updatedToolOutput?: { stdout: string };
  };
}

async function run(matcher: HookCallbackMatcher | undefined, input: HookInput): Promise<HookAnswer> {
  const callback = matcher?.hooks[0];
  if (callback === undefined) throw new Error('no such hook');
  return (await callback(input, 'tu_1', { signal })) as HookAnswer;
}

let directory: string;
let workspace: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'flower-workbench-hooks-'));
  workspace = join(directory, 'app');
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('workbenchHooks', () => {
  test('installs the delegate wall before a tool, the index and spill guards after it', () => {
    const hooks = workbenchHooks(new Workbench(workspace).ensure());
    expect(Object.keys(hooks)).toEqual(['PreToolUse', 'PostToolUse']);
    expect(hooks.PreToolUse).toHaveLength(1);
    expect(hooks.PreToolUse?.[0]).toMatchObject({ onFailure: 'block' });
    expect(hooks.PreToolUse?.[0]?.matcher).toBeUndefined();
    expect(hooks.PostToolUse?.map((matcher) => matcher.matcher)).toEqual([
      'Write|Edit|NotebookEdit|Bash',
      expect.stringContaining('Agent'),
    ]);
  });

  test('leaves out an event with no guard', () => {
    const hooks = workbenchHooks(new Workbench(workspace).ensure(), {
      delegateOnly: false,
      spillThreshold: null,
    });
    expect(Object.keys(hooks)).toEqual(['PostToolUse']);
    expect(hooks.PostToolUse).toHaveLength(1);
  });

  test('denies a coordinator’s Write with the artifacts folder of this workbench', async () => {
    const workbench = new Workbench(workspace, { root: join(directory, 'runs', 'workbench') }).ensure();
    const hooks = workbenchHooks(workbench);
    const output = await run(hooks.PreToolUse?.[0], hookInput('PreToolUse', 'Write', { file_path: 'x' }));
    expect(output.hookSpecificOutput.permissionDecision).toBe('ask');
    expect(output.hookSpecificOutput.permissionDecisionReason).toContain(
      `long output goes to ${join(directory, 'runs', 'workbench', 'artifacts')}/;`,
    );
  });

  test('lets glance Bash through with allowGlance', async () => {
    const hooks = workbenchHooks(new Workbench(workspace).ensure(), { allowGlance: true });
    const output = await run(
      hooks.PreToolUse?.[0],
      hookInput('PreToolUse', 'Bash', { command: 'git status' }),
    );
    expect(output.hookSpecificOutput.permissionDecision).toBe('allow');
  });

  test('rewrites Agent input when given the agents, isolating marked roles', async () => {
    const coder = isolated({ description: 'Writes code.', prompt: 'Implement.' });
    const hooks = workbenchHooks(new Workbench(workspace).ensure(), {
      delegateOnly: false,
      agents: { coder },
    });
    expect(hooks.PreToolUse).toHaveLength(1);
    expect(hooks.PreToolUse?.[0]?.matcher).toBe('Agent');
    const brief = { description: 'Fix', prompt: 'Fix it.', subagent_type: 'coder' };
    const output = await run(hooks.PreToolUse?.[0], hookInput('PreToolUse', 'Agent', brief));
    expect(output.hookSpecificOutput.updatedInput).toEqual({
      ...brief,
      run_in_background: false,
      isolation: 'worktree',
    });
  });

  test('leaves background dispatches alone with allowBackground and no isolated role', () => {
    const hooks = workbenchHooks(new Workbench(workspace).ensure(), {
      delegateOnly: false,
      agents: { coder: { description: 'Writes code.', prompt: 'Implement.' } },
      allowBackground: true,
    });
    expect(hooks.PreToolUse).toBeUndefined();
  });

  test('refreshes the index after a write into the workbench', async () => {
    const workbench = new Workbench(workspace).ensure();
    const hooks = workbenchHooks(workbench, { delegateOnly: false });
    const script = join(workbench.scripts, 'build.sh');
    writeFileSync(script, '#!/bin/sh\n# desc: build the app\nmake\n');
    await run(
      hooks.PostToolUse?.[0],
      hookInput('PostToolUse', 'Write', { file_path: script }, { tool_response: {}, agent_id: 'a1' }),
    );
    expect(readFileSync(workbench.index, 'utf8')).toContain('build the app');
  });

  test('spills a large result into the workbench and reports it', async () => {
    const workbench = new Workbench(workspace).ensure();
    const events: FlowerEvent[] = [];
    const hooks = workbenchHooks(workbench, { spillThreshold: 100, onEvent: (event) => events.push(event) });
    const response = { stdout: 'x'.repeat(150), stderr: '', interrupted: false, isImage: false };
    const output = await run(
      hooks.PostToolUse?.[1],
      hookInput('PostToolUse', 'Bash', { command: 'cat big.log' }, { tool_response: response }),
    );
    expect(output.hookSpecificOutput.updatedToolOutput?.stdout).toContain('.flower/spill/');
    expect(events.map((event) => event.kind)).toEqual(['spill']);
  });
});
