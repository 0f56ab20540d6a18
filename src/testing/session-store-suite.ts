/**
 * The session-store contract every store must meet: the SDK's `SessionStore` protocol as its TSDoc states
 * it, plus flower's stricter requirements (uuid de-duplication, copy on append). Each store's conformance
 * test calls {@link runSessionStoreSuite} once; shipped in `flower-agent/testing` so a store written outside
 * flower (docs/session-stores.md) is held to the same contract.
 *
 * @module
 */
import { foldSessionSummary } from '../agent/claude-sdk.js';
import type { SessionKey, SessionStore, SessionStoreEntry } from '../agent/claude-sdk.js';
import { processEnvironment } from '../config/process-environment.js';
import { AssertImmutableStore } from './assert-immutable-store.js';

/**
 * vitest's test functions, loaded only inside a vitest run (vitest sets `VITEST` in its workers): the rest of
 * `flower-agent/testing` works under any test runner, and a user without vitest can still import it.
 */
const vitest = processEnvironment()['VITEST'] === undefined ? null : await import('vitest');

/** What a store under test promises beyond the SDK's MUSTs. */
export interface SessionStoreSuiteOptions {
  /**
   * The store treats `uuid` as an idempotency key (the SDK says SHOULD; flower requires it). Default true.
   * When false, one test pins the gap instead, so it is noticed when the store changes.
   */
  deduplicatesByUuid?: boolean;
  /**
   * The store keeps no reference to appended objects and hands out no internal ones. Default true: every test
   * then runs the store inside {@link AssertImmutableStore}. When false, one test pins the gap instead.
   */
  isolatesEntries?: boolean;
  /** Called after each test with the store the factory made. Default: its `close()`, when it has one. */
  dispose?: (store: SessionStore) => void | Promise<void>;
}

const PROJECT = '-work-flower-ws';

