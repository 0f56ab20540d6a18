import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { deepFreeze, TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { blocksOf, withResultContents, type Entry } from './entry-content.js';
import { EphemeralPolicy } from './ephemeral-policy.js';
import { expire } from './expire.js';
import { prune } from './prune.js';
import { PrunePolicy } from './prune-policy.js';
import { indexTools } from './tool-index.js';
import { trim } from './trim.js';
import { TrimPolicy } from './trim-policy.js';

let workspace: string;
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'flower-tool-index-'));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

/** Everything the three layers act on: glances, large reads, denials, an API error, an interrupt, an orphan. */
function mixedSession(): Entry[] {
  const transcript = new TranscriptBuilder();
  transcript.prompt('go');
  for (let round = 0; round < 4; round += 1) {
    transcript.bash('git status', `clean ${round}`);
    transcript.read(`/w/${round}.txt`, String(round).repeat(2500 + round));
    transcript.denied(`rm -rf dir${round}`);
    transcript.bash('npm test', '[Request interrupted by user for tool use]', { isError: true });
    if (round === 1) transcript.apiError();
  }
  transcript.reply([{ type: 'tool_use', id: transcript.toolId(), name: 'Bash', input: { command: 'ls' } }]);
  transcript.prompt('carry on');
  transcript.reply([{ type: 'text', text: 'done' }]);
  transcript.lastPrompt();
  return deepFreeze(transcript.entries);
}

function resultContent(entries: readonly Entry[], id: string): unknown {
  for (const entry of entries) {
    for (const block of blocksOf(entry) ?? []) {
      if (block.type === 'tool_result' && block['tool_use_id'] === id) return block['content'];
    }
  }
  return undefined;
}

function positionOf(entries: readonly Entry[], id: string): number {
  return entries.findIndex((entry) =>
    (blocksOf(entry) ?? []).some((block) => block.type === 'tool_result' && block['tool_use_id'] === id),
  );
}

describe('indexTools', () => {
  test('expire, trim and prune given one shared index return what each returns walking on its own', () => {
    const entries = mixedSession();
    const ephemeral = new EphemeralPolicy({ keepRecent: 1 });
    const trimming = new TrimPolicy({ keepRecent: 1 });
    const pruning = new PrunePolicy();

    const alone = prune(trim(expire(entries, ephemeral).entries, trimming, { workspace }).entries, pruning);
    const index = indexTools(entries);
    const expired = expire(entries, ephemeral, index);
    const trimmed = trim(expired.entries, trimming, { workspace, index });
    const shared = prune(trimmed.entries, pruning, index);

    expect(shared).toEqual(alone);
    // The session really exercises every layer, so the comparison above means something.
    expect(expired.report.expired).toBe(3);
    expect(trimmed.report.cleared).toBe(3);
    expect(shared.report).toMatchObject({ pruned: 1, denialsDropped: 3, healed: 1 });
  });

  test('lists every call with its entry, and every entry holding tool blocks the two lists leave out', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const call = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id: call, name: 'Read', input: { file_path: '/w/a' } }]);
    transcript.results([{ id: call, content: 'a' }]);
    transcript.raw({ isMeta: true, message: { role: 'user', content: [{ type: 'text', text: 'meta' }] } });
    transcript.marker('system', { content: 'compacting' });
    const stray = transcript.toolId();
    transcript.raw({
      type: 'assistant',
      message: {
        id: 'msg_odd',
        role: 'assistant',
        content: [{ type: 'tool_result', tool_use_id: stray, content: 'odd' }],
      },
    });
    transcript.raw({
      message: { role: 'user', content: [{ type: 'tool_use', id: stray, name: 'Bash', input: {} }] },
    });
    const entries = deepFreeze(transcript.entries);

    const index = indexTools(entries);

    expect(index.calls).toEqual([call]);
    expect(index.callPositions).toEqual([1]);
    expect(index.results.map((site) => [site.toolUseId, site.entryIndex])).toEqual([[call, 2]]);
    // The meta entry, the marker, the assistant entry with a result, the user entry with a call.
    expect(index.others).toEqual([3, 4, 5, 6]);
  });

  test('trim judges a block an earlier layer rewrote by its new text, not by the indexed one', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const grown = transcript.bash('echo', 'short');
    const shrunk = transcript.read('/w/a.txt', 'a'.repeat(3000));
    transcript.read('/w/b.txt', 'b'.repeat(3000));
    const entries = deepFreeze(transcript.entries);
    const index = indexTools(entries);
    const rewritten = [...entries];
    const grownAt = positionOf(entries, grown);
    const shrunkAt = positionOf(entries, shrunk);
    rewritten[grownAt] = withResultContents(entries[grownAt] as Entry, new Map([[0, 'g'.repeat(3000)]]));
    rewritten[shrunkAt] = withResultContents(entries[shrunkAt] as Entry, new Map([[0, 'tiny']]));

    const { entries: out, report } = trim(rewritten, new TrimPolicy({ keepRecent: 1 }), { workspace, index });

    expect(resultContent(out, grown)).toMatch(/^\[Tool result archived/);
    expect(resultContent(out, shrunk)).toBe('tiny');
    expect(report).toMatchObject({ cleared: 1, kept: 1 });
  });
});
