import { describe, expect, test } from 'vitest';
import { deepFreeze, TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { blocksOf, messageOf, type Entry } from './entry-content.js';
import { healOrphans } from './heal-orphans.js';
import { recoverJournalledCalls, toolUseIds, type JournalRecoveryInput } from './journal-recovery.js';
import type { JournalledCall } from './tool-journal.js';
import { validateTranscript } from './validate-transcript.js';

const TEXT = '[may have completed]';
const ORPHAN = '[interrupted]';
const SESSION = 'session-1';

/** A journalled call let through at second `second` of the builder's clock. */
function journalled(toolUseId: string, second: number, command = 'echo 1 >> lines.txt'): JournalledCall {
  return {
    sessionId: SESSION,
    toolUseId,
    agentId: null,
    toolName: 'Bash',
    input: { command },
    startedAt: Date.UTC(2026, 0, 1, 0, 0, second) + 500,
  };
}

function recover(
  entries: readonly Entry[],
  calls: JournalledCall[],
): ReturnType<typeof recoverJournalledCalls> {
  const input: JournalRecoveryInput = {
    storedCalls: toolUseIds(entries),
    journalledIds: new Set(calls.map((call) => call.toolUseId)),
    journalled: calls,
    text: TEXT,
    orphanText: ORPHAN,
  };
  return recoverJournalledCalls(entries, input);
}

/** The uuids from the leaf (last chat entry) back to the root, as the harness walks them. */
function chainFrom(entries: readonly Entry[], leaf: string): string[] {
  const byUuid = new Map(entries.map((entry) => [entry.uuid, entry]));
  const chain: string[] = [];
  for (let current: string | null = leaf; current !== null;) {
    if (chain.includes(current)) throw new Error(`the parent chain loops at ${current}`);
    chain.push(current);
    const parent: unknown = byUuid.get(current)?.['parentUuid'];
    current = typeof parent === 'string' ? parent : null;
  }
  return chain.reverse();
}

describe('recoverJournalledCalls', () => {
  test('puts a lost call and a "may have completed" answer at the end of the chain', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    transcript.bash('echo 0 >> lines.txt', '');
    transcript.lastPrompt();
    const before = deepFreeze(structuredClone(transcript.entries));
    const { entries, report } = recover(deepFreeze(transcript.entries), [journalled('toolu_lost', 10)]);
    expect(report).toEqual({ healed: 1 });
    expect(entries).toHaveLength(transcript.entries.length + 2);
    const [call, answer] = entries.slice(3, 5) as [Entry, Entry];
    expect(call).toMatchObject({
      type: 'assistant',
      parentUuid: transcript.entries[2]!.uuid,
      sessionId: transcript.entries[2]!['sessionId'],
      message: {
        role: 'assistant',
        model: 'claude-opus-5-5',
        content: [
          { type: 'tool_use', id: 'toolu_lost', name: 'Bash', input: { command: 'echo 1 >> lines.txt' } },
        ],
      },
    });
    expect(answer).toMatchObject({
      type: 'user',
      parentUuid: call.uuid,
      message: {
        content: [{ type: 'tool_result', tool_use_id: 'toolu_lost', content: TEXT, is_error: true }],
      },
    });
    // The leaf marker names the recovered answer, so the resume continues from it.
    expect(entries[5]).toMatchObject({ type: 'last-prompt', leafUuid: answer.uuid });
    expect(validateTranscript(entries)).toEqual([]);
    expect(transcript.entries).toEqual(before);
    // Deterministic: a second load builds the same entries.
    expect(recover(transcript.entries, [journalled('toolu_lost', 10)]).entries).toEqual(entries);
  });

  test('leaves a transcript alone when every journalled call is stored', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const id = transcript.bash('echo 0 >> lines.txt', '');
    const { entries, report } = recover(transcript.entries, [journalled(id, 2)]);
    expect(entries).toEqual(transcript.entries);
    expect(report).toEqual({ healed: 0 });
  });

  test('keeps the place of a recovered call once the resumed session has gone on from it', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    transcript.bash('echo 0 >> lines.txt', '');
    const call = journalled('toolu_lost', 4);
    const first = recover(transcript.entries, [call]).entries;
    const answer = first.at(-1)!.uuid as string;
    // The resumed session writes on after the recovered answer (later timestamps), and is stored.
    const later: Entry[] = [
      {
        ...transcript.entries[2]!,
        uuid: 'resumed-1',
        parentUuid: answer,
        timestamp: '2026-01-01T00:01:00.000Z',
      },
      {
        ...transcript.entries[1]!,
        uuid: 'resumed-2',
        parentUuid: 'resumed-1',
        timestamp: '2026-01-01T00:01:01.000Z',
      },
    ];
    const second = recover([...transcript.entries, ...later], [call]).entries;
    expect(chainFrom(second, 'resumed-2')).toEqual([
      ...transcript.entries.map((entry) => entry.uuid),
      first.at(-2)!.uuid,
      answer,
      'resumed-1',
      'resumed-2',
    ]);
  });

  test('continues a reply whose text was stored but whose call was not, as one message', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    transcript.reply([{ type: 'text', text: 'Appending the line now.' }]);
    const { entries } = recover(transcript.entries, [journalled('toolu_lost', 3)]);
    expect(messageOf(entries[2]!)?.['id']).toBe(messageOf(transcript.entries[1]!)?.['id']);
    expect(validateTranscript(entries)).toEqual([]);
  });

  test('retells the placeholder answer of a journalled call that was stored without its result', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const started = transcript.toolId();
    const unjournalled = transcript.toolId();
    transcript.reply([
      { type: 'tool_use', id: started, name: 'Bash', input: { command: 'echo 1 >> lines.txt' } },
      { type: 'tool_use', id: unjournalled, name: 'Bash', input: { command: 'echo 2 >> lines.txt' } },
    ]);
    const healed = healOrphans(transcript.entries, ORPHAN).entries;
    const { entries, report } = recover(healed, [journalled(started, 3)]);
    expect(report).toEqual({ healed: 0 });
    const results = entries.flatMap((entry) => (entry.type === 'user' ? (blocksOf(entry) ?? []) : []));
    expect(results.filter((block) => block.type === 'tool_result')).toEqual([
      { type: 'tool_result', tool_use_id: started, content: TEXT, is_error: true },
      { type: 'tool_result', tool_use_id: unjournalled, content: ORPHAN, is_error: false },
    ]);
    expect(validateTranscript(entries)).toEqual([]);
  });
});