/** A realistic main transcript: uuid-less markers, unicode, nested content, usage, a tool round trip. */
export function sampleTranscript(sessionId: string, tag: string): SessionStoreEntry[] {
  const at = (second: number) => new Date(Date.UTC(2026, 0, 2, 3, 4, second)).toISOString();
  const common = {
    sessionId,
    cwd: '/srv/flower/ws',
    version: '2.1.334',
    gitBranch: 'main',
    isSidechain: false,
  };
  return [
    { type: 'queue-operation', operation: 'enqueue', timestamp: at(0), sessionId },
    {
      ...common,
      type: 'user',
      uuid: `${tag}-u1`,
      parentUuid: null,
      timestamp: at(1),
      message: {
        role: 'user',
        content: `Build a calculator (${tag}) — ünïcödé 漢字 🌸 "quotes" \\ back\nslash`,
      },
    },
    {
      ...common,
      type: 'assistant',
      uuid: `${tag}-a1`,
      parentUuid: `${tag}-u1`,
      timestamp: at(2),
      requestId: `req_${tag}`,
      message: {
        id: `msg_${tag}`,
        role: 'assistant',
        model: 'claude-fake',
        content: [
          { type: 'tool_use', id: `toolu_${tag}`, name: 'Bash', input: { command: 'ls -la', timeout: null } },
        ],
        stop_reason: 'tool_use',
        usage: {
          input_tokens: 12,
          cache_read_input_tokens: 3000,
          cache_creation_input_tokens: 400,
          output_tokens: 42,
        },
      },
    },
    {
      ...common,
      type: 'user',
      uuid: `${tag}-u2`,
      parentUuid: `${tag}-a1`,
      timestamp: at(3),
      sourceToolAssistantUUID: `${tag}-a1`,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${tag}`, content: 'total 0', is_error: false }],
      },
      toolUseResult: {
        stdout: 'total 0',
        stderr: '',
        interrupted: false,
        isImage: false,
        sizes: [1, 2.5, -3, 0],
      },
    },
    { type: 'custom-title', customTitle: `Title ${tag}`, sessionId },
    { type: 'last-prompt', lastPrompt: `Build a calculator (${tag})`, sessionId },
  ];
}

/** A subagent transcript, first entry `agent_metadata` as the SDK writes it. */
export function sampleSubagentTranscript(sessionId: string, tag: string): SessionStoreEntry[] {
  return [
    { type: 'agent_metadata', agentType: 'worker', sessionId },
    {
      type: 'user',
      uuid: `${tag}-su1`,
      isSidechain: true,
      sessionId,
      message: { role: 'user', content: 'Run the tests' },
    },
    {
      type: 'assistant',
      uuid: `${tag}-sa1`,
      parentUuid: `${tag}-su1`,
      isSidechain: true,
      sessionId,
      message: { role: 'assistant', content: [{ type: 'text', text: 'All 12 pass.' }] },
    },
  ];
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/**
 * Registers the conformance tests for one store. `makeStore` is called before each test and must return an
 * empty store.
 */
export function runSessionStoreSuite(
  name: string,
  makeStore: () => SessionStore | Promise<SessionStore>,
  options: SessionStoreSuiteOptions = {},
): void {
  if (vitest === null) {
    throw new Error(
      'runSessionStoreSuite registers vitest tests: call it at the top level of a test file that vitest runs.',
    );
  }
  const { afterEach, beforeEach, describe, expect, test } = vitest;
  const deduplicates = options.deduplicatesByUuid ?? true;
  const isolates = options.isolatesEntries ?? true;
  const dispose =
    options.dispose ??
    ((store: SessionStore) => {
      (store as { close?: () => void }).close?.();
    });

  describe(`${name} (session store conformance)`, () => {
    let raw: SessionStore;
    let store: SessionStore;
    const main: SessionKey = { projectKey: PROJECT, sessionId: 'session-1' };
    const subagent: SessionKey = { ...main, subpath: 'subagents/agent-a1' };

    beforeEach(async () => {
      raw = await makeStore();
      store = isolates ? new AssertImmutableStore(raw) : raw;
    });

    afterEach(async () => {
      await dispose(raw);
    });

    const listSessions = (projectKey: string) => store.listSessions!(projectKey);
    const summaries = (projectKey: string) => store.listSessionSummaries!(projectKey);
    const mtimeOf = async (key: SessionKey) =>
      (await listSessions(key.projectKey)).find((session) => session.sessionId === key.sessionId)?.mtime;

    test('returns what was appended, deep-equal', async () => {
      const entries = sampleTranscript(main.sessionId, 'a');
      await store.append(main, clone(entries));
      expect(await store.load(main)).toEqual(entries);
    });

    test('returns null for keys that were never written', async () => {
      await store.append(main, sampleTranscript(main.sessionId, 'a'));
      expect(await store.load({ ...main, sessionId: 'other' })).toBeNull();
      expect(await store.load(subagent)).toBeNull();
      expect(await store.load({ ...main, projectKey: 'elsewhere' })).toBeNull();
    });

    test('keeps the order of append calls, across batches and interleaved keys', async () => {
      const entries = sampleTranscript(main.sessionId, 'a');
      const other: SessionKey = { ...main, sessionId: 'session-2' };
      const otherEntries = sampleTranscript(other.sessionId, 'b');
      for (let index = 0; index < entries.length; index += 1) {
        await store.append(main, [clone(entries[index]!)]);
        await store.append(other, [clone(otherEntries[index]!)]);
      }
      // Calls issued back to back without awaiting each one still land in call order.
      const more = sampleTranscript(main.sessionId, 'c');
      await Promise.all([store.append(main, more.slice(0, 2)), store.append(main, more.slice(2))]);
      expect(await store.load(main)).toEqual([...entries, ...sampleTranscript(main.sessionId, 'c')]);
      expect(await store.load(other)).toEqual(otherEntries);
    });

    if (deduplicates) {
      test('ignores a replayed batch, leaving mtime and summary as they were', async () => {
        const entries = sampleTranscript(main.sessionId, 'a').filter((entry) => entry.uuid !== undefined);
        await store.append(main, clone(entries));
        const mtime = await mtimeOf(main);
        const summary = await summaries(PROJECT);
        await store.append(main, clone(entries));
        await store.append(main, clone(entries));
        expect(await store.load(main)).toEqual(entries);
        expect(await mtimeOf(main)).toBe(mtime);
        expect(await summaries(PROJECT)).toEqual(summary);
      });

      test('keeps only the new entries of a partly replayed batch, in order', async () => {
        const entries = sampleTranscript(main.sessionId, 'a');
        const later = sampleTranscript(main.sessionId, 'b');
        await store.append(main, clone(entries.slice(0, 3)));
        await store.append(main, clone([...entries.slice(1, 3), later[1]!, entries[3]!, later[2]!]));
        expect(await store.load(main)).toEqual([...entries.slice(0, 3), later[1], entries[3], later[2]]);
      });

      test('keeps the first of several entries sharing a uuid within one batch', async () => {
        const first = { type: 'user', uuid: 'same', message: { content: 'first' } };
        const second = { type: 'user', uuid: 'same', message: { content: 'second' } };
        await store.append(main, [clone(first), clone(second), clone(first)]);
        expect(await store.load(main)).toEqual([first]);
      });

      test('always appends entries without a uuid', async () => {
        const marker = { type: 'last-prompt', lastPrompt: 'again' };
        await store.append(main, [clone(marker)]);
        await store.append(main, [clone(marker), clone(marker)]);
        expect(await store.load(main)).toEqual([marker, marker, marker]);
      });

      test('de-duplicates per transcript, not across transcripts', async () => {
        const entry = { type: 'user', uuid: 'shared', message: { content: 'x' } };
        await store.append(main, [clone(entry)]);
        await store.append(subagent, [clone(entry)]);
        await store.append({ ...main, sessionId: 'session-2' }, [clone(entry)]);
        expect(await store.load(main)).toEqual([entry]);
        expect(await store.load(subagent)).toEqual([entry]);
        expect(await store.load({ ...main, sessionId: 'session-2' })).toEqual([entry]);
      });
    } else {
      test('keeps replayed entries twice (known gap: no uuid de-duplication)', async () => {
        const entry = { type: 'user', uuid: 'u', message: { content: 'x' } };
        await store.append(main, [clone(entry)]);
        await store.append(main, [clone(entry)]);
        expect(await store.load(main)).toEqual([entry, entry]);
      });
    }

    test('stores subagent transcripts under their subpath and lists them', async () => {
      const second: SessionKey = { ...main, subpath: 'subagents/agent-b2' };
      await store.append(main, sampleTranscript(main.sessionId, 'a'));
      await store.append(subagent, sampleSubagentTranscript(main.sessionId, 's1'));
      await store.append(second, sampleSubagentTranscript(main.sessionId, 's2'));
      await store.append({ ...main, sessionId: 'session-2', subpath: 'subagents/agent-zz' }, [
        { type: 'agent_metadata' },
      ]);
      expect((await store.listSubkeys!(main)).sort()).toEqual(['subagents/agent-a1', 'subagents/agent-b2']);
      expect(await store.load(subagent)).toEqual(sampleSubagentTranscript(main.sessionId, 's1'));
      expect(await store.load(second)).toEqual(sampleSubagentTranscript(main.sessionId, 's2'));
      expect(await store.load(main)).toEqual(sampleTranscript(main.sessionId, 'a'));
      expect(await store.listSubkeys!({ projectKey: PROJECT, sessionId: 'none' })).toEqual([]);
    });

    test('lists the main sessions of exactly the asked project', async () => {
      // `a_c` would match `abc/...` under the reference's LIKE, where `_` is a wildcard.
      await store.append({ projectKey: 'a_c', sessionId: 's1' }, [{ type: 'x' }]);
      await store.append({ projectKey: 'a_c', sessionId: 's2', subpath: 'subagents/agent-1' }, [
        { type: 'x' },
      ]);
      await store.append({ projectKey: 'abc', sessionId: 's3' }, [{ type: 'x' }]);
      await store.append({ projectKey: 'a_c-2', sessionId: 's4' }, [{ type: 'x' }]);
      const sessions = await listSessions('a_c');
      expect(sessions.map((session) => session.sessionId)).toEqual(['s1']);
      expect(await listSessions('a')).toEqual([]);
    });

    test('stamps integer epoch-millisecond mtimes that grow with every write', async () => {
      const before = Date.now();
      await store.append(main, [{ type: 'x', uuid: '1' }]);
      const first = (await mtimeOf(main))!;
      await store.append(main, [{ type: 'x', uuid: '2' }]);
      const second = (await mtimeOf(main))!;
      expect(Number.isInteger(first)).toBe(true);
      expect(first).toBeGreaterThanOrEqual(before);
      expect(first).toBeLessThanOrEqual(Date.now());
      expect(second).toBeGreaterThan(first);
    });

    test('keeps one summary per main session, folded from every appended entry', async () => {
      const entries = sampleTranscript(main.sessionId, 'a');
      const later = sampleTranscript(main.sessionId, 'b').slice(1);
      await store.append(main, clone(entries.slice(0, 2)));
      await store.append(subagent, sampleSubagentTranscript(main.sessionId, 's'));
      await store.append(main, clone(entries.slice(2)));
      await store.append(main, clone(later));
      // A session with only a subagent transcript has no summary.
      await store.append({ ...main, sessionId: 'session-2', subpath: 'subagents/agent-9' }, [{ type: 'x' }]);

      const listed = await summaries(PROJECT);
      const expected = foldSessionSummary(undefined, main, [...entries, ...later], { mtime: 0 });
      expect(listed).toHaveLength(1);
      expect(listed[0]!.sessionId).toBe(main.sessionId);
      expect(listed[0]!.data).toEqual(expected.data);
      expect(listed[0]!.data).toMatchObject({ customTitle: 'Title b', cwd: '/srv/flower/ws' });
      expect(listed[0]!.mtime).toBe(await mtimeOf(main));
      expect(await summaries('elsewhere')).toEqual([]);
    });

    test('deletes a subagent transcript alone', async () => {
      await store.append(main, sampleTranscript(main.sessionId, 'a'));
      await store.append(subagent, sampleSubagentTranscript(main.sessionId, 's'));
      await store.delete!(subagent);
      expect(await store.load(subagent)).toBeNull();
      expect(await store.listSubkeys!(main)).toEqual([]);
      expect(await store.load(main)).toEqual(sampleTranscript(main.sessionId, 'a'));
      expect(await summaries(PROJECT)).toHaveLength(1);
    });

    test('deletes a main transcript with its subagent transcripts and summary', async () => {
      const other: SessionKey = { ...main, sessionId: 'session-2' };
      await store.append(main, sampleTranscript(main.sessionId, 'a'));
      await store.append(subagent, sampleSubagentTranscript(main.sessionId, 's'));
      await store.append(other, sampleTranscript(other.sessionId, 'b'));
      await store.delete!(main);
      expect(await store.load(main)).toBeNull();
      expect(await store.load(subagent)).toBeNull();
      expect(await store.listSubkeys!(main)).toEqual([]);
      expect((await listSessions(PROJECT)).map((session) => session.sessionId)).toEqual([other.sessionId]);
      expect((await summaries(PROJECT)).map((summary) => summary.sessionId)).toEqual([other.sessionId]);
      expect(await store.load(other)).toEqual(sampleTranscript(other.sessionId, 'b'));
      // A deleted session starts over cleanly, uuids included.
      await store.append(main, sampleTranscript(main.sessionId, 'a'));
      expect(await store.load(main)).toEqual(sampleTranscript(main.sessionId, 'a'));
    });

    test('treats deleting an unknown key as a no-op', async () => {
      await store.append(main, [{ type: 'x' }]);
      await store.delete!({ ...main, sessionId: 'never' });
      await store.delete!({ ...main, subpath: 'subagents/agent-never' });
      expect(await store.load(main)).toEqual([{ type: 'x' }]);
    });

    if (isolates) {
      test('keeps what was appended when the caller changes its objects afterwards', async () => {
        const entries = sampleTranscript(main.sessionId, 'a');
        const mine = clone(entries);
        await raw.append(main, mine);
        (mine[1]!['message'] as { content: string }).content = 'changed';
        mine.push({ type: 'extra' });
        expect(await raw.load(main)).toEqual(entries);
      });

      test('returns fresh objects from every load', async () => {
        const entries = sampleTranscript(main.sessionId, 'a');
        await raw.append(main, clone(entries));
        const loaded = (await raw.load(main))!;
        (loaded[1]!['message'] as { content: string }).content = 'changed';
        loaded.pop();
        expect(await raw.load(main)).toEqual(entries);
      });
    } else {
      test('shares objects with the caller (known gap: append keeps references)', async () => {
        const mine = [{ type: 'user', uuid: 'u', message: { content: 'x' } }];
        await raw.append(main, mine);
        mine[0]!.message.content = 'changed';
        expect(await raw.load(main)).toEqual([{ type: 'user', uuid: 'u', message: { content: 'changed' } }]);
      });
    }
  });
}
