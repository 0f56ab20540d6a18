import { describe, expect, test } from 'vitest';
import type { FlowerEvent } from '../events/flower-event.js';
import { ActivityLine } from './activity-line.js';

const main = { at: 0, step: 'work', subagent: false, parentToolUseId: null };
const SECOND = 1000;

describe('ActivityLine', () => {
  test('says nothing until a step runs and again after its result', () => {
    const line = new ActivityLine();
    expect(line.text(0, 80)).toBe('');
    line.observe(
      { ...main, kind: 'step', text: '', name: 'work', index: 1, total: 1, resumed: false, woke: 0 },
      0,
    );
    expect(line.text(5 * SECOND, 80)).toBe('  ~ model call 0:05 · $0.00');
    line.observe(
      {
        at: 0,
        step: 'work',
        kind: 'result',
        text: '',
        sessionId: 's',
        costUsd: 1,
        numTurns: 1,
        isError: false,
        subtype: 'success',
        errors: [],
      },
      6 * SECOND,
    );
    expect(line.text(7 * SECOND, 80)).toBe('');
  });

  test('shows the tokens streamed, the running tool and worker with their clocks, and the run cost', () => {
    const line = new ActivityLine();
    const events: Array<[FlowerEvent, number]> = [
      [{ ...main, kind: 'stream', text: '', tokens: 1234, done: false }, 1 * SECOND],
      [{ at: 0, step: 'work', kind: 'cost', text: '', usd: 0.01, stepUsd: 0.12, runUsd: 0.12 }, 1 * SECOND],
      [{ ...main, kind: 'tool_call', text: 'npm test', tool: 'Bash', id: 't1', input: {} }, 2 * SECOND],
      [
        {
          ...main,
          kind: 'tool_call',
          text: '',
          tool: 'Agent',
          id: 't2',
          input: { subagent_type: 'explore', description: 'look around' },
        },
        3 * SECOND,
      ],
    ];
    for (const [event, at] of events) line.observe(event, at);
    expect(line.text(65 * SECOND, 200)).toBe(
      '  ~ model call 1:04 · 1.2K tokens · running Bash 1:03 · worker explore 1:02 · $0.12',
    );
    // A subagent's stream does not count as the main call's reply; its tool result ends only its tool.
    line.observe({ ...main, kind: 'stream', text: '', tokens: 9, done: false, subagent: true }, 66 * SECOND);
    line.observe(
      { ...main, kind: 'tool_result', text: '', toolUseId: 't1', tool: 'Bash', isError: false },
      70 * SECOND,
    );
    // The main thread's next model call starts with the tool result.
    expect(line.text(72 * SECOND, 200)).toBe('  ~ model call 0:02 · worker explore 1:09 · $0.12');
    line.observe(
      {
        at: 0,
        step: 'work',
        kind: 'subagent_stop',
        text: '',
        taskId: 'task-1',
        toolUseId: 't2',
        agentType: 'explore',
        status: 'completed',
        tokens: null,
        durationMs: null,
      },
      73 * SECOND,
    );
    expect(line.text(74 * SECOND, 200)).toBe('  ~ model call 0:04 · $0.12');
  });

  test('never fills the last column of the terminal, so it never wraps', () => {
    const line = new ActivityLine();
    line.observe({ ...main, kind: 'tool_call', text: '', tool: 'Bash'.repeat(30), id: 't', input: {} }, 0);
    const shown = line.text(SECOND, 60);
    expect(shown.length).toBeLessThanOrEqual(59);
    expect(shown.startsWith('  ~ model call 0:01')).toBe(true);
  });
});

describe('ActivityLine during a network wait', () => {
  const wait = { at: 0, step: 'work', text: '', host: '127.0.0.1', port: 59999 };

  test('counts the wait and the next check down every second, and ends with the wait', () => {
    const line = new ActivityLine();
    line.observe({ ...wait, kind: 'wait', maxWaitS: 3600 }, 0);
    expect(line.text(3 * SECOND, 120)).toBe(
      '  ~ waiting for 127.0.0.1:59999 · 0:03 so far · next check in 0 s · Ctrl-C to stop',
    );
    line.observe({ ...wait, kind: 'waiting', waitedS: 192, nextCheckS: 15 }, 10 * SECOND);
    expect(line.text(14 * SECOND, 120)).toBe(
      '  ~ waiting for 127.0.0.1:59999 · 3:16 so far · next check in 11 s · Ctrl-C to stop',
    );
    expect(line.text(15 * SECOND, 120)).toContain('3:17 so far · next check in 10 s');
    line.observe({ ...wait, kind: 'recovered', waitedS: 200 }, 20 * SECOND);
    expect(line.text(21 * SECOND, 120)).not.toContain('waiting');
  });

  test('a narrow terminal drops the Ctrl-C hint, then the time waited, before it cuts the next check', () => {
    const line = new ActivityLine();
    line.observe({ ...wait, kind: 'waiting', waitedS: 16, nextCheckS: 4 }, 0);
    expect(line.text(0, 70)).toBe('  ~ waiting for 127.0.0.1:59999 · 0:16 so far · next check in 4 s');
    expect(line.text(0, 60)).toBe('  ~ waiting for 127.0.0.1:59999 · next check in 4 s');
    expect(line.text(0, 30)).toBe('  ~ waiting for 127.0.0.1:...');
  });
});

describe('ActivityLine while parked at a usage limit', () => {
  test('counts down to the reset every second, drops the Ctrl-C hint when narrow, and ends with the park', () => {
    const resetsAt = new Date(2026, 11, 3, 17, 0, 0).getTime() / 1000;
    const parkedAt = (resetsAt - 6130) * SECOND;
    const limit = { at: 0, step: 'work', text: '', resetsAt, limit: 'five_hour', sessionId: 's1' };
    const line = new ActivityLine();
    line.observe({ ...limit, kind: 'usage_limit', phase: 'parked' }, parkedAt);
    expect(line.text(parkedAt, 120)).toBe(
      '  ~ usage limit · resumes at 17:00 · 1:42:10 left · Ctrl-C to stop',
    );
    expect(line.text(parkedAt + SECOND, 120)).toContain('1:42:09 left');
    expect(line.text(parkedAt, 60)).toBe('  ~ usage limit · resumes at 17:00 · 1:42:10 left');
    line.observe({ ...limit, kind: 'usage_limit', phase: 'resumed' }, resetsAt * SECOND);
    expect(line.text(resetsAt * SECOND, 120)).not.toContain('usage limit');
  });
});
