import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { blocksOf, isToolResult, isToolUse, type Entry } from './entry-content.js';
import { PLACEHOLDER_TEXT } from './placeholder-text.js';
import { PruningSessionStore } from './pruning-session-store.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { ToolJournal, type JournalledCall } from './tool-journal.js';
import { validateTranscript } from './validate-transcript.js';

let directory: string;
const closers: Array<{ close(): void }> = [];
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'flower-journal-'));
});
afterEach(() => {
  for (const item of closers.splice(0)) item.close();
  rmSync(directory, { recursive: true, force: true });
});

function opened<T extends { close(): void }>(item: T): T {
  closers.push(item);
  return item;
}

const call = (toolUseId: string, agentId: string | null, startedAt: number): JournalledCall => ({
  sessionId: 'session-1',
  toolUseId,
  agentId,
  toolName: 'Bash',
  input: { command: `echo ${toolUseId}` },
  startedAt,
});

describe('ToolJournal', () => {
  test('keeps each call once, per thread, oldest first, and across connections', () => {
    const path = join(directory, 'sessions.db');
    const journal = opened(new ToolJournal(path));
    journal.record(call('toolu_b', null, 20));
    journal.record(call('toolu_a', null, 10));
    journal.record(call('toolu_sub', 'agent7', 15));
    journal.record({ ...call('toolu_a', null, 99), toolName: 'Write' });
    // Another connection (the next process) reads what this one committed, without a close in between.
    const reader = opened(new ToolJournal(path));
    expect(reader.callsOf('session-1', null)).toEqual([call('toolu_a', null, 10), call('toolu_b', null, 20)]);
    expect(reader.callsOf('session-1', 'agent7')).toEqual([call('toolu_sub', 'agent7', 15)]);
    expect(reader.callsOf('session-2', null)).toEqual([]);
    expect(reader.idsOf('session-1', null)).toEqual(new Set(['toolu_a', 'toolu_b']));
    expect(reader.callsOf('session-1', null, new Set(['toolu_a']))).toEqual([call('toolu_b', null, 20)]);
  });

  test('lives beside the transcripts: the session store still opens the database', () => {
    const path = join(directory, 'sessions.db');
    opened(new ToolJournal(path)).record(call('toolu_a', null, 1));
    const store = opened(new SqliteSessionStore(path));
    expect(store.projects()).toEqual([]);
  });
});

describe('PruningSessionStore with a journal', () => {
  test('shows a journalled call the stored transcript lacks, and leaves the stored rows alone', async () => {
    const path = join(directory, 'sessions.db');
    const store = opened(new PruningSessionStore(path, join(directory, 'workspace'), { journal: true }));
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    transcript.bash('echo 0 >> lines.txt', '');
    const sessionId = String(transcript.entries[0]!['sessionId']);
    const key = { projectKey: '-workspace', sessionId };
    await store.append(key, transcript.entries);
    store.toolJournal!.record({ ...call('toolu_lost', null, Date.UTC(2026, 0, 1, 1)), sessionId });
    store.toolJournal!.record({ ...call('toolu_sub', 'agent7', Date.UTC(2026, 0, 1, 1)), sessionId });

    const loaded = (await store.load(key)) ?? [];
    expect(loaded).toHaveLength(transcript.entries.length + 2);
    expect(JSON.stringify(loaded.at(-1))).toContain(JSON.stringify(PLACEHOLDER_TEXT.journalled));
    expect(JSON.stringify(loaded)).not.toContain('toolu_sub');
    expect(validateTranscript(loaded)).toEqual([]);
    expect(store.reportFor(key)?.healed).toBe(1);
    // A subagent's calls go to its own transcript (`subagents/agent-<agent_id>`).
    const subagent = { ...key, subpath: 'subagents/agent-agent7' };
    await store.append(subagent, transcript.entries.slice(0, 1));
    expect(JSON.stringify(await store.load(subagent))).toContain('"id":"toolu_sub"');
    const raw = opened(new SqliteSessionStore(path, { readonly: true }));
    expect(await raw.load(key)).toEqual(transcript.entries);
    expect(await raw.load(subagent)).toEqual(transcript.entries.slice(0, 1));
  });

  test('shows nothing extra without a journal', () => {
    const store = opened(
      new PruningSessionStore(join(directory, 'sessions.db'), join(directory, 'workspace')),
    );
    expect(store.toolJournal).toBeNull();
  });
});

