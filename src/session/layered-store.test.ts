import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import type { SessionKey, SessionStoreEntry } from '../agent/claude-sdk.js';
import { blocksOf, isToolUse, type Entry } from './entry-content.js';
import { EphemeralPolicy } from './ephemeral-policy.js';
import { expireLayer } from './expire-layer.js';
import { journalLayer } from './journal-layer.js';
import { layeredStore } from './layered-store.js';
import { pruneLayer } from './prune-layer.js';
import { PrunePolicy } from './prune-policy.js';
import { PruningSessionStore } from './pruning-session-store.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import type { LayerBase, StoreLayer } from './store-layer.js';
import { storeKey } from './store-key.js';
import type { JournalledCall, ToolJournalReader } from './tool-journal.js';
import { trimLayer } from './trim-layer.js';
import { TrimPolicy } from './trim-policy.js';
import { TrimmingSessionStore } from './trimming-session-store.js';

/** A journal kept in a list: what the SQLite `ToolJournal` answers, without a database. */
class MemoryJournal implements ToolJournalReader {
  readonly calls: JournalledCall[] = [];

  idsOf(sessionId: string, agentId: string | null): Set<string> {
    return new Set(this.#of(sessionId, agentId).map((call) => call.toolUseId));
  }

  callsOf(sessionId: string, agentId: string | null, except?: ReadonlySet<string>): JournalledCall[] {
    return this.#of(sessionId, agentId)
      .filter((call) => except?.has(call.toolUseId) !== true)
      .map((call) => structuredClone(call));
  }

  #of(sessionId: string, agentId: string | null): JournalledCall[] {
    return this.calls
      .filter((call) => call.sessionId === sessionId && call.agentId === agentId)
      .sort((first, second) => first.startedAt - second.startedAt);
  }
}

/** A second base store, nothing like SQLite: transcripts in a map, copied through JSON as a database would. */
class MemoryStore implements LayerBase {
  readonly toolJournal = new MemoryJournal();
  readonly #transcripts = new Map<string, string[]>();

  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    const rows = this.#transcripts.get(storeKey(key)) ?? [];
    rows.push(...entries.map((entry) => JSON.stringify(entry)));
    this.#transcripts.set(storeKey(key), rows);
    return Promise.resolve();
  }

  load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    const rows = this.#transcripts.get(storeKey(key));
    return Promise.resolve(
      rows === undefined ? null : rows.map((row) => JSON.parse(row) as SessionStoreEntry),
    );
  }
}

const recorded = JSON.parse(
  readFileSync(new URL('../../test/fixtures/transcripts/claude-code-2.1.334.json', import.meta.url), 'utf8'),
) as { main: Entry[]; subpath: string; subagent: Entry[] };

let directory: string;
const closing: Array<{ close(): void }> = [];
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'flower-layered-'));
});
afterEach(() => {
  for (const store of closing.splice(0)) store.close();
  rmSync(directory, { recursive: true, force: true });
});

const policies = () => ({
  ephemeral: new EphemeralPolicy({ keepRecent: 1 }),
  trim: new TrimPolicy({ keepRecent: 1, minChars: 1000 }),
  prune: new PrunePolicy({ keepDenials: 0 }),
});

/** Glances, large reads, a denial, an API-error leaf and a reply cut after its tool call. */
function builtSession(): { key: SessionKey; main: Entry[]; subagent: Entry[]; lost: JournalledCall[] } {
  const transcript = new TranscriptBuilder();
  transcript.prompt('go');
  for (let index = 0; index < 4; index += 1) transcript.bash('git status', `clean ${index}`);
  transcript.denied('rm -rf /');
  for (const letter of ['a', 'b', 'c']) transcript.read(`/w/${letter}.txt`, letter.repeat(3000));
  transcript.apiError();
  transcript.prompt('again');
  const id = transcript.toolId();
  transcript.reply([{ type: 'tool_use', id, name: 'Edit', input: { file_path: '/w/a.txt' } }]);
  const sessionId = String(transcript.entries.find((entry) => entry['sessionId'])?.['sessionId']);
  const subagent = new TranscriptBuilder();
  subagent.prompt('look');
  subagent.read('/w/d.txt', 'd'.repeat(3000));
  subagent.read('/w/e.txt', 'e'.repeat(3000));
  const last = Date.parse(String(transcript.entries.at(-1)?.['timestamp'])) + 1;
  const lost = ['toolu_lost_main', 'toolu_lost_sub'].map((toolUseId, position) => ({
    sessionId,
    toolUseId,
    agentId: position === 0 ? null : 'a1',
    toolName: 'Bash',
    input: { command: 'make' },
    startedAt: Number.isNaN(last) ? Date.UTC(2026, 0, 1) : last,
  }));
  return {
    key: { projectKey: '-workspace', sessionId },
    main: transcript.entries,
    subagent: subagent.entries,
    lost,
  };
}

