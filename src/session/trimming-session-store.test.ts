import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { toolResultIds, TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { blocksOf, type Entry } from './entry-content.js';
import { EphemeralPolicy } from './ephemeral-policy.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { TrimmingSessionStore } from './trimming-session-store.js';
import { TrimPolicy } from './trim-policy.js';

let directory: string;
let workspace: string;
const stores: SqliteSessionStore[] = [];
const main = { projectKey: '-workspace', sessionId: '00000000-0000-4000-8000-000000000001' };
const subagent = { ...main, subpath: 'subagents/agent-a1' };

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'flower-trimming-'));
  workspace = join(directory, 'workspace');
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(directory, { recursive: true, force: true });
});

function open<T extends SqliteSessionStore>(store: T): T {
  stores.push(store);
  return store;
}

function contents(entries: readonly Entry[]): unknown[] {
  return entries.flatMap((entry) =>
    (blocksOf(entry) ?? []).filter((block) => block.type === 'tool_result').map((block) => block['content']),
  );
}

/** Seven glance results and three large Read results. */
function session(): Entry[] {
  const transcript = new TranscriptBuilder();
  transcript.prompt('go');
  for (let index = 0; index < 7; index += 1) transcript.bash('git status', `clean ${index}`);
  for (const letter of ['a', 'b', 'c']) transcript.read(`/w/${letter}.txt`, letter.repeat(3000));
  transcript.reply([{ type: 'text', text: 'done' }]);
  return transcript.entries;
}

describe('TrimmingSessionStore', () => {
  test('expires and trims what load() returns while the stored transcript stays as it was', async () => {
    const path = join(directory, 'sessions.db');
    const store = open(
      new TrimmingSessionStore(path, workspace, { trim: new TrimPolicy({ keepRecent: 1 }) }),
    );
    const stored = session();
    await store.append(main, stored);
    const loaded = (await store.load(main)) ?? [];
    const results = contents(loaded);
    expect(results.filter((content) => String(content).startsWith('[Output of `git status`'))).toHaveLength(
      1,
    );
    expect(results.filter((content) => String(content).startsWith('[Tool result archived'))).toHaveLength(2);
    expect(results.at(-1)).toBe('c'.repeat(3000));
    expect(readdirSync(join(workspace, '.flower', 'spill'))).toHaveLength(2);
    expect(toolResultIds(loaded)).toEqual(toolResultIds(stored));
    expect(store.reportFor(main)).toEqual({
      expired: 1,
      cleared: 2,
      kept: 1,
      charsSaved: expect.any(Number) as unknown,
      pruned: 0,
      denialsDropped: 0,
      healed: 0,
      errors: [],
    });
    store.close();
    const plain = open(new SqliteSessionStore(path));
    expect(await plain.load(main)).toEqual(stored);
  });

  test('keeps a report per store key, so a subagent load does not overwrite the main one', async () => {
    const store = open(new TrimmingSessionStore(join(directory, 'sessions.db'), workspace));
    await store.append(main, session());
    const other = new TranscriptBuilder();
    other.bash('ls', 'x');
    await store.append(subagent, other.entries);
    expect(store.reportFor(main)).toBeNull();
    await store.load(main);
    await store.load(subagent);
    expect(store.reportFor(main)?.expired).toBe(1);
    expect(store.reportFor(subagent)?.expired).toBe(0);
  });

  test('turns layers off with false and leaves the transcript as stored', async () => {
    const store = open(
      new TrimmingSessionStore(join(directory, 'sessions.db'), workspace, { trim: false, ephemeral: false }),
    );
    const stored = session();
    await store.append(main, stored);
    expect(await store.load(main)).toEqual(stored);
    expect(existsSync(join(workspace, '.flower'))).toBe(false);
    expect(store.trimPolicy.enabled).toBe(false);
    expect(store.ephemeralPolicy).toBeInstanceOf(EphemeralPolicy);
  });

  test('expires before trimming, so a glance result between minChars and maxChars is expired, not spilled', async () => {
    const store = open(
      new TrimmingSessionStore(join(directory, 'sessions.db'), workspace, {
        trim: new TrimPolicy({ keepRecent: 0, minChars: 1000 }),
        ephemeral: new EphemeralPolicy({ keepRecent: 0 }),
      }),
    );
    const transcript = new TranscriptBuilder();
    transcript.bash('ls -la', 'l'.repeat(1500));
    await store.append(main, transcript.entries);
    const loaded = (await store.load(main)) ?? [];
    expect(String(contents(loaded)[0])).toMatch(/^\[Output of `ls -la`/);
    expect(store.reportFor(main)).toMatchObject({ expired: 1, cleared: 0 });
    expect(existsSync(join(workspace, '.flower', 'spill'))).toBe(false);
  });

  test('returns null for an unknown key and leaves no report', async () => {
    const store = open(new TrimmingSessionStore(join(directory, 'sessions.db'), workspace));
    expect(await store.load(main)).toBeNull();
    expect(store.reportFor(main)).toBeNull();
  });
});
