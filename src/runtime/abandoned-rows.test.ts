import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { completeAbandonedRows } from './abandoned-rows.js';
import { MANIFEST_FILE, readManifest, type ManifestRow } from './manifest.js';
import { usageCost } from './price-table.js';

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
    const usd = (output: number): number => usageCost(MODEL, { input_tokens: 100, output_tokens: output });
    expect(completed!.cost_by).toEqual({
      main_usd: usd(10),
      subagents: [
        { agent: 'agent-a', type: 'helper', description: 'd', task: 'Side task', cost_usd: usd(50) },
      ],
    });
    expect(completed!.cost_usd).toBeCloseTo(usd(10) + usd(50), 12);
  });
});
