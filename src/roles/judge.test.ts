import { describe, expect, test } from 'vitest';
import type { HookInput, McpServerConfig } from '../agent/claude-sdk.js';
import type { ChannelLike } from './channel-like.js';
import { judge, setGoalInstructions, verdictInstructions } from './judge.js';

const server = { type: 'sdk', name: 'human' } as unknown as McpServerConfig;
const channel: ChannelLike = { mcpServers: () => ({ human: server }) };

function bash(command: string): HookInput {
  return {
    hook_event_name: 'PreToolUse',
    session_id: 's',
    transcript_path: '/t.jsonl',
    cwd: '/ws',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'tu_1',
  };
}

async function decisionFor(spec: ReturnType<typeof judge>, command: string): Promise<unknown> {
  const callback = spec.hooks?.PreToolUse?.[0]?.hooks[0];
  if (callback === undefined) throw new Error('no PreToolUse hook');
  const output = (await callback(bash(command), 'tu_1', { signal: new AbortController().signal })) as {
    hookSpecificOutput?: { permissionDecision?: string };
  };
  return output.hookSpecificOutput?.permissionDecision;
}

describe('judge', () => {
  test('reads and may ask, but cannot run, write, delegate, use the web or the inbox by default', () => {
    const spec = judge('goal', channel);
    expect(spec.allowedTools).toEqual(['mcp__human__ask', 'Read', 'Glob', 'Grep']);
    expect(spec.tools).toEqual(spec.allowedTools);
    expect(spec.disallowedTools).toEqual(['mcp__human__inbox']);
    expect(spec).toMatchObject({
      workbench: false,
      delegateOnly: false,
      permissionMode: 'dontAsk',
      mcpServers: { human: server },
      hooks: null,
    });
  });

  test('has no ask tool and no server without a channel', () => {
    const spec = judge('work/verdict#1', null);
    expect(spec.allowedTools).toEqual(['Read', 'Glob', 'Grep']);
    expect(spec.mcpServers).toEqual({});
  });

  test('gets full Bash with canRun true, and no inspection hook', () => {
    const spec = judge('v', null, { canRun: true });
    expect(spec.allowedTools).toEqual(['Read', 'Glob', 'Grep', 'Bash']);
    expect(spec.tools).toEqual(['Read', 'Glob', 'Grep', 'Bash']);
    expect(spec.disallowedTools).toEqual([]);
    expect(spec.hooks).toBeNull();
  });

  test('gets Bash behind a fail-closed inspection hook with canRun inspect', async () => {
    const spec = judge('v', null, { canRun: 'inspect' });
    expect(spec.allowedTools).toContain('Bash');
    expect(spec.hooks?.PreToolUse?.[0]).toMatchObject({ matcher: 'Bash', onFailure: 'block' });
    expect(await decisionFor(spec, 'file dist/app && ./dist/app --version')).toBe('allow');
    expect(await decisionFor(spec, 'rm -rf dist')).toBe('ask');
    expect(await decisionFor(spec, 'make && file dist/app')).toBe('ask');
  });

  test('passes the remaining options through', () => {
    expect(judge('v', null, { model: 'opus', effort: 'high', maxTurns: 30 })).toMatchObject({
      model: 'opus',
      effort: 'high',
      maxTurns: 30,
    });
  });
});

describe('judge rule text', () => {
  const text = judge('v', channel).instructions;

  test('holds both jobs with their sections', () => {
    expect(text).toContain('## Job A: set the goal');
    expect(text).toContain('## Job B: judge a round');
    for (const heading of ['## Goal', '## Checklist', '## Conclusion', '## Reason', '## Failed']) {
      expect(text).toContain(`\n${heading}\n`);
    }
    expect(text).toContain('ACHIEVED, NOT_YET or UNREACHABLE');
    expect(text).toContain('"(none)"');
  });

  test('keeps checklists short and boundaries out of them', () => {
    expect(text).toContain('Clone, build and run needs 3–5 items');
    expect(text).toContain('measured a 15-item list');
    expect(text).toContain('Boundaries are not checks');
    expect(text).toContain('no file modification times');
    expect(text).toContain('establish where this runs');
  });

  test('marks unverifiable items with the English marker the goal parser reads', () => {
    expect(text).toContain('`[unverifiable here: <reason>]`');
    expect(text).toContain('never passes');
  });

  test('judges the artifact, not the source, with the HT001 story, and disbelieves "done"', () => {
    expect(text).toContain('Judge the artifact, not the source');
    expect(text).toContain('HT001');
    expect(text).toContain('ELF 64-bit LSB pie executable, ARM aarch64, GNU/Linux');
    expect(text).toContain('Do not believe "done"');
    expect(text).toContain('No evidence means the item failed');
  });

  test('tells NOT_YET from UNREACHABLE', () => {
    expect(text).toContain('NOT_YET means not done yet');
    expect(text).toContain('UNREACHABLE means it cannot be verified here in principle');
    expect(text).toContain('missing external prerequisite');
    expect(text).toContain('Cannot decide is not done');
  });

  test('says what it can run, per canRun', () => {
    expect(judge('v', null).instructions).toContain('You cannot run commands here');
    expect(judge('v', null, { canRun: true }).instructions).toContain('never to change or fix anything');
    expect(judge('v', null, { canRun: 'inspect' }).instructions).toContain(
      'Bash runs inspection commands only',
    );
  });

  test('appends the caller’s instructions', () => {
    expect(judge('v', null, { instructions: 'Be strict.' }).instructions.endsWith('\n\nBe strict.')).toBe(
      true,
    );
  });
});

describe('job openers', () => {
  test('name the job and the sections to reply with', () => {
    expect(setGoalInstructions()).toMatch(/^Job A: set the goal\./);
    expect(setGoalInstructions()).toContain('Goal and Checklist');
    expect(verdictInstructions()).toMatch(/^Job B: judge this round/);
    expect(verdictInstructions()).toContain('Conclusion, Reason and Failed');
  });
});
