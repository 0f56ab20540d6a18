import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { completeAbandonedRows, deadSessions } from './abandoned-rows.js';
import { localTranscripts } from './local-transcripts.js';
import { MANIFEST_FILE, readManifest, type ManifestRow } from './manifest.js';
import { usageCost } from './price-table.js';
import { sessionTranscripts } from './session-entries.js';

const MODEL = 'claude-sonnet-4-5';
const STARTED = 1_800_000_000;
const at = (seconds: number): string => new Date((STARTED + seconds) * 1000).toISOString();

function response(id: string, output: number, seconds: number, content: unknown[] = []) {
  return {
    type: 'assistant',
    timestamp: at(seconds),
    message: { id, model: MODEL, usage: { input_tokens: 100, output_tokens: output }, content },
  };
}

const row: ManifestRow = {
  step: 'work',
  session_id: 's1',
  ok: false,
  cost_usd: 0,
  num_turns: 0,
  text: '',
  error: null,
  started_at: STARTED,
  ended_at: 0,
  attempts: 1,
  errors: [],
  resumed: false,
  retired: [],
  context: 0,
  duration_s: 0,
  run: 'killed-run',
  cost_by: { main_usd: 0, subagents: [] },
};

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const usd = (output: number): number => usageCost(MODEL, { input_tokens: 100, output_tokens: output });

describe('completeAbandonedRows', () => {
  test("attributes the responses a killed process's row missed to its main thread and subagent", async () => {
    dir = mkdtempSync(join(tmpdir(), 'abandoned-'));
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify([row]));
    const dispatch = {
      type: 'tool_use',
      id: 'tu1',
      name: 'Agent',
      input: { subagent_type: 'helper', description: 'd', prompt: 'Side task\nmore' },
    };
    const transcripts = [
      { key: 'proj/s1', entries: [response('m1', 10, 1, [dispatch])] },
      {
        key: 'proj/s1/subagents/agent-a',
        entries: [
          { type: 'user', timestamp: at(2), message: { role: 'user', content: 'Side task\nmore' } },
          response('x1', 50, 3),
        ],
      },
    ];
    const count = await completeAbandonedRows({
      runDir: dir,
      runId: 'new-run',
      sessionId: 's1',
      loadEntries: () => Promise.reject(new Error('not used when transcripts are given')),
      loadTranscripts: () => Promise.resolve(transcripts),
      now: STARTED + 10,
    });
    expect(count).toBe(1);
    const [completed] = readManifest(dir);
    expect(completed!.cost_by).toEqual({
      main_usd: usd(10),
      subagents: [
        { agent: 'agent-a', type: 'helper', description: 'd', task: 'Side task', cost_usd: usd(50) },
      ],
    });
    expect(completed!.cost_usd).toBeCloseTo(usd(10) + usd(50), 12);
  });
});

describe('completeAbandonedRows with the local transcript', () => {
  test('prices a response the killed child wrote locally but the store never got, once per message id', async () => {
    dir = mkdtempSync(join(tmpdir(), 'abandoned-'));
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify([{ ...row, cost_usd: usd(10) }]));
    const store = new SqliteSessionStore(join(dir, 'sessions.db'));
    try {
      const key = { projectKey: 'proj', sessionId: 's1' };
      // The store got the first response (its row was written from it) before the kill.
      await store.append(key, [{ ...response('m1', 10, 1), uuid: 'a1' }]);
      // The child's own file has that response and the one served just before the kill, which the store
      // was still to receive; and a subagent's response, which the store never got either.
      const folder = join(dir, 'claude', 'projects', 'proj');
      mkdirSync(join(folder, 's1', 'subagents'), { recursive: true });
      writeFileSync(
        join(folder, 's1.jsonl'),
        [
          { ...response('m1', 10, 1), uuid: 'a1' },
          { ...response('m2', 30, 4), uuid: 'a2' },
          { ...response('m2', 30, 4), uuid: 'a2b' },
        ]
          .map((entry) => JSON.stringify(entry))
          .join('\n') + '\n',
      );
      writeFileSync(
        join(folder, 's1', 'subagents', 'agent-b.jsonl'),
        JSON.stringify({ ...response('x1', 50, 3), uuid: 'b1' }) + '\n',
      );
      const count = await completeAbandonedRows({
        runDir: dir,
        runId: 'new-run',
        sessionId: 's1',
        loadEntries: () => Promise.reject(new Error('not used when transcripts are given')),
        loadTranscripts: () => sessionTranscripts(store, 'proj', 's1'),
        loadLocal: () => localTranscripts(join(dir, 'claude'), 'proj', 's1'),
        now: STARTED + 10,
      });
      expect(count).toBe(1);
      const [completed] = readManifest(dir);
      expect(completed!.cost_usd).toBeCloseTo(usd(10) + usd(30) + usd(50), 12);
      expect(completed!.ended_at).toBeCloseTo(STARTED + 4, 3);
      expect(completed!.cost_by?.main_usd).toBeCloseTo(usd(10) + usd(30), 12);
    } finally {
      store.close();
    }
  });
});

describe('deadSessions', () => {
  test('names the sessions of unfinished rows other runs left that no live process holds', () => {
    const rows: ManifestRow[] = [
      { ...row, session_id: 'judge' },
      { ...row, session_id: 'judge', step: 'work/verdict#2' },
      { ...row, session_id: 'held' },
      { ...row, session_id: 'mine', run: 'new-run' },
      { ...row, session_id: 'done', ended_at: STARTED + 5 },
      { ...row, session_id: null },
    ];
    expect(deadSessions(rows, 'new-run', new Set(['held']))).toEqual(['judge']);
  });
});

describe('completeAbandonedRows after a handoff inside the killed step', () => {
  test("prices the retired session's responses and the successor's together, each once", async () => {
    dir = mkdtempSync(join(tmpdir(), 'abandoned-'));
    // The row of a step that handed off from s1 to s2, then was killed: its live figure counted s1's
    // responses of this step; s2's first response reached the store after the row was last written.
    const killed = { ...row, session_id: 's2', retired: ['s1'], cost_usd: usd(10) + usd(20) };
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify([killed]));
    const store = new SqliteSessionStore(join(dir, 'sessions.db'));
    try {
      await store.append({ projectKey: 'proj', sessionId: 's1' }, [
        // Paid by an earlier step, before the row started, and given back to the resumed s1.
        { ...response('m0', 99, -30), uuid: 'a0' },
        { ...response('m1', 10, 1), uuid: 'a1' },
        { ...response('m2', 20, 2), uuid: 'a2' },
      ]);
      // s2 stores a copy of m0 again in the window: paid before, not the row's.
      await store.append({ projectKey: 'proj', sessionId: 's2' }, [
        { ...response('m0', 99, 3), uuid: 'c0' },
        { ...response('m3', 40, 4), uuid: 'b1' },
      ]);
      const loaded: string[] = [];
      await completeAbandonedRows({
        runDir: dir,
        runId: 'new-run',
        sessionId: 's2',
        loadEntries: () => Promise.reject(new Error('not used when transcripts are given')),
        loadTranscripts: (id = 's2') => {
          loaded.push(id);
          return sessionTranscripts(store, 'proj', id);
        },
        now: STARTED + 10,
      });
      expect(loaded.sort()).toEqual(['s1', 's2']);
      const [completed] = readManifest(dir);
      expect(completed!.cost_usd).toBeCloseTo(usd(10) + usd(20) + usd(40), 12);
    } finally {
      store.close();
    }
  });
});
