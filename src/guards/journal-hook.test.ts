import { describe, expect, test } from 'vitest';
import type { HookInput } from '../agent/claude-sdk.js';
import { JOURNAL_FAILED_REASON, journalHooks, type RecordedCall } from './journal-hook.js';

function preToolUse(extra: Record<string, unknown> = {}): HookInput {
  return {
    hook_event_name: 'PreToolUse',
    session_id: 'session-1',
    transcript_path: '/tmp/t.jsonl',
    cwd: '/workspace',
    tool_name: 'Bash',
    tool_input: { command: 'echo 1 >> lines.txt' },
    tool_use_id: 'toolu_1',
    ...extra,
  };
}

const options = { signal: new AbortController().signal };

describe('journalHooks', () => {
  test('records every call before answering, and leaves the decision to the other hooks', async () => {
    const recorded: RecordedCall[] = [];
    const hooks = journalHooks(
      {
        record: (call) => {
          recorded.push(call);
        },
      },
      () => 42,
    );
    expect(hooks.PreToolUse).toHaveLength(1);
    expect(hooks.PreToolUse![0]!.matcher).toBeUndefined();
    const callback = hooks.PreToolUse![0]!.hooks[0]!;
    expect(await callback(preToolUse({ agent_id: 'agent7' }), 'toolu_1', options)).toEqual({});
    expect(recorded).toEqual([
      {
        sessionId: 'session-1',
        toolUseId: 'toolu_1',
        agentId: 'agent7',
        toolName: 'Bash',
        input: { command: 'echo 1 >> lines.txt' },
        startedAt: 42,
      },
    ]);
  });

  test('passes without recording a call it could not match to a transcript', async () => {
    const recorded: RecordedCall[] = [];
    const callback = journalHooks({
      record: (call) => {
        recorded.push(call);
      },
    }).PreToolUse![0]!.hooks[0]!;
    await callback(preToolUse({ session_id: '' }), undefined, options);
    await callback(preToolUse({ tool_use_id: '' }), undefined, options);
    expect(recorded).toEqual([]);
  });

  test('a journal on a server: the answer waits until the row is written', async () => {
    let written: () => void = () => undefined;
    const order: string[] = [];
    const callback = journalHooks({
      record: () =>
        new Promise<void>((done) => {
          written = () => {
            order.push('written');
            done();
          };
        }),
    }).PreToolUse![0]!.hooks[0]!;
    const answer = callback(preToolUse({}), 'toolu_1', options).then(() => order.push('answered'));
    await Promise.resolve();
    expect(order).toEqual([]);
    written();
    await answer;
    expect(order).toEqual(['written', 'answered']);
  });

  test('a journal that cannot be written denies the call, after telling the listener why', async () => {
    const failure = new Error('disk full');
    const order: string[] = [];
    const hooks = journalHooks(
      {
        record: () => {
          throw failure;
        },
      },
      Date.now,
      (error) => order.push(error === failure ? 'heard' : 'other'),
    );
    const answer = await hooks.PreToolUse![0]!.hooks[0]!(preToolUse(), 'toolu_1', options);
    order.push('answered');
    expect(answer).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: JOURNAL_FAILED_REASON,
      },
    });
    expect(order).toEqual(['heard', 'answered']);
  });

  test('a journal on a server that fails denies the call too, and a listener that throws changes nothing', async () => {
    const callback = journalHooks(
      { record: () => Promise.reject(new Error('connection lost')) },
      Date.now,
      () => {
        throw new Error('listener broke');
      },
    ).PreToolUse![0]!.hooks[0]!;
    const answer = (await callback(preToolUse(), 'toolu_1', options)) as {
      hookSpecificOutput?: { permissionDecision?: string };
    };
    expect(answer.hookSpecificOutput?.permissionDecision).toBe('deny');
  });
});