describe('PruningSessionStore with a journal, on a recorded session cut anywhere', () => {
  const recorded = JSON.parse(
    readFileSync(
      new URL('../../test/fixtures/transcripts/claude-code-2.1.334.json', import.meta.url),
      'utf8',
    ),
  ) as { main: Entry[] };
  /** Entries a kill may lose after the last mirrored one: the mirror lags by up to this many. */
  const LAG = 3;

  test('gives a valid transcript with every journalled call once, answered, on the resumed chain', async () => {
    const calls: Array<{ id: string; holder: number; name: string; input: Record<string, unknown> }> = [];
    recorded.main.forEach((entry, holder) => {
      if (entry.type !== 'assistant') return;
      for (const block of blocksOf(entry) ?? []) {
        if (isToolUse(block)) {
          calls.push({
            id: block.id,
            holder,
            name: String(block['name']),
            input: block['input'] as Record<string, unknown>,
          });
        }
      }
    });
    expect(calls.length).toBeGreaterThan(5);
    const sessionId = String(recorded.main.find((entry) => entry['sessionId'])?.['sessionId']);
    const key = { projectKey: '-workspace', sessionId };
    const problems: string[] = [];
    let recovered = 0;
    for (let cut = 1; cut <= recorded.main.length; cut += 1) {
      const folder = mkdtempSync(join(directory, 'cut-'));
      const store = new PruningSessionStore(join(folder, 'sessions.db'), join(folder, 'workspace'), {
        journal: true,
      });
      try {
        await store.append(key, recorded.main.slice(0, cut));
        // The gate journalled every call whose reply was written before the kill, mirrored or not.
        const journalled = calls.filter((call) => call.holder < cut + LAG);
        for (const call of journalled) {
          const timestamp = Date.parse(String(recorded.main[call.holder]!.timestamp)) + 1;
          store.toolJournal!.record({
            sessionId,
            toolUseId: call.id,
            agentId: null,
            toolName: call.name,
            input: call.input,
            startedAt: timestamp,
          });
        }
        const loaded = (await store.load(key)) ?? [];
        recovered += store.reportFor(key)?.healed ?? 0;
        const invalid = validateTranscript(loaded);
        if (invalid.length > 0) problems.push(`cut ${cut}: ${JSON.stringify(invalid)}`);
        const onChain = chainOfLastChatEntry(loaded);
        for (const call of journalled) {
          const holders = loaded.filter((entry) =>
            (blocksOf(entry) ?? []).some((block) => isToolUse(block) && block.id === call.id),
          );
          const answered = loaded.some((entry) =>
            (blocksOf(entry) ?? []).some((block) => isToolResult(block) && block.tool_use_id === call.id),
          );
          if (holders.length !== 1 || !answered || !onChain.has(String(holders[0]!.uuid))) {
            problems.push(
              `cut ${cut}: ${call.id} held ${holders.length}×, answered ${answered}, on chain ${onChain.has(String(holders[0]?.uuid))}`,
            );
          }
        }
      } finally {
        store.close();
      }
    }
    expect(problems).toEqual([]);
    expect(recovered).toBeGreaterThan(0);
  });
});

/** The uuids from the last conversation entry back to the root, as the harness walks them on resume. */
function chainOfLastChatEntry(entries: readonly Entry[]): Set<string> {
  const byUuid = new Map(entries.map((entry) => [entry.uuid, entry]));
  const last = [...entries].reverse().find((entry) => entry.type === 'user' || entry.type === 'assistant');
  const chain = new Set<string>();
  for (let current = last?.uuid ?? null; typeof current === 'string' && !chain.has(current);) {
    chain.add(current);
    const parent: unknown = byUuid.get(current)?.['parentUuid'];
    current = typeof parent === 'string' ? parent : null;
  }
  return chain;
}
