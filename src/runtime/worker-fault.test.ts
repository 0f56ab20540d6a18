import { describe, expect, test } from 'vitest';
import type { SessionStore, SessionStoreEntry } from '../agent/claude-sdk.js';
import { PLACEHOLDER_TEXT } from '../session/placeholder-text.js';
import { answerText, settleWorkerFaults, settlingStore, workerFaultText } from './worker-fault.js';

// Recorded from the real binary: a dispatch whose worker's request was refused (the `refuse` chaos fault).
const REFUSED =
  'Agent terminated early due to an API error: API Error: Connection refused — a firewall or proxy may be ' +
  'blocking it (ECONNREFUSED) (error type server_error)';

describe('workerFaultText', () => {
  test("names the API error of a worker a transient fault ended, with or without Claude Code's prefixes", () => {
    expect(workerFaultText(REFUSED)).toBe(
      'API Error: Connection refused — a firewall or proxy may be blocking it (ECONNREFUSED) (error type server_error)',
    );
    expect(workerFaultText(`Error: ${REFUSED}`)).toMatch(/^API Error: Connection refused/);
    expect(workerFaultText('API Error: Connection error.')).toBe('API Error: Connection error.');
    expect(
      workerFaultText('API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}'),
    ).not.toBeNull();
  });

  test('leaves a fatal API error, a report that mentions one, and an ordinary report to the coordinator', () => {
    expect(
      workerFaultText('Agent terminated early due to an API error: API Error: 401 invalid x-api-key'),
    ).toBeNull();
    expect(
      workerFaultText('The tests pass. Earlier an API Error: Connection error came and went.'),
    ).toBeNull();
    expect(workerFaultText('wc.js and wc.test.js are written; all 150 cases pass.')).toBeNull();
    expect(workerFaultText('')).toBeNull();
  });
});

describe('answerText', () => {
  test('reads a string, text blocks and nested tool-result content', () => {
    expect(answerText('plain')).toBe('plain');
    expect(
      answerText({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toBe('a\nb');
    expect(answerText(42)).toBe('');
  });
});

const resultEntry = (id: string, content: string): SessionStoreEntry => ({
  type: 'user',
  uuid: 'u1',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: true }] },
  toolUseResult: `Error: ${content}`,
});

describe('settleWorkerFaults', () => {
  test("replaces a faulted dispatch's result, and Claude Code's copy of it, by the journal's answer", () => {
    const entry = resultEntry('toolu_1', REFUSED);
    const [settled] = settleWorkerFaults([entry], new Set(['toolu_1']));
    const text = JSON.stringify(settled);
    expect(text).not.toContain('API Error');
    expect(settled).toMatchObject({
      message: {
        content: [{ tool_use_id: 'toolu_1', content: PLACEHOLDER_TEXT.journalled, is_error: true }],
      },
      toolUseResult: PLACEHOLDER_TEXT.journalled,
    });
    // Copied, never changed in place: the SDK may still hold the entry.
    expect(JSON.stringify(entry)).toContain('API Error');
  });

  test('returns every other entry as it is', () => {
    const other = resultEntry('toolu_2', REFUSED);
    const plain = { type: 'summary' } as unknown as SessionStoreEntry;
    const entries = settleWorkerFaults([other, plain], new Set(['toolu_1']));
    expect(entries[0]).toBe(other);
    expect(entries[1]).toBe(plain);
  });

  test('a settling store settles at append, reading the ids at that moment', async () => {
    const appended: SessionStoreEntry[][] = [];
    const store: SessionStore = {
      append: (_key, entries) => {
        appended.push(entries);
        return Promise.resolve();
      },
      load: () => Promise.resolve(null),
    };
    const faulted = new Set<string>();
    const settling = settlingStore(store, faulted);
    const key = { projectKey: 'p', sessionId: 's' };
    await settling.append(key, [resultEntry('toolu_1', REFUSED)]);
    faulted.add('toolu_1');
    await settling.append(key, [resultEntry('toolu_1', REFUSED)]);
    expect(JSON.stringify(appended[0])).toContain('API Error');
    expect(JSON.stringify(appended[1])).not.toContain('API Error');
    expect(await settling.load(key)).toBeNull();
  });
});
