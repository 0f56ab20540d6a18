import { describe, expect, test } from 'vitest';
import type { HookCallback, HookInput } from '../agent/claude-sdk.js';
import { faultOf, workerFaultHooks } from './worker-fault-hook.js';

const REFUSED =
  'Agent terminated early due to an API error: API Error: Connection refused — a firewall or proxy may be ' +
  'blocking it (ECONNREFUSED) (error type server_error)';

const base = { session_id: 's', transcript_path: '/t', cwd: '/w' };
const failure = (error: string, extra: Record<string, unknown> = {}): HookInput => ({
  ...base,
  hook_event_name: 'PostToolUseFailure',
  tool_name: 'Agent',
  tool_input: {},
  tool_use_id: 'toolu_d',
  error,
  ...extra,
});

describe('faultOf', () => {
  test("reads a failed dispatch's error and a returned dispatch's answer", () => {
    const fault = faultOf(failure(REFUSED));
    expect(fault?.toolUseId).toBe('toolu_d');
    expect(fault?.error).toMatch(/^API Error: Connection refused .* \(ECONNREFUSED\)/);
    const returned = {
      ...base,
      hook_event_name: 'PostToolUse',
      tool_name: 'Task',
      tool_input: {},
      tool_use_id: 'toolu_t',
      tool_response: { content: [{ type: 'text', text: 'API Error: Connection error.' }] },
    } as HookInput;
    expect(faultOf(returned)).toEqual({ toolUseId: 'toolu_t', error: 'API Error: Connection error.' });
  });

  test("ignores other tools, a subagent's own calls, fatal errors and other events", () => {
    expect(faultOf(failure(REFUSED, { tool_name: 'Bash' }))).toBeNull();
    expect(faultOf(failure(REFUSED, { agent_id: 'a1' }))).toBeNull();
    expect(faultOf(failure('Agent terminated early due to an API error: API Error: 401 bad key'))).toBeNull();
    expect(faultOf({ ...base, hook_event_name: 'Stop', stop_hook_active: false })).toBeNull();
  });
});

describe('workerFaultHooks', () => {
  const callbackOf = (onFault: (id: string, error: string) => Promise<void>): HookCallback => {
    const hooks = workerFaultHooks(onFault);
    expect(hooks.PostToolUse?.[0]?.matcher).toBe('Agent|Task');
    const callback = hooks.PostToolUseFailure?.[0]?.hooks[0];
    if (callback === undefined) throw new Error('no hook');
    return callback;
  };
  const signal = new AbortController().signal;

  test('holds its answer on a cut-off worker until flower has stopped the query, then ends the turn', async () => {
    const seen: string[] = [];
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const callback = callbackOf((id, error) => {
      seen.push(`${id}: ${error.slice(0, 29)}`);
      return held;
    });
    let answered = false;
    const answer = callback(failure(REFUSED), 'toolu_d', { signal }).then((output) => {
      answered = true;
      return output;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['toolu_d: API Error: Connection refused']);
    expect(answered).toBe(false);
    release();
    expect(await answer).toEqual({ continue: false });
  });

  test('answers any other dispatch at once with no opinion', async () => {
    const callback = callbackOf(() => Promise.reject(new Error('not a fault')));
    expect(
      await callback(failure('The worker stopped: the task was unclear.'), 'toolu_d', { signal }),
    ).toEqual({});
  });
});
