import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

import type { FlowerEvent } from '../events/flower-event.js';
import {
  AMEND_LABELS,
  DECLINED_TEXT,
  HumanChannel,
  INVALID_TEXT,
  OVER_BUDGET_TEXT,
  TIMEOUT_TEXT,
} from './human-channel.js';
import type { HumanChannelOptions } from './human-channel-options.js';

let dir: string;
let events: FlowerEvent[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-channel-'));
  events = [];
});

afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

function channel(options: HumanChannelOptions = {}): HumanChannel {
  return new HumanChannel({ onEvent: (event) => events.push(event), ...options });
}

const kinds = (): string[] => events.map((event) => `${event.kind}:${'state' in event ? event.state : ''}`);

describe('HumanChannel', () => {
  test('asks, emits ask then answer, and resolves with the answer', async () => {
    const human = channel({ maxAsks: 3 });
    const asked = human.ask('  Which colour?  ', { options: [' red ', '', 'blue', '  '] });
    expect(human.pending().map((ask) => ask.id)).toEqual(['q1']);
    expect(events[0]).toMatchObject({
      kind: 'ask',
      id: 'q1',
      question: 'Which colour?',
      text: 'Which colour?',
      options: ['red', 'blue'],
      remaining: 2,
      step: null,
    });
    expect(human.answer('q1', ' blue ')).toBe(true);
    await expect(asked).resolves.toMatchObject({ id: 'q1', state: 'answered', answer: 'blue' });
    expect(events[1]).toMatchObject({ kind: 'answer', id: 'q1', state: 'answered', answer: 'blue' });
    expect(events).toHaveLength(2);
    expect(human.pending()).toEqual([]);
    expect(human.answer('q1', 'again')).toBe(false);
    expect(human.decline('q1')).toBe(false);
  });

  test('reports an unlimited quota as remaining −1 and a null remaining on the event', async () => {
    const human = channel({ timeoutS: 0 });
    expect(human.remaining).toBe(-1);
    const waiting = channel();
    void waiting.ask('Anything?');
    expect(events.at(-1)).toMatchObject({ kind: 'ask', remaining: -1 });
    expect(waiting.remaining).toBe(-1);
    await human.ask('x');
  });

  test('settles an empty question as invalid at once, uncounted and never shown', async () => {
    const human = channel({ maxAsks: 1 });
    await expect(human.ask('   ')).resolves.toMatchObject({
      id: 'q1',
      state: 'invalid',
      answer: INVALID_TEXT,
    });
    expect(kinds()).toEqual(['answer:invalid']);
    expect(human.remaining).toBe(1);
    void human.ask('A real one?');
    expect(human.remaining).toBe(0);
    expect(events.at(-1)).toMatchObject({ kind: 'ask', id: 'q2', remaining: 0 });
  });

  test('refuses questions over the quota at once with the over-budget text', async () => {
    const human = channel({ maxAsks: 1 });
    void human.ask('First?');
    await expect(human.ask('Second?')).resolves.toMatchObject({
      id: 'q2',
      state: 'over_budget',
      answer: OVER_BUDGET_TEXT,
    });
    expect(kinds()).toEqual(['ask:', 'answer:over_budget']);
    expect(human.remaining).toBe(0);
    expect(human.pending().map((ask) => ask.id)).toEqual(['q1']);
  });

  test('asks nothing with a quota of 0', async () => {
    const human = channel({ maxAsks: 0 });
    await expect(human.ask('May I?')).resolves.toMatchObject({ state: 'over_budget' });
    expect(kinds()).toEqual(['answer:over_budget']);
  });

  test('falls through at once with no ask event when timeoutS is 0 or less', async () => {
    for (const timeoutS of [0, -5]) {
      events = [];
      const human = channel({ timeoutS });
      await expect(human.ask('Anyone there?')).resolves.toMatchObject({
        state: 'timeout',
        answer: TIMEOUT_TEXT,
      });
      expect(kinds()).toEqual(['answer:timeout']);
      expect(human.pending()).toEqual([]);
      await expect(human.nextAsk(0)).resolves.toBeNull();
    }
  });

  test('times out a waiting question after timeoutS seconds', async () => {
    vi.useFakeTimers();
    const human = channel({ timeoutS: 30, timeoutText: 'decide yourself' });
    const asked = human.ask('Anyone?');
    await vi.advanceTimersByTimeAsync(29_000);
    expect(human.pending()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(asked).resolves.toMatchObject({ state: 'timeout', answer: 'decide yourself' });
    expect(kinds()).toEqual(['ask:', 'answer:timeout']);
    expect(human.answer('q1', 'late')).toBe(false);
  });

  test('waits forever when timeoutS is null', async () => {
    vi.useFakeTimers();
    const human = channel({ timeoutS: null });
    const asked = human.ask('Anyone?');
    await vi.advanceTimersByTimeAsync(10 * 86_400_000);
    expect(human.pending()).toHaveLength(1);
    human.answer('q1', 'here');
    await expect(asked).resolves.toMatchObject({ state: 'answered' });
  });

  test('declines with the declined text, adding what the human said', async () => {
    const human = channel();
    const first = human.ask('One?');
    const second = human.ask('Two?');
    expect(human.decline('q1')).toBe(true);
    expect(human.decline('q2', ' input closed ')).toBe(true);
    await expect(first).resolves.toMatchObject({ state: 'declined', answer: DECLINED_TEXT });
    await expect(second).resolves.toMatchObject({
      state: 'declined',
      answer: `${DECLINED_TEXT} (they said: input closed)`,
    });
  });

  test('takes a blank answer as a decline', async () => {
    const human = channel();
    const asked = human.ask('One?');
    expect(human.answer('q1', '  ')).toBe(true);
    await expect(asked).resolves.toMatchObject({ state: 'declined' });
  });

  test('withdraws the question and rejects when the signal aborts', async () => {
    vi.useFakeTimers();
    const human = channel({ timeoutS: 5 });
    const controller = new AbortController();
    const asked = human.ask('Still there?', { signal: controller.signal });
    controller.abort(new Error('cancelled by the SDK'));
    await expect(asked).rejects.toThrow('cancelled by the SDK');
    expect(human.pending()).toEqual([]);
    expect(human.answer('q1', 'too late')).toBe(false);
    await expect(human.nextAsk(0)).resolves.toBeNull();
    // The timer went with it: nothing settles the withdrawn question later.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(kinds()).toEqual(['ask:']);
  });

  test('rejects at once for a signal that is already aborted', async () => {
    const human = channel();
    await expect(human.ask('x', { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(events).toEqual([]);
  });

  test('records a throwing event sink in uiErrors and carries on', async () => {
    const human = new HumanChannel({
      onEvent: () => {
        throw new Error('renderer broke');
      },
    });
    const asked = human.ask('Go on?');
    human.answer('q1', 'yes');
    await expect(asked).resolves.toMatchObject({ state: 'answered' });
    expect(human.uiErrors).toEqual([
      'event sink (ask): renderer broke',
      'event sink (answer): renderer broke',
    ]);
  });

  test('writes the Q&A log with a title, options and states', async () => {
    const logPath = join(dir, 'notes', 'qa-log.md');
    const human = channel({ logPath, maxAsks: 2 });
    const asked = human.ask('Which colour?\nPick one.', { options: ['red', 'blue'] });
    human.answer('q1', 'blue');
    await asked;
    const second = human.ask('Another?');
    human.decline('q2');
    await second;
    await human.ask('Third?');
    const log = readFileSync(logPath, 'utf8');
    expect(log.split('\n')[0]).toBe('# Q&A log');
    expect(log).toMatch(/^# Q&A log\n\n> .+\n\n- \*\*Q\*\* \(q1\)/);
    expect(log).toContain(
      '- **Q** (q1) Which colour?\n  Pick one.\n  - Options: red / blue\n  - **A** [answered] blue\n',
    );
    expect(log).toContain(`- **Q** (q2) Another?\n  - **A** [declined] ${DECLINED_TEXT}\n`);
    expect(log).toContain(`- **Q** (q3) Third?\n  - **A** [over_budget] ${OVER_BUDGET_TEXT}\n`);
    expect(log.match(/# Q&A log/g)).toHaveLength(1);
  });

  test('answers a question an earlier process settled from the Q&A log, without asking or logging it again', async () => {
    const logPath = join(dir, 'notes', 'qa-log.md');
    const killed = channel({ logPath });
    const first = killed.ask('Which colour?\nPick one.', { options: ['red', 'blue'] });
    killed.answer('q1', 'blue,\nthe dark one');
    await first;
    const before = readFileSync(logPath, 'utf8');
    events = [];
    const rerun = channel({ logPath, maxAsks: 0 });
    const again = await rerun.ask('Which colour?\nPick one.', { options: ['red', 'blue'] });
    expect(again).toMatchObject({ state: 'answered', answer: 'blue,\nthe dark one' });
    // Not asked: no event, not queued, not counted against the quota, not logged a second time.
    expect(events).toEqual([]);
    expect(rerun.asks).toEqual([]);
    expect(readFileSync(logPath, 'utf8')).toBe(before);
    // Another question, or the same one with other options, is asked as usual.
    expect((await rerun.ask('Which colour?\nPick one.', { options: ['red'] })).state).toBe('over_budget');
    expect((await rerun.ask('Which size?')).state).toBe('over_budget');
  });

  test('answers a question this process already settled (a step retried after a stall) without asking again', async () => {
    const logPath = join(dir, 'notes', 'qa-log.md');
    const human = channel({ logPath, timeoutS: 0 });
    const first = await human.ask('Where does the text come from?', { options: ['a file', 'stdin'] });
    expect(first.state).toBe('timeout');
    const before = readFileSync(logPath, 'utf8');
    events = [];
    const again = await human.ask('Where does the text come from?', { options: ['a file', 'stdin'] });
    expect(again).toMatchObject({ state: 'timeout', answer: first.answer });
    expect(events).toEqual([]);
    expect(human.asks).toHaveLength(1);
    expect(readFileSync(logPath, 'utf8')).toBe(before);
    // Without a log nothing is remembered: asked (and settled) again.
    const unlogged = channel({ timeoutS: 0 });
    await unlogged.ask('Where does the text come from?');
    await unlogged.ask('Where does the text come from?');
    expect(unlogged.asks).toHaveLength(2);
  });

  test('swallows log write failures into uiErrors', async () => {
    writeFileSync(join(dir, 'notes'), 'a file, not a folder');
    const human = channel({ logPath: join(dir, 'notes', 'qa-log.md'), timeoutS: 0 });
    await expect(human.ask('Still works?')).resolves.toMatchObject({ state: 'timeout' });
    expect(human.uiErrors).toHaveLength(1);
    expect(human.uiErrors[0]).toContain('cannot append to the Q&A log');
  });

  test('queues mail, appends it to the amend file and shares the id counter with questions', () => {
    const amendPath = join(dir, 'brief.md');
    writeFileSync(amendPath, '# Brief\n\n## Goal\nA thing');
    const human = channel({ amendPath, timeoutS: 0 });
    void human.ask('q?');
    expect(human.send('   ')).toBeNull();
    const mail = human.send('  Use tabs.  ');
    expect(mail).toMatchObject({ id: 'm2', text: 'Use tabs.', taken: false });
    expect(events.at(-1)).toMatchObject({
      kind: 'mail',
      id: 'm2',
      state: 'queued',
      amended: true,
      text: 'Use tabs.',
    });
    expect(readFileSync(amendPath, 'utf8')).toMatch(
      /^# Brief\n\n## Goal\nA thing\n\n## Added during the run \(\d\d:\d\d:\d\d\)\n\nUse tabs\.\n$/,
    );
    expect(human.pendingMail()).toEqual([mail]);
  });

  test('marks mail unamended without an amend file', () => {
    const human = channel();
    human.send('hello');
    expect(events.at(-1)).toMatchObject({ kind: 'mail', state: 'queued', amended: false });
    expect(human.amend('hello')).toBe(false);
  });

  test('amends a new file under a title and appends later entries without overwriting', () => {
    const amendPath = join(dir, 'deep', 'brief.md');
    const human = channel({ amendPath });
    expect(human.amend('first')).toBe(true);
    expect(human.amend('second', { label: AMEND_LABELS.wake })).toBe(true);
    expect(human.amend('  ')).toBe(false);
    expect(readFileSync(amendPath, 'utf8')).toMatch(
      /^# Additions during the run\n\n## Added during the run \(\d\d:\d\d:\d\d\)\n\nfirst\n\n## Added on wake \(\d\d:\d\d:\d\d\)\n\nsecond\n$/,
    );
  });

  test('reports an amend file that cannot be written', () => {
    mkdirSync(join(dir, 'brief.md'));
    const human = channel({ amendPath: join(dir, 'brief.md') });
    expect(human.send('x')).not.toBeNull();
    expect(events.at(-1)).toMatchObject({ kind: 'mail', amended: false });
    expect(human.uiErrors[0]).toContain('cannot append to');
  });

  test('takes mail once, emitting delivered events and logging it', () => {
    const logPath = join(dir, 'qa-log.md');
    const human = channel({ logPath, amendPath: join(dir, 'brief.md') });
    human.send('one');
    human.send('two');
    const taken = human.takeMail();
    expect(taken.map((mail) => [mail.id, mail.taken])).toEqual([
      ['m1', true],
      ['m2', true],
    ]);
    expect(human.takeMail()).toEqual([]);
    expect(human.pendingMail()).toEqual([]);
    expect(taken.every((mail) => human.wasAmended(mail))).toBe(true);
    expect(kinds()).toEqual(['mail:queued', 'mail:queued', 'mail:delivered', 'mail:delivered']);
    expect(events.at(-1)).toMatchObject({ id: 'm2', amended: true });
    expect(readFileSync(logPath, 'utf8')).toContain('- **Human said** (m1) one\n- **Human said** (m2) two\n');
  });

  test('hands each waiting question to one puller and skips settled ones', async () => {
    const human = channel();
    void human.ask('One?');
    void human.ask('Two?');
    void human.ask('Three?');
    human.answer('q1', 'done');
    await expect(human.nextAsk()).resolves.toMatchObject({ id: 'q2' });
    const pulled: string[] = [];
    const puller = (async () => {
      for await (const ask of human.pullAsks()) {
        pulled.push(ask.id);
        if (pulled.length === 2) break;
      }
    })();
    await vi.waitFor(() => expect(pulled).toEqual(['q3']));
    void human.ask('Four?');
    await puller;
    expect(pulled).toEqual(['q3', 'q4']);
  });

  test('gives up pulling after the timeout', async () => {
    vi.useFakeTimers();
    const human = channel();
    const next = human.nextAsk(2);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(next).resolves.toBeNull();
    void human.ask('Later?');
    // The expired puller is gone: the question is kept for the next one.
    await expect(human.nextAsk(0)).resolves.toMatchObject({ id: 'q1' });
  });

  test('writes a transcript of questions and mail in order', async () => {
    const human = channel({ timeoutS: 0 });
    await human.ask('First?', { options: ['a', 'b'] });
    human.send('note');
    await human.ask('  ');
    expect(human.transcript()).toBe(
      [
        '- **Q** (q1) First?',
        '  - Options: a / b',
        `  - **A** [timeout] ${TIMEOUT_TEXT}`,
        '- **Human said** (m2) note',
      ].join('\n'),
    );
  });

  test('names its tools', () => {
    const human = channel();
    expect([human.toolName, human.inboxName]).toEqual(['mcp__human__ask', 'mcp__human__inbox']);
  });
});
