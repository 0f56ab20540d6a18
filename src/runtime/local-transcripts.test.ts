import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { estimateEntries } from './cost-ledger.js';
import { localTranscripts, withLocalEntries } from './local-transcripts.js';
import { usageCost } from './price-table.js';

const MODEL = 'claude-sonnet-4-5';
const PROJECT = '-tmp-ws';

/** One content block of a response, as Claude Code writes it: one entry per block, sharing the id. */
function block(uuid: string, id: string, output: number) {
  return {
    type: 'assistant',
    uuid,
    timestamp: '2026-12-03T10:00:00.000Z',
    message: { id, model: MODEL, usage: { input_tokens: 100, output_tokens: output }, content: [] },
  };
}

const usd = (output: number): number => usageCost(MODEL, { input_tokens: 100, output_tokens: output });

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeLines(path: string, lines: string[]): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, lines.join('\n') + '\n');
}

describe('localTranscripts', () => {
  test("reads the child's main and subagent files, keyed as the store keys them", () => {
    dir = mkdtempSync(join(tmpdir(), 'local-transcripts-'));
    const folder = join(dir, 'projects', PROJECT);
    writeLines(join(folder, 's1.jsonl'), [
      JSON.stringify({ type: 'queue-operation' }),
      JSON.stringify(block('u1', 'm1', 10)),
      // A kill may cut the last line short: it is left out, the rest is read.
      '{"type":"assistant","uuid":"u2","message":{"id":"m2"',
    ]);
    writeLines(join(folder, 's1', 'subagents', 'agent-a.jsonl'), [JSON.stringify(block('x1', 'mx', 20))]);
    // Another session's file is not this session's.
    writeLines(join(folder, 's2.jsonl'), [JSON.stringify(block('o1', 'mo', 30))]);

    const transcripts = localTranscripts(dir, PROJECT, 's1');
    expect(transcripts.map((transcript) => transcript.key)).toEqual([
      `${PROJECT}/s1`,
      `${PROJECT}/s1/subagents/agent-a`,
    ]);
    expect(transcripts[0]?.entries.map((entry) => entry.uuid)).toEqual([undefined, 'u1']);
    expect(transcripts[1]?.entries.map((entry) => entry.uuid)).toEqual(['x1']);
  });

  test('is empty when the child left no files', () => {
    dir = mkdtempSync(join(tmpdir(), 'local-transcripts-'));
    expect(localTranscripts(dir, PROJECT, 's1')).toEqual([]);
  });
});

describe('withLocalEntries', () => {
  test('adds a response only the local file holds; one both hold is priced once', () => {
    const key = `${PROJECT}/s1`;
    const stored = [{ key, entries: [block('u1', 'm1', 10)] }];
    const local = [
      {
        key,
        entries: [
          block('u1', 'm1', 10),
          // The same response's second block, which the store did not get yet: its id is priced already.
          block('u1b', 'm1', 10),
          // Served just before the kill: only the local file has it (two blocks, one response).
          block('u2', 'm2', 40),
          block('u2b', 'm2', 40),
          { type: 'cost-state', totalCostUSD: 1 },
        ],
      },
      { key: `${key}/subagents/agent-a`, entries: [block('x1', 'mx', 20)] },
    ];
    const merged = withLocalEntries(stored, local);
    expect(merged.map((transcript) => transcript.entries.map((entry) => entry.uuid))).toEqual([
      ['u1', 'u2', 'u2b'],
      ['x1'],
    ]);
    const entries = merged.flatMap((transcript) => transcript.entries);
    expect(estimateEntries(entries)).toBeCloseTo(usd(10) + usd(40) + usd(20), 12);
    // The store's own transcripts are not changed.
    expect(stored[0]?.entries).toHaveLength(1);
  });

  test("never adds a response another of the session's stored transcripts already carries", () => {
    const stored = [
      { key: `${PROJECT}/s1`, entries: [] },
      { key: `${PROJECT}/s1/subagents/agent-a`, entries: [block('x1', 'mx', 20)] },
    ];
    // A copy of the subagent's response in the main file, under another uuid.
    const local = [{ key: `${PROJECT}/s1`, entries: [block('copy', 'mx', 20)] }];
    const merged = withLocalEntries(stored, local);
    expect(merged.map((transcript) => transcript.entries.map((entry) => entry.uuid))).toEqual([[], ['x1']]);
  });
});