/** The recorded Claude Code session, cut after its first tool call, with that call's lost sibling journalled. */
function recordedSession(): { key: SessionKey; main: Entry[]; subagent: Entry[]; lost: JournalledCall[] } {
  const sessionId = String(recorded.main.find((entry) => entry['sessionId'])?.['sessionId']);
  const holder = recorded.main.findIndex(
    (entry) => entry.type === 'assistant' && (blocksOf(entry) ?? []).some(isToolUse),
  );
  const lost: JournalledCall[] = [];
  for (const block of blocksOf(recorded.main[holder] as Entry) ?? []) {
    if (isToolUse(block)) {
      lost.push({
        sessionId,
        toolUseId: block.id,
        agentId: null,
        toolName: String(block['name']),
        input: block['input'] as Record<string, unknown>,
        startedAt: Date.parse(String(recorded.main[holder]?.timestamp)) + 1,
      });
    }
  }
  return {
    key: { projectKey: '-workspace', sessionId },
    main: recorded.main.slice(0, holder),
    subagent: recorded.subagent,
    lost,
  };
}

/** What a load gives, with the workspace folder named neutrally so two workspaces compare equal. */
function seen(entries: readonly Entry[] | null, workspace: string): unknown {
  return JSON.parse(JSON.stringify(entries).replaceAll(workspace, '<workspace>')) as unknown;
}

function spillFiles(workspace: string): Record<string, string> {
  const folder = join(workspace, '.flower', 'spill');
  const files: Record<string, string> = {};
  if (!existsSync(folder)) return files;
  for (const name of readdirSync(folder)) files[name] = readFileSync(join(folder, name), 'utf8');
  return files;
}

