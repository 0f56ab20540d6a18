import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { toolResultIds, TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { isProtected, type Entry } from './entry-content.js';
import { EphemeralPolicy } from './ephemeral-policy.js';
import { PrunePolicy } from './prune-policy.js';
import { PruningSessionStore } from './pruning-session-store.js';
import { TrimPolicy } from './trim-policy.js';
import { validateTranscript } from './validate-transcript.js';

interface Recorded {
  main: Entry[];
  subpath: string;
  subagent: Entry[];
  retry: Entry[];
}

const recorded = JSON.parse(
  readFileSync(new URL('../../test/fixtures/transcripts/claude-code-2.1.334.json', import.meta.url), 'utf8'),
) as Recorded;

let directory: string;
let store: PruningSessionStore | null = null;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'flower-pruning-'));
});
afterEach(() => {
  store?.close();
  store = null;
  rmSync(directory, { recursive: true, force: true });
});

function keyOf(entries: readonly Entry[]): { projectKey: string; sessionId: string } {
  return {
    projectKey: '-workspace',
    sessionId: String(entries.find((entry) => entry['sessionId'])?.['sessionId']),
  };
}

function open(options: ConstructorParameters<typeof PruningSessionStore>[2] = {}): PruningSessionStore {
  store = new PruningSessionStore(join(directory, 'sessions.db'), join(directory, 'workspace'), options);
  return store;
}

describe('PruningSessionStore', () => {
  test('turns a recorded Claude Code session with a synthetic API-error leaf into a valid transcript', async () => {
    const layered = open({ prune: new PrunePolicy({ keepDenials: 0 }) });
    const key = keyOf(recorded.main);
    await layered.append(key, recorded.main);
    await layered.append({ ...key, subpath: recorded.subpath }, recorded.subagent);
    expect(validateTranscript(recorded.main).map((problem) => problem.rule)).toEqual(['synthetic-leaf']);
    const loaded = (await layered.load(key)) ?? [];
    expect(validateTranscript(loaded)).toEqual([]);
    expect(layered.reportFor(key)).toMatchObject({ pruned: 1, denialsDropped: 1, healed: 0, errors: [] });
    const denied = recorded.main.find((entry) => entry['toolDenialKind'] === 'permission-rule');
    const deniedId = toolResultIds(denied === undefined ? [] : [denied])[0];
    expect(toolResultIds(loaded)).toEqual(toolResultIds(recorded.main).filter((id) => id !== deniedId));
    const subagent = (await layered.load({ ...key, subpath: recorded.subpath })) ?? [];
    expect(validateTranscript(subagent)).toEqual([]);
  });

  test('keeps the system api_error retry entries of a recovered request and the chain through them', async () => {
    const layered = open();
    const key = keyOf(recorded.retry);
    await layered.append(key, recorded.retry);
    const loaded = (await layered.load(key)) ?? [];
    expect(loaded).toEqual(recorded.retry);
    expect(validateTranscript(loaded)).toEqual([]);
  });

  test('heals a cut after a tool call on load', async () => {
    const layered = open();
    const key = keyOf(recorded.main);
    const editCall = recorded.main.findIndex(
      (entry) => entry.type === 'assistant' && JSON.stringify(entry['message']).includes('"name":"Edit"'),
    );
    const cut = recorded.main.slice(0, editCall + 1);
    await layered.append(key, cut);
    expect(validateTranscript(cut).map((problem) => problem.rule)).toEqual(['unanswered-tool-use']);
    const loaded = (await layered.load(key)) ?? [];
    expect(validateTranscript(loaded)).toEqual([]);
    expect(layered.reportFor(key)?.healed).toBe(1);
  });

  test('never touches compact-summary or meta entries and never removes a tool_result block', async () => {
    const layered = open({
      trim: new TrimPolicy({ keepRecent: 0 }),
      ephemeral: new EphemeralPolicy({ keepRecent: 0 }),
      prune: new PrunePolicy({ keepDenials: 0 }),
    });
    const transcript = new TranscriptBuilder();
    transcript.raw({
      isCompactSummary: true,
      message: { role: 'user', content: 'Summary: ' + 's'.repeat(5000) },
    });
    for (const extra of [{ isMeta: true }, { isCompactSummary: true }]) {
      const id = transcript.toolId();
      transcript.reply([{ type: 'tool_use', id, name: 'Bash', input: { command: 'git status' } }]);
      transcript.results([{ id, content: 'm'.repeat(3000), extra }]);
      const small = transcript.toolId();
      transcript.reply([{ type: 'tool_use', id: small, name: 'Bash', input: { command: 'ls' } }]);
      transcript.results([
        { id: small, content: 'a b', extra: { ...extra, toolDenialKind: 'permission-rule' } },
      ]);
    }
    transcript.bash('git status', 'clean');
    transcript.bash('cat big', 'b'.repeat(3000));
    transcript.denied('rm -rf x');
    const key = keyOf(transcript.entries);
    await layered.append(key, transcript.entries);
    const loaded = (await layered.load(key)) ?? [];
    const protectedBefore = transcript.entries.filter(isProtected);
    expect(loaded.filter(isProtected)).toEqual(protectedBefore);
    expect(protectedBefore).toHaveLength(5);
    const denied = toolResultIds(transcript.entries.slice(-1));
    expect(toolResultIds(loaded)).toEqual(
      toolResultIds(transcript.entries).filter((id) => !denied.includes(id)),
    );
    expect(layered.reportFor(key)).toMatchObject({ expired: 1, cleared: 1, denialsDropped: 1 });
  });

  test('resumes with a failing layer skipped and the failure in the report', async () => {
    const prune = new PrunePolicy();
    Object.defineProperty(prune, 'denialKinds', {
      get: () => {
        throw new Error('boom');
      },
    });
    const layered = open({ prune });
    const key = keyOf(recorded.main);
    await layered.append(key, recorded.main);
    const loaded = (await layered.load(key)) ?? [];
    expect(loaded).toHaveLength(recorded.main.length);
    expect(layered.reportFor(key)?.errors).toEqual(['prune: boom']);
  });

  test('runs no prune step when pruning is off', async () => {
    const layered = open({ prune: false, trim: false, ephemeral: false });
    const key = keyOf(recorded.main);
    await layered.append(key, recorded.main);
    expect(await layered.load(key)).toEqual(recorded.main);
    expect(layered.prunePolicy.enabled).toBe(false);
  });
});
