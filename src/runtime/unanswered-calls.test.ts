import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { blocksOf, isToolResult, isToolUse } from '../session/entry-content.js';
import { PLACEHOLDER_TEXT } from '../session/placeholder-text.js';
import { PruningSessionStore } from '../session/pruning-session-store.js';
import { validateTranscript } from '../session/validate-transcript.js';
import { UnansweredCalls } from './unanswered-calls.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'flower-unanswered-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const assistant = (sessionId: string, blocks: unknown[], parent: string | null = null): unknown => ({
  type: 'assistant',
  session_id: sessionId,
  parent_tool_use_id: parent,
  message: { role: 'assistant', content: blocks },
});
const user = (sessionId: string, blocks: unknown[]): unknown => ({
  type: 'user',
  session_id: sessionId,
  parent_tool_use_id: null,
  message: { role: 'user', content: blocks },
});

describe('UnansweredCalls', () => {
  test('a call the break cut off before the gate saw it is journalled, and every load shows it answered', async () => {
    const store = new PruningSessionStore(join(directory, 'sessions.db'), join(directory, 'workspace'), {
      journal: true,
    });
    try {
      const transcript = new TranscriptBuilder();
      transcript.prompt('go');
      transcript.bash('ls', 'wc.js');
      const sessionId = String(transcript.entries[0]!['sessionId']);
      const key = { projectKey: '-workspace', sessionId };
      // What the store holds when flower breaks: the mirror never got the last reply.
      await store.append(key, transcript.entries);

      const unanswered = new UnansweredCalls();
      unanswered.observe(
        assistant(sessionId, [{ type: 'tool_use', id: 'toolu_done', name: 'Bash', input: {} }]),
      );
      unanswered.observe(user(sessionId, [{ type: 'tool_result', tool_use_id: 'toolu_done', content: '' }]));
      unanswered.observe(
        assistant(sessionId, [{ type: 'tool_use', id: 'toolu_sub', name: 'Read', input: {} }], 'toolu_agent'),
      );
      unanswered.observe(
        assistant(sessionId, [
          { type: 'text', text: 'A quick look first.' },
          { type: 'tool_use', id: 'toolu_cut', name: 'Bash', input: { command: 'ls' } },
        ]),
      );
      expect(unanswered.ids()).toEqual(['toolu_cut']);
      await unanswered.journal(store.toolJournal!, () => Date.UTC(2026, 0, 1, 1));

      const loaded = (await store.load(key)) ?? [];
      const blocks = loaded.flatMap((entry) => blocksOf(entry) ?? []);
      expect(blocks.filter((block) => isToolUse(block) && block.id === 'toolu_cut')).toEqual([
        { type: 'tool_use', id: 'toolu_cut', name: 'Bash', input: { command: 'ls' } },
      ]);
      expect(blocks.filter((block) => isToolResult(block) && block.tool_use_id === 'toolu_cut')).toEqual([
        expect.objectContaining({ content: PLACEHOLDER_TEXT.journalled, is_error: true }),
      ]);
      expect(JSON.stringify(loaded)).not.toContain('toolu_sub');
      expect(validateTranscript(loaded)).toEqual([]);
    } finally {
      store.close();
    }
  });

  test('journals nothing before a session id is known, and a journal that fails does not throw', async () => {
    const recorded: string[] = [];
    const unanswered = new UnansweredCalls();
    unanswered.observe({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_a' }] } });
    await unanswered.journal({
      record: (call) => {
        recorded.push(call.toolUseId);
      },
    });
    expect(recorded).toEqual([]);
    unanswered.observe({ type: 'system', session_id: 'session-1' });
    const failure = new Error('disk full');
    const heard: unknown[] = [];
    await expect(
      unanswered.journal(
        {
          record: () => {
            throw failure;
          },
        },
        Date.now,
        (error) => heard.push(error),
      ),
    ).resolves.toBeUndefined();
    // The runtime hears it: a full run directory stops the run before the query closes.
    expect(heard).toEqual([failure]);
    await unanswered.journal({
      record: (call) => {
        recorded.push(call.toolUseId);
      },
    });
    expect(recorded).toEqual(['toolu_a']);
  });
});
