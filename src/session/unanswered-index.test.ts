import { describe, expect, test } from 'vitest';
import { deepFreeze, TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { healOrphans, healReplies } from './heal-orphans.js';
import { indexTools } from './tool-index.js';

describe('indexTools: unanswered calls', () => {
  test('finds, in its one walk, exactly the replies healing would find with its own', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    // Answered, then answered only by a protected (compact-summary) entry, which still counts as an answer.
    transcript.bash('ls', 'a');
    const summarised = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id: summarised, name: 'Read', input: { file_path: '/w/a' } }]);
    transcript.results([{ id: summarised, content: 'text', extra: { isCompactSummary: true } }]);
    // Two parallel calls, one answered; then a call answered only after the next reply (so unanswered).
    const answered = transcript.toolId();
    const orphan = transcript.toolId();
    transcript.reply([
      { type: 'tool_use', id: answered, name: 'Bash', input: { command: 'ls' } },
      { type: 'tool_use', id: orphan, name: 'Bash', input: { command: 'pwd' } },
    ]);
    transcript.results([{ id: answered, content: 'a' }]);
    const late = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id: late, name: 'Bash', input: { command: 'make' } }]);
    transcript.reply([{ type: 'text', text: 'later' }]);
    transcript.results([{ id: late, content: 'too late' }]);
    // Replies without a message id are each their own reply; the last call is never answered.
    const keyless = transcript.toolId();
    transcript.raw({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'tool_use', id: keyless, name: 'Read', input: {} }] },
    });
    transcript.raw({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'x' }] },
    });
    transcript.lastPrompt();
    const entries = deepFreeze(transcript.entries);

    const index = indexTools(entries);
    expect(index.unanswered.map((reply) => reply.calls.map(([id]) => id))).toEqual([
      [orphan],
      [late],
      [keyless],
    ]);
    expect(healReplies(entries, index.unanswered, '[none]')).toEqual(healOrphans(entries, '[none]'));
  });
});
