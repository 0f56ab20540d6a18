import { spawn } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { FlowerEvent } from '../events/flower-event.js';
import {
  EVENT_LOG_FILE,
  EventLog,
  eventLogStatus,
  MAX_LINE_CHARS,
  MAX_TEXT_CHARS,
  processAlive,
  readRecentEvents,
} from './event-log.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-event-log-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function textEvent(text: string, at = 1000): FlowerEvent {
  return { kind: 'text', text, at, step: 'work', subagent: false, parentToolUseId: null };
}

function lines(): unknown[] {
  return readFileSync(join(dir, EVENT_LOG_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}

/** Writes an event line as the log does, without a log object. */
function eventLine(index: number): string {
  return `${JSON.stringify({ ...textEvent(`event ${index}`, index), pid: 1 })}\n`;
}

describe('EventLog', () => {
  test('appends an open marker, one line per event without raw, and a close marker', () => {
    const log = new EventLog(dir, { pid: 4242 });
    log.sink({ ...textEvent('hello'), raw: { huge: 'x'.repeat(1000) } });
    log.sink({
      kind: 'tool_call',
      text: 'Bash npm test',
      at: 1001,
      step: 'work',
      subagent: true,
      parentToolUseId: 'toolu_1',
      tool: 'Bash',
      id: 'toolu_2',
      input: { command: 'npm test' },
    });
    log.close();
    log.sink(textEvent('after close'));
    log.close();

    const written = lines();
    expect(written).toHaveLength(4);
    expect(written[0]).toMatchObject({ log: 'open', v: 1, pid: 4242 });
    expect(written[1]).toEqual({ ...textEvent('hello'), pid: 4242 });
    expect(written[2]).toMatchObject({ kind: 'tool_call', input: { command: 'npm test' }, pid: 4242 });
    expect(written[3]).toMatchObject({ log: 'close', pid: 4242 });
    expect(log.errors).toEqual([]);
  });

  test('creates the run directory when it is missing', () => {
    const runDir = join(dir, 'deep', 'runs');
    const log = new EventLog(runDir);
    log.close();
    expect(eventLogStatus(runDir)).toMatchObject({ exists: true, closed: true });
  });

  test('writes an oversized event as its scalar fields with the text cut', () => {
    const log = new EventLog(dir, { pid: 7 });
    log.sink({
      kind: 'tool_call',
      text: 'W'.repeat(MAX_LINE_CHARS),
      at: 5,
      step: 'work',
      subagent: false,
      parentToolUseId: null,
      tool: 'Write',
      id: 'toolu_9',
      input: { content: 'x'.repeat(MAX_LINE_CHARS) },
    });
    const [, line] = lines() as Array<Record<string, unknown>>;
    expect(line).toEqual({
      kind: 'tool_call',
      text: 'W'.repeat(MAX_TEXT_CHARS),
      at: 5,
      step: 'work',
      subagent: false,
      parentToolUseId: null,
      tool: 'Write',
      id: 'toolu_9',
      pid: 7,
      truncated: true,
    });
  });

  test('records a write failure instead of throwing, and the run goes on', () => {
    // A directory where the file should be: appending fails even for root.
    mkdirSync(join(dir, EVENT_LOG_FILE));
    const log = new EventLog(dir);
    expect(() => log.sink(textEvent('lost'))).not.toThrow();
    log.close();
    expect(log.errors).toHaveLength(3);
    expect(log.errors[0]).toMatch(/^event log: EISDIR/);
  });

  test('records a sink call whose event cannot be serialised', () => {
    const log = new EventLog(dir);
    const input: Record<string, unknown> = {};
    input['self'] = input;
    log.sink({ ...textEvent('loop'), kind: 'tool_call', tool: 'X', id: 'toolu_x', input } as FlowerEvent);
    expect(log.errors).toHaveLength(1);
    expect(log.errors[0]).toMatch(/circular/i);
  });
});

describe('readRecentEvents', () => {
  test('returns an empty list when there is no log', () => {
    expect(readRecentEvents(dir)).toEqual([]);
  });

  test('reads only the tail of a big file, oldest first, skipping a torn last line', () => {
    const path = join(dir, EVENT_LOG_FILE);
    // 1 GiB of holes (a sparse file: no disk used) before the events. A reader of the whole file would
    // fail here: V8 cannot hold a string that long.
    writeFileSync(path, '');
    truncateSync(path, 2 ** 30);
    const body: string[] = ['\n'];
    for (let index = 0; index < 100; index++) body.push(eventLine(index));
    appendFileSync(path, body.join(''));
    appendFileSync(path, '{"kind":"text","text":"torn in the mid');

    const events = readRecentEvents(dir, { limit: 60 });
    expect(events).toHaveLength(60);
    expect(events[0]?.text).toBe('event 40');
    expect(events.at(-1)?.text).toBe('event 99');
  });

  test('skips malformed lines and markers, and grows the read until enough events are found', () => {
    const path = join(dir, EVENT_LOG_FILE);
    const body: string[] = [eventLine(1), eventLine(2)];
    body.push(
      'not json at all\n',
      '[1,2,3]\n',
      '{"kind":"text","at":1,"step":null}\n',
      '{"kind":"text","text":"no time","step":null}\n',
      '{"kind":5,"text":"","at":1}\n',
    );
    body.push('{"kind":"text","text":"bad step","at":1,"step":5}\n');
    body.push('{"log":"open","v":1,"pid":1,"at":3}\n', eventLine(3));
    // Filler lines the reader must skip past: 200 KB of markers, more than the first chunk.
    for (let index = 0; index < 4000; index++) body.push(`{"log":"open","v":1,"pid":1,"at":${index}}\n`);
    body.push(eventLine(4));
    writeFileSync(path, body.join(''));

    expect(readRecentEvents(dir, { limit: 3 }).map((event) => event.text)).toEqual([
      'event 2',
      'event 3',
      'event 4',
    ]);
    expect(readRecentEvents(dir, { limit: 10 }).map((event) => event.text)).toEqual([
      'event 1',
      'event 2',
      'event 3',
      'event 4',
    ]);
  });

  test('counts only the events that `accept` takes', () => {
    const log = new EventLog(dir);
    for (let index = 0; index < 5; index++) {
      log.sink(textEvent(`said ${index}`));
      log.sink({
        kind: 'thinking',
        text: `thought ${index}`,
        at: 1,
        step: null,
        subagent: false,
        parentToolUseId: null,
      });
    }
    const events = readRecentEvents(dir, { limit: 3, accept: (event) => event.kind !== 'thinking' });
    expect(events.map((event) => event.text)).toEqual(['said 2', 'said 3', 'said 4']);
  });
});

describe('eventLogStatus', () => {
  test('says no log exists in an empty run directory', () => {
    expect(eventLogStatus(dir)).toEqual({
      exists: false,
      pid: null,
      closed: false,
      lastAt: null,
      live: false,
    });
  });

  test('reads an open log of this live process as in progress, and a closed one as not', () => {
    const log = new EventLog(dir);
    log.sink(textEvent('working', 1234.5));
    expect(eventLogStatus(dir)).toEqual({
      exists: true,
      pid: process.pid,
      closed: false,
      lastAt: 1234.5,
      live: true,
    });
    log.close();
    expect(eventLogStatus(dir)).toMatchObject({ pid: process.pid, closed: true, live: false });
  });

  test('reads a log left open by a process that died as not in progress', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid as number;
    await new Promise((resolve) => child.once('exit', resolve));
    const log = new EventLog(dir, { pid });
    log.sink(textEvent('then it was killed'));
    expect(processAlive(pid)).toBe(false);
    expect(eventLogStatus(dir)).toMatchObject({ exists: true, pid, closed: false, live: false });
  });

  test('judges by the last writer when several processes wrote in turn', () => {
    const first = new EventLog(dir, { pid: 999_999_999 });
    first.close();
    const second = new EventLog(dir);
    expect(eventLogStatus(dir)).toMatchObject({ pid: process.pid, live: true });
    second.close();
  });
});