describe('layeredStore', () => {
  for (const [name, make, exercised] of [
    [
      'a built session (glances, large reads, a denial, an API error, a cut)',
      builtSession,
      { expired: 3, cleared: 2, pruned: 1, denialsDropped: 1, healed: 2 },
    ],
    ['the recorded Claude Code session, cut after a tool call', recordedSession, { healed: 1 }],
  ] as const) {
    test(`the runtime's layers over an in-memory base load ${name} exactly as PruningSessionStore does`, async () => {
      const { key, main, subagent, lost } = make();
      const subagentKey = { ...key, subpath: 'subagents/agent-a1' };
      const sqliteWorkspace = join(directory, 'sqlite-workspace');
      const memoryWorkspace = join(directory, 'memory-workspace');

      const preset = new PruningSessionStore(join(directory, 'sessions.db'), sqliteWorkspace, {
        ...policies(),
        journal: true,
      });
      closing.push(preset);
      const base = new MemoryStore();
      const { ephemeral, trim, prune } = policies();
      const layered = layeredStore(base, [
        expireLayer(ephemeral),
        trimLayer(trim, { workspace: memoryWorkspace }),
        pruneLayer(prune),
        journalLayer(prune.orphanText),
      ]);
      for (const store of [preset, layered]) {
        await store.append(key, main);
        await store.append(subagentKey, subagent);
      }
      for (const call of lost) {
        preset.toolJournal!.record(call);
        base.toolJournal.calls.push(call);
      }

      for (const target of [key, subagentKey]) {
        const fromSqlite = seen(await preset.load(target), sqliteWorkspace);
        const fromMemory = seen(await layered.load(target), memoryWorkspace);
        expect(fromMemory).toEqual(fromSqlite);
        expect(layered.reportFor(target)).toEqual(preset.reportFor(target));
      }
      // The scenario exercised every layer, so "identical" is not "both did nothing".
      expect(preset.reportFor(key)).toMatchObject(exercised);
      expect(spillFiles(memoryWorkspace)).toEqual(spillFiles(sqliteWorkspace));
      // Storage is untouched on both.
      expect(await base.load(key)).toEqual(main);
    });
  }

  test('runs the layers in the order of the list', async () => {
    const base = new MemoryStore();
    const key = { projectKey: '-workspace', sessionId: '00000000-0000-4000-8000-000000000001' };
    const tagging = (name: string): StoreLayer => ({
      name,
      keepsPositions: true,
      apply: (entries) => ({
        entries: entries.map((entry) => ({ ...entry, tags: [...((entry['tags'] as string[]) ?? []), name] })),
        report: {},
      }),
    });
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    await base.append(key, transcript.entries);
    const forward = layeredStore(base, [tagging('first'), tagging('second'), tagging('third')]);
    const backward = layeredStore(base, [tagging('third'), tagging('second'), tagging('first')]);
    expect((await forward.load(key))?.[0]?.['tags']).toEqual(['first', 'second', 'third']);
    expect((await backward.load(key))?.[0]?.['tags']).toEqual(['third', 'second', 'first']);
  });

  test('swapping expire and trim changes what a large glance result becomes', async () => {
    const base = new MemoryStore();
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    transcript.bash('git log', 'x'.repeat(1500));
    transcript.bash('git status', 'clean');
    transcript.reply([{ type: 'text', text: 'done' }]);
    const sessionId = String(transcript.entries.find((entry) => entry['sessionId'])?.['sessionId']);
    const key = { projectKey: '-workspace', sessionId };
    await base.append(key, transcript.entries);
    const layers = (workspace: string) => ({
      expire: expireLayer(new EphemeralPolicy({ keepRecent: 1 })),
      trim: trimLayer(new TrimPolicy({ keepRecent: 0, minChars: 1000 }), { workspace }),
    });
    const expireFirst = layers(join(directory, 'a'));
    const trimFirst = layers(join(directory, 'b'));
    const expiring = layeredStore(base, [expireFirst.expire, expireFirst.trim]);
    const trimming = layeredStore(base, [trimFirst.trim, trimFirst.expire]);
    await expiring.load(key);
    await trimming.load(key);
    // Expire first: the old glance becomes a short placeholder, too small to spill.
    expect(expiring.reportFor(key)).toMatchObject({ expired: 1, cleared: 0 });
    // Trim first: the same result is spilled to a file (written for nothing) before expire sees it.
    expect(trimming.reportFor(key)).toMatchObject({ expired: 1, cleared: 1 });
  });

  test('the named stores are presets over the same layer values, in the runtime order', () => {
    const pruning = new PruningSessionStore(join(directory, 'pruning.db'), join(directory, 'workspace'));
    const trimming = new TrimmingSessionStore(join(directory, 'trimming.db'), join(directory, 'workspace'));
    closing.push(pruning, trimming);
    expect(pruning.layers.map((layer) => layer.name)).toEqual(['expire', 'trim', 'prune', 'journal']);
    expect(trimming.layers.map((layer) => layer.name)).toEqual(['expire', 'trim']);
  });

  test('keeps every other member of the base, called on the base itself', async () => {
    const sqlite = new SqliteSessionStore(join(directory, 'plain.db'));
    closing.push(sqlite);
    const layered = layeredStore(sqlite, [expireLayer(new EphemeralPolicy())]);
    const key = { projectKey: '-workspace', sessionId: '00000000-0000-4000-8000-000000000002' };
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    await layered.append(key, transcript.entries);
    // `hasSession` reads the store's private connection: it works only when called on the base.
    expect(layered.hasSession(key.projectKey, key.sessionId)).toBe(true);
    expect(layered.path).toBe(sqlite.path);
    expect(layered.layers.map((layer) => layer.name)).toEqual(['expire']);
    expect(layered.reportFor(key)).toBeNull();
    await layered.load(key);
    expect(layered.reportFor(key)).toEqual(expect.objectContaining({ expired: 0, errors: [] }));
  });
});
