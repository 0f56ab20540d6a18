import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { AgentMessage } from '../agent/agent-backend.js';
import {
  sdkAssistant,
  sdkAssistantText,
  sdkResult,
  sdkToolResult,
  sdkToolUse,
  testUuid,
} from '../testing/sdk-messages.js';
import { classify } from './classify-error.js';
import { StallWatchdog, stallError } from './stall-watchdog.js';

// SDK messages of the shapes the watchdog reads, typed as the real SDK sends them.
type SDKTaskStartedMessage = Extract<AgentMessage, { subtype: 'task_started' }>;
type SDKTaskNotificationMessage = Extract<AgentMessage, { subtype: 'task_notification' }>;
type SDKTaskUpdatedMessage = Extract<AgentMessage, { subtype: 'task_updated' }>;
type SDKBackgroundTasksChangedMessage = Extract<AgentMessage, { subtype: 'background_tasks_changed' }>;
const ids = () => ({ uuid: testUuid(), session_id: 'session-1' });
const text = (): AgentMessage => sdkAssistantText('hi');
const toolUse = (id: string, parent: string | null = null): AgentMessage =>
  sdkToolUse('Bash', { command: 'make' }, id, { parentToolUseId: parent });
const toolResult = (id: string, parent: string | null = null): AgentMessage =>
  sdkToolResult(id, 'done', { parentToolUseId: parent });
const taskStarted = (taskId: string, extra: Partial<SDKTaskStartedMessage> = {}): SDKTaskStartedMessage => ({
  type: 'system',
  subtype: 'task_started',
  task_id: taskId,
  task_type: 'local_agent',
  description: '',
  ...ids(),
  ...extra,
});
const taskNotification = (taskId: string): SDKTaskNotificationMessage => ({
  type: 'system',
  subtype: 'task_notification',
  task_id: taskId,
  status: 'completed',
  output_file: '',
  summary: '',
  ...ids(),
});
const taskUpdated = (
  taskId: string,
  status: NonNullable<SDKTaskUpdatedMessage['patch']['status']>,
): SDKTaskUpdatedMessage => ({
  type: 'system',
  subtype: 'task_updated',
  task_id: taskId,
  patch: { status },
  ...ids(),
});
const backgroundTasks = (
  tasks: SDKBackgroundTasksChangedMessage['tasks'],
): SDKBackgroundTasksChangedMessage => ({
  type: 'system',
  subtype: 'background_tasks_changed',
  tasks,
  ...ids(),
});
const result = (): AgentMessage => sdkResult();

const SECOND = 1000;

let stalls: number[];
let watchdog: StallWatchdog;

function start(timeoutS = 120, onStall = (idleS: number) => void stalls.push(idleS)): StallWatchdog {
  watchdog = new StallWatchdog({ timeoutS, onStall });
  return watchdog;
}

beforeEach(() => {
  vi.useFakeTimers();
  stalls = [];
});

afterEach(() => {
  watchdog.stop();
  vi.useRealTimers();
});

