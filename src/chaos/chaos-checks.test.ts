import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { fakeRequest, type FakeRequest } from '../testing/request-matching.js';
import { usageCost } from '../runtime/price-table.js';
import {
  costMatches,
  finalFiles,
  noApiErrorFedBack,
  noQuestionRepeated,
  noRepeatedEffect,
  questionsAsked,
  sameFiles,
  unrecordedServed,
} from './chaos-checks.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';

const request = (messages: unknown[]): FakeRequest =>
  fakeRequest({ method: 'POST', url: '/v1/messages', headers: {}, body: { messages } });

const call = (id: string): unknown => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'Bash', input: {} }],
});
const answer = (id: string, content: string, isError = false): unknown => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }],
});

describe('noRepeatedEffect', () => {
  test('holds when a call is sent back again with the same id (a resumed conversation)', () => {
    const conversation = [call('toolu_look__0'), answer('toolu_look__0', 'ok')];
    expect(noRepeatedEffect([request(conversation), request(conversation)], ['toolu_look'])).toBeNull();
  });

  test('holds when an interrupted call is redone', () => {
    const first = [
      call('toolu_look__0'),
      answer('toolu_look__0', '[Request interrupted by user for tool use]'),
    ];
    const second = [call('toolu_look__2'), answer('toolu_look__2', 'ok')];
    expect(noRepeatedEffect([request(first), request(second)], ['toolu_look'])).toBeNull();
  });

  test('names a scripted call that completed twice under two ids', () => {
    const first = [call('toolu_dispatch__1'), answer('toolu_dispatch__1', 'done')];
    const second = [call('toolu_dispatch__4'), answer('toolu_dispatch__4', 'done')];
    expect(noRepeatedEffect([request(first), request(second)], ['toolu_dispatch'])).toBe(
      'tool effect repeated: toolu_dispatch',
    );
  });

  test('ignores a call without an effect (a look) done twice', () => {
    const first = [call('toolu_look__1'), answer('toolu_look__1', 'a')];
    const second = [call('toolu_look__4'), answer('toolu_look__4', 'a')];
    expect(noRepeatedEffect([request(first), request(second)], ['toolu_dispatch'])).toBeNull();
  });
});

describe('noApiErrorFedBack', () => {
  test('holds for plain conversation text', () => {
    expect(noApiErrorFedBack([request([{ role: 'user', content: 'count the words' }])])).toBeNull();
  });

  test('names the request that carries API-error text', () => {
    const fed = request([{ role: 'user', content: 'API Error: 529 {"type":"overloaded_error"}' }]);
    expect(noApiErrorFedBack([request([]), fed])).toBe(
      'API-error text fed to the model in request 2: "API Error"',
    );
  });
});

describe('finalFiles and sameFiles', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('compare the workspace without flower state and name what differs', () => {
    dir = mkdtempSync(join(tmpdir(), 'chaos-files-'));
    mkdirSync(join(dir, 'runs'));
    writeFileSync(join(dir, 'runs', 'sessions.db'), 'state');
    writeFileSync(join(dir, 'wc.js'), 'one');
    const clean = finalFiles(dir);
    expect([...clean.keys()]).toEqual(['wc.js']);
    expect(sameFiles(clean, finalFiles(dir))).toBeNull();
    writeFileSync(join(dir, 'wc.js'), 'two');
    writeFileSync(join(dir, 'README.md'), 'extra');
    expect(sameFiles(clean, finalFiles(dir))).toBe('final files: extra README.md; differs wc.js');
  });
});

