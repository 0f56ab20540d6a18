import { describe, expect, test } from 'vitest';
import type { HookCallback, HookInput } from '../agent/claude-sdk.js';
import { spillsWrittenHooks } from './spills-written-hook.js';

const input = {
  hook_event_name: 'PreToolUse',
  session_id: 's',
  transcript_path: '',
  cwd: '/',
  tool_name: 'Read',
  tool_input: { file_path: '/w/.flower/spill/0123456789abcdef.txt' },
  tool_use_id: 'toolu_1',
} as unknown as HookInput;

describe('spillsWrittenHooks', () => {
  test('holds a tool call until the spill files are written, then leaves the decision to the gate', async () => {
    let release: () => void = () => undefined;
    const written = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hooks = spillsWrittenHooks(() => written);
    const callback = hooks.PreToolUse?.[0]?.hooks[0] as HookCallback;
    let answered = false;
    const answer = callback(input, 'toolu_1', { signal: new AbortController().signal }).then((output) => {
      answered = true;
      return output;
    });
    // Let every already-resolvable promise run: the answer must still wait for the files.
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    release();
    expect(await answer).toEqual({});
  });
});