describe('StallWatchdog', () => {
  test('fires once the stream has been silent for the timeout', () => {
    start(120);
    vi.advanceTimersByTime(119 * SECOND);
    expect(stalls).toEqual([]);
    vi.advanceTimersByTime(1 * SECOND);
    expect(stalls).toEqual([120]);
    expect(watchdog.done).toBe(true);
  });

  test('counts silence from the last message', () => {
    start(120);
    vi.advanceTimersByTime(100 * SECOND);
    watchdog.observe(text());
    vi.advanceTimersByTime(100 * SECOND);
    watchdog.observe(text());
    vi.advanceTimersByTime(119 * SECOND);
    expect(stalls).toEqual([]);
    expect(watchdog.idleS).toBe(119);
    vi.advanceTimersByTime(1 * SECOND);
    expect(stalls).toEqual([120]);
  });

  test('fires only once', () => {
    start(10);
    vi.advanceTimersByTime(10 * SECOND);
    watchdog.observe(text());
    vi.advanceTimersByTime(100 * SECOND);
    expect(stalls).toEqual([10]);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('keeps one timer however many messages arrive', () => {
    start(120);
    for (let index = 0; index < 50; index++) {
      watchdog.observe(text());
      vi.advanceTimersByTime(SECOND);
    }
    expect(vi.getTimerCount()).toBe(1);
  });

  test('does not fire while a tool call runs, and counts again after its result', () => {
    start(120);
    watchdog.observe(toolUse('tool-1'));
    expect(watchdog.busy).toBe(true);
    expect(vi.getTimerCount()).toBe(0); // no timer at all while something runs
    vi.advanceTimersByTime(3600 * SECOND);
    expect(stalls).toEqual([]);
    watchdog.observe(toolResult('tool-1'));
    expect(watchdog.busy).toBe(false);
    vi.advanceTimersByTime(119 * SECOND);
    expect(stalls).toEqual([]);
    vi.advanceTimersByTime(1 * SECOND);
    expect(stalls).toEqual([120]);
  });

  test('waits for every parallel tool call to finish', () => {
    start(60);
    watchdog.observe(
      sdkAssistant([
        { type: 'tool_use', id: 'a', name: 'Read', input: {} },
        { type: 'tool_use', id: 'b', name: 'Read', input: {} },
      ]),
    );
    watchdog.observe(toolResult('a'));
    vi.advanceTimersByTime(600 * SECOND);
    expect(stalls).toEqual([]);
    watchdog.observe(toolResult('b'));
    vi.advanceTimersByTime(60 * SECOND);
    expect(stalls).toEqual([60]);
  });

  test('does not fire while a subagent runs, and counts again after its notification', () => {
    start(120);
    watchdog.observe(taskStarted('task-1', { is_backgrounded: true }));
    vi.advanceTimersByTime(3600 * SECOND);
    expect(stalls).toEqual([]);
    watchdog.observe(taskNotification('task-1'));
    vi.advanceTimersByTime(120 * SECOND);
    expect(stalls).toEqual([120]);
  });

  test("tracks a subagent's own tool calls", () => {
    start(120);
    watchdog.observe(toolUse('agent-call'));
    watchdog.observe(toolUse('sub-bash', 'agent-call'));
    watchdog.observe(toolResult('agent-call'));
    vi.advanceTimersByTime(600 * SECOND);
    expect(stalls).toEqual([]);
    watchdog.observe(toolResult('sub-bash', 'agent-call'));
    vi.advanceTimersByTime(120 * SECOND);
    expect(stalls).toEqual([120]);
  });

  test('clears open tool calls when the turn ends with a result', () => {
    start(120);
    watchdog.observe(toolUse('cut-off'));
    watchdog.observe(result());
    vi.advanceTimersByTime(120 * SECOND);
    expect(stalls).toEqual([120]);
  });

  test('keeps a background subagent running across a result', () => {
    start(120);
    watchdog.observe(taskStarted('task-1', { is_backgrounded: true }));
    watchdog.observe(result());
    vi.advanceTimersByTime(600 * SECOND);
    expect(stalls).toEqual([]);
  });

  test('ends a task on a task_updated with a final status', () => {
    start(120);
    watchdog.observe(taskStarted('task-1'));
    watchdog.observe(taskUpdated('task-1', 'running'));
    expect(watchdog.busy).toBe(true);
    watchdog.observe(taskUpdated('task-1', 'killed'));
    expect(watchdog.busy).toBe(false);
  });

  test('drops background tasks missing from a background_tasks_changed level', () => {
    start(120);
    watchdog.observe(taskStarted('foreground', { is_backgrounded: false }));
    watchdog.observe(taskStarted('gone', { is_backgrounded: true }));
    watchdog.observe(backgroundTasks([{ task_id: 'late', task_type: 'local_agent', description: 'x' }]));
    watchdog.observe(taskNotification('foreground'));
    expect(watchdog.busy).toBe(true); // 'late' still runs
    watchdog.observe(backgroundTasks([]));
    expect(watchdog.busy).toBe(false);
  });

  test('is not silenced by a background shell or an ambient task', () => {
    start(120);
    watchdog.observe(taskStarted('server', { task_type: 'local_bash', is_backgrounded: true }));
    watchdog.observe(taskStarted('watcher', { ambient: true }));
    expect(watchdog.busy).toBe(false);
    vi.advanceTimersByTime(120 * SECOND);
    expect(stalls).toEqual([120]);
  });

  test('stop() clears its timer and it never fires afterwards', () => {
    start(120);
    expect(vi.getTimerCount()).toBe(1);
    watchdog.stop();
    expect(vi.getTimerCount()).toBe(0);
    watchdog.observe(text());
    vi.advanceTimersByTime(3600 * SECOND);
    expect(stalls).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('survives an onStall that throws', () => {
    start(5, () => {
      throw new Error('sink broke');
    });
    expect(() => vi.advanceTimersByTime(5 * SECOND)).not.toThrow();
    expect(watchdog.done).toBe(true);
  });

  test('takes an injected time source', () => {
    let now = 0;
    watchdog = new StallWatchdog({ timeoutS: 30, onStall: (idleS) => stalls.push(idleS), now: () => now });
    now = 25_000;
    expect(watchdog.idleS).toBe(25);
    vi.advanceTimersByTime(30 * SECOND); // timer fires, but the injected clock says only 25 s passed
    expect(stalls).toEqual([]);
    now = 31_000;
    vi.advanceTimersByTime(5 * SECOND);
    expect(stalls).toEqual([31]);
  });
});

describe('StallWatchdog timers', () => {
  test('does not keep the process alive', () => {
    vi.useRealTimers();
    const count = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = count();
    start(3600);
    expect(count()).toBe(before);
  });
});

describe('stallError', () => {
  test('writes the transient stall text of decisions.md D30', () => {
    expect(stallError(120.4)).toBe('stall: no SDK message for 120 s');
    expect(classify(stallError(401))).toBe('transient');
  });
});