describe('questions and cost', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
  });
  const folder = (): string => {
    const path = mkdtempSync(join(tmpdir(), 'flower-chaos-checks-'));
    made.push(path);
    return path;
  };

  test('counts the questions of a Q&A log, and fails a run that asked more than the clean run', () => {
    const path = join(folder(), 'qa-log.md');
    expect(questionsAsked(path)).toBe(0);
    writeFileSync(
      path,
      '# Q&A log\n\n- **Q** (q1) Which?\n  - **A** [timeout] Decide.\n- **Human said** (m2) hi\n- **Q** (q3) Again?\n  - **A** [answered] yes\n',
    );
    expect(questionsAsked(path)).toBe(2);
    expect(noQuestionRepeated(2, 2)).toBeNull();
    expect(noQuestionRepeated(1, 2)).toBe('questions to the person: 2 in the Q&A log, the clean run asked 1');
  });

  test("holds when the manifest's cost is the served usage's at list price, and says both figures when not", () => {
    const runDir = folder();
    const usage = {
      input_tokens: 420,
      output_tokens: 160,
      cache_read_input_tokens: 20_000,
      cache_creation_input_tokens: 0,
    };
    const served = [
      { id: 'msg_1', model: 'claude-opus-4-5', usage },
      { id: 'msg_2', model: 'claude-opus-4-5', usage },
    ];
    const one = usageCost('claude-opus-4-5', usage);
    const row = (step: string, cost: number): Record<string, unknown> => ({ step, ok: true, cost_usd: cost });
    writeFileSync(join(runDir, 'manifest.json'), JSON.stringify([row('a', one), row('b', one)]));
    expect(costMatches(runDir, served)).toBeNull();
    writeFileSync(join(runDir, 'manifest.json'), JSON.stringify([row('a', one)]));
    expect(costMatches(runDir, served)).toBe(
      `manifest cost $${one.toFixed(6)} is not the served usage's $${(2 * one).toFixed(6)}`,
    );
  });

  test('finds the served answers no record holds, and the cost check leaves only those out', async () => {
    const runDir = folder();
    const usage = {
      input_tokens: 420,
      output_tokens: 160,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    };
    const served = ['msg_store', 'msg_local', 'msg_lost'].map((id) => ({
      id,
      model: 'claude-opus-4-5',
      usage,
    }));
    const one = usageCost('claude-opus-4-5', usage);
    // One answer reached the store, one only Claude Code's own transcript of a subagent, one neither.
    const store = new SqliteSessionStore(join(runDir, 'sessions.db'));
    await store.append({ projectKey: 'proj', sessionId: 's1' }, [
      { type: 'assistant', uuid: 'a1', message: { id: 'msg_store', model: 'claude-opus-4-5', usage } },
    ]);
    store.close();
    const subagents = join(runDir, 'claude', 'projects', 'proj', 's1', 'subagents');
    mkdirSync(subagents, { recursive: true });
    writeFileSync(
      join(subagents, 'agent-a.jsonl'),
      JSON.stringify({ type: 'assistant', uuid: 'b1', message: { id: 'msg_local', usage } }) +
        '\n' +
        // A line a full disk cut short names the lost answer but holds no usage anyone could price.
        JSON.stringify({ type: 'assistant', uuid: 'c1', message: { id: 'msg_lost', usage } }).slice(0, 70),
    );
    const lost = unrecordedServed(runDir, served);
    expect(lost.map((message) => message.id)).toEqual(['msg_lost']);
    const row = (step: string, cost: number): Record<string, unknown> => ({ step, ok: true, cost_usd: cost });
    writeFileSync(join(runDir, 'manifest.json'), JSON.stringify([row('a', one), row('b', one)]));
    expect(costMatches(runDir, served, lost)).toBeNull();
    // Without the unrecorded answer set aside the same manifest is short; one counted twice is over.
    expect(costMatches(runDir, served)).not.toBeNull();
    writeFileSync(join(runDir, 'manifest.json'), JSON.stringify([row('a', one), row('b', 2 * one)]));
    expect(costMatches(runDir, served, lost)).toBe(
      `manifest cost $${(3 * one).toFixed(6)} is not the served usage's $${(2 * one).toFixed(6)} (the served answers in a record)`,
    );
  });
});
