import { describe, expect, test } from 'vitest';
import { deepFreeze, TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { blocksOf, parentOf, uuidOf, type Entry } from './entry-content.js';
import { prune } from './prune.js';
import { PrunePolicy } from './prune-policy.js';
import { validateTranscript } from './validate-transcript.js';

function toolIds(entries: readonly Entry[]): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    for (const block of blocksOf(entry) ?? []) {
      if (block.type === 'tool_use') ids.push(`use:${String(block['id'])}`);
      if (block.type === 'tool_result') ids.push(`result:${String(block['tool_use_id'])}`);
    }
  }
  return ids;
}

function withDenials(count: number): { transcript: TranscriptBuilder; denials: string[] } {
  const transcript = new TranscriptBuilder();
  transcript.prompt('go');
  const denials: string[] = [];
  for (let index = 0; index < count; index += 1) {
    transcript.bash('ls', 'a');
    denials.push(transcript.denied(`rm -rf dir${index}`));
  }
  transcript.reply([{ type: 'text', text: 'done' }]);
  transcript.lastPrompt();
  return { transcript, denials };
}

describe('prune', () => {
  test.each([
    [0, 0],
    [1, 1],
    [5, 2],
  ])(
    'keepDenials %i leaves %i of 2 denials, each call with its result, the chain intact',
    (keepDenials, left) => {
      const { transcript, denials } = withDenials(2);
      const { entries, report } = prune(deepFreeze(transcript.entries), new PrunePolicy({ keepDenials }));
      const ids = toolIds(entries);
      const kept = denials.filter((id) => ids.includes(`use:${id}`));
      expect(kept).toEqual(denials.slice(denials.length - left));
      for (const id of denials) expect(ids.includes(`use:${id}`)).toBe(ids.includes(`result:${id}`));
      expect(report.denialsDropped).toBe(2 - left);
      expect(entries).toHaveLength(transcript.entries.length - 2 * (2 - left));
      expect(validateTranscript(entries)).toEqual([]);
    },
  );

  test('a denied call sharing an assistant message loses only its own block, and its result loses toolUseResult', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const status = transcript.toolId();
    const removal = transcript.toolId();
    transcript.reply([
      { type: 'tool_use', id: status, name: 'Bash', input: { command: 'git status' } },
      { type: 'tool_use', id: removal, name: 'Bash', input: { command: 'rm -rf x' } },
    ]);
    transcript.results([
      { id: status, content: 'clean' },
      { id: removal, content: 'denied', isError: true, extra: { toolDenialKind: 'permission-rule' } },
    ]);
    transcript.reply([{ type: 'text', text: 'ok' }]);
    transcript.denied('rm -rf y');
    const { entries } = prune(transcript.entries, new PrunePolicy({ keepDenials: 1 }));
    expect(toolIds(entries).filter((id) => id.endsWith(removal))).toEqual([]);
    expect(toolIds(entries).filter((id) => id.endsWith(status))).toEqual([
      `use:${status}`,
      `result:${status}`,
    ]);
    expect(validateTranscript(entries)).toEqual([]);
  });

  test('collects every denied id of an entry and strips a partly denied entry copy-on-write', () => {
    const transcript = new TranscriptBuilder();
    const first = transcript.toolId();
    const second = transcript.toolId();
    const third = transcript.toolId();
    transcript.reply([
      { type: 'tool_use', id: first, name: 'Bash', input: { command: 'rm a' } },
      { type: 'tool_use', id: second, name: 'Bash', input: { command: 'rm b' } },
      { type: 'tool_use', id: third, name: 'Bash', input: { command: 'ls' } },
    ]);
    // One user entry answering all three, two of them denied.
    transcript.raw({
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: first, content: 'denied', is_error: true },
          { type: 'tool_result', tool_use_id: second, content: 'denied', is_error: true },
          { type: 'tool_result', tool_use_id: third, content: 'a b', is_error: false },
        ],
      },
      toolDenialKind: 'permission-rule',
      toolUseResult: 'Error: denied',
    });
    const { entries, report } = prune(deepFreeze(transcript.entries), new PrunePolicy({ keepDenials: 1 }));
    expect(report.denialsDropped).toBe(2);
    expect(toolIds(entries)).toEqual([`use:${third}`, `result:${third}`]);
    const stripped = entries.find((entry) => entry.type === 'user');
    expect(stripped?.['toolUseResult']).toBeUndefined();
    expect(stripped?.['toolDenialKind']).toBe('permission-rule');
    expect(validateTranscript(entries)).toEqual([]);
  });

  test('removes a synthetic API error in the middle of the chain and re-links its child', () => {
    const transcript = new TranscriptBuilder();
    const prompt = transcript.prompt('go');
    const error = transcript.apiError();
    const next = transcript.prompt('continue');
    const { entries, report } = prune(transcript.entries, new PrunePolicy());
    expect(report.pruned).toBe(1);
    expect(entries.map(uuidOf)).toEqual([prompt, next]);
    expect(parentOf(entries[1]!)).toBe(prompt);
    expect(entries.map(uuidOf)).not.toContain(error);
  });

  test('removes a synthetic API error leaf and points the last-prompt marker at the survivor', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const answer = transcript.reply([{ type: 'text', text: 'hi' }])[0];
    transcript.prompt('again');
    transcript.apiError('API Error: 529 Overloaded');
    transcript.lastPrompt();
    expect(validateTranscript(transcript.entries).map((problem) => problem.rule)).toEqual(['synthetic-leaf']);
    const { entries } = prune(transcript.entries, new PrunePolicy());
    expect(validateTranscript(entries)).toEqual([]);
    const marker = entries.find((entry) => entry.type === 'last-prompt');
    expect(marker?.['leafUuid']).toBe(uuidOf(entries[entries.length - 2]!));
    expect(answer).toBeDefined();
  });

  test('neutralises an interrupted result and keeps its block', () => {
    const transcript = new TranscriptBuilder();
    const id = transcript.bash('sleep 100', '[Request interrupted by user for tool use]', { isError: true });
    const { entries } = prune(deepFreeze(transcript.entries), new PrunePolicy());
    const block = blocksOf(entries[1]!)?.[0];
    expect(block).toEqual({
      type: 'tool_result',
      tool_use_id: id,
      content: '[The previous turn was interrupted here; this tool produced no result.]',
      is_error: false,
    });
  });

  test('leaves protected and uuid-less entries alone', () => {
    const transcript = new TranscriptBuilder();
    transcript.raw({
      type: 'assistant',
      isMeta: true,
      isApiErrorMessage: true,
      message: { role: 'assistant', content: [] },
    });
    transcript.marker('assistant', {
      isApiErrorMessage: true,
      message: { role: 'assistant', model: '<synthetic>', content: [] },
    });
    transcript.raw({ type: 'user', isCompactSummary: true, message: { role: 'user', content: 'summary' } });
    const { entries, report } = prune(transcript.entries, new PrunePolicy());
    expect(entries).toEqual(transcript.entries);
    expect(report.pruned).toBe(0);
  });

  test('keeps a denied pair whose call sits in a uuid-less entry that could not be dropped', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const id = transcript.toolId();
    transcript.marker('assistant', {
      message: {
        id: 'msg_x',
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'rm x' } }],
      },
    });
    transcript.results([
      { id, content: 'denied', isError: true, extra: { toolDenialKind: 'permission-rule' } },
    ]);
    const { entries, report } = prune(transcript.entries, new PrunePolicy({ keepDenials: 0 }));
    expect(report.denialsDropped).toBe(0);
    expect(toolIds(entries)).toEqual([`use:${id}`, `result:${id}`]);
  });

  test('finds a denied id in every kind of entry: a protected one keeps the pair, a stray block goes with it', () => {
    const { transcript, denials } = withDenials(3);
    const [kept, stripped, dropped] = denials as [string, string, string];
    // A meta entry quoting the first denial's result: protected, so that pair stays (docs/decisions.md D419).
    transcript.raw({
      isMeta: true,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: kept, content: 'quoted' }] },
    });
    // A uuid-less entry of another type holding nothing but the second's call: it cannot be dropped, so
    // that pair stays too.
    transcript.marker('system', {
      message: { role: 'user', content: [{ type: 'tool_use', id: stripped, name: 'Bash', input: {} }] },
    });
    // An assistant entry holding a stray result of the third beside its text: that block goes, the entry stays.
    transcript.raw({
      type: 'assistant',
      message: {
        id: 'msg_stray',
        role: 'assistant',
        content: [
          { type: 'text', text: 'noted' },
          { type: 'tool_result', tool_use_id: dropped, content: 'stray' },
        ],
      },
    });
    const { entries, report } = prune(deepFreeze(transcript.entries), new PrunePolicy({ keepDenials: 0 }));
    const ids = toolIds(entries);
    expect(ids.filter((id) => id.endsWith(kept))).toEqual([
      `use:${kept}`,
      `result:${kept}`,
      `result:${kept}`,
    ]);
    expect(ids.filter((id) => id.endsWith(stripped))).toEqual([
      `use:${stripped}`,
      `result:${stripped}`,
      `use:${stripped}`,
    ]);
    expect(ids.filter((id) => id.endsWith(dropped))).toEqual([]);
    expect(report.denialsDropped).toBe(1);
    const noted = entries.find((entry) => blocksOf(entry)?.some((block) => block['text'] === 'noted'));
    expect(blocksOf(noted as Entry)).toEqual([{ type: 'text', text: 'noted' }]);
  });

  test('prunes only the configured denial kinds', () => {
    const transcript = new TranscriptBuilder();
    const rejected = transcript.bash('rm x', 'rejected', {
      isError: true,
      extra: { toolDenialKind: 'user-rejected' },
    });
    transcript.denied('rm y');
    transcript.denied('rm z');
    const byDefault = prune(transcript.entries, new PrunePolicy({ keepDenials: 1 }));
    expect(toolIds(byDefault.entries)).toContain(`use:${rejected}`);
    expect(byDefault.report.denialsDropped).toBe(1);
    const wider = prune(
      transcript.entries,
      new PrunePolicy({ keepDenials: 1, denialKinds: ['permission-rule', 'user-rejected'] }),
    );
    expect(toolIds(wider.entries)).not.toContain(`use:${rejected}`);
    expect(wider.report.denialsDropped).toBe(2);
  });

  test('keeps API errors when dropApiErrors is off', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    transcript.apiError();
    expect(prune(transcript.entries, new PrunePolicy({ dropApiErrors: false })).entries).toHaveLength(2);
  });
});
