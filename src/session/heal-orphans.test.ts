import { describe, expect, test } from 'vitest';
import { deepFreeze, TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { parentOf, uuidOf } from './entry-content.js';
import { derivedUuid, healOrphans } from './heal-orphans.js';
import { validateTranscript } from './validate-transcript.js';

const TEXT = '[no result]';

describe('healOrphans', () => {
  test('inserts nothing when every call is answered', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    transcript.bash('ls', 'a');
    transcript.bash('pwd', '/w');
    const { entries, healed } = healOrphans(transcript.entries, TEXT);
    expect(healed).toBe(0);
    expect(entries).toEqual(transcript.entries);
  });

  test('answers a call left without a result at the end of the transcript', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const id = transcript.toolId();
    const [assistant] = transcript.reply([
      { type: 'tool_use', id, name: 'Bash', input: { command: 'make' } },
    ]);
    transcript.lastPrompt();
    const { entries, healed } = healOrphans(deepFreeze(transcript.entries), TEXT);
    expect(healed).toBe(1);
    const heal = entries[2]!;
    expect(heal).toMatchObject({
      type: 'user',
      parentUuid: assistant,
      sourceToolAssistantUUID: assistant,
      sessionId: transcript.entries[1]!['sessionId'],
      cwd: '/workspace',
      isSidechain: false,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: TEXT, is_error: false }],
      },
    });
    expect(heal.uuid).toBe(derivedUuid(`flower-heal:${assistant}`));
    expect(heal.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The leaf marker now names the heal entry, so the chain from the leaf runs through it.
    expect(entries[3]).toEqual({ ...transcript.entries[2], leafUuid: heal.uuid });
    expect(validateTranscript(entries)).toEqual([]);
    expect(healOrphans(transcript.entries, TEXT)).toEqual({ entries, healed });
  });

  test('threads a heal entry into the chain when a new prompt followed the unanswered call', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const id = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id, name: 'Bash', input: { command: 'make' } }]);
    const prompt = transcript.prompt('what happened?');
    transcript.reply([{ type: 'text', text: 'not sure' }]);
    expect(validateTranscript(transcript.entries).map((problem) => problem.rule)).toEqual([
      'unanswered-tool-use',
    ]);
    const { entries, healed } = healOrphans(transcript.entries, TEXT);
    expect(healed).toBe(1);
    const heal = entries[2]!;
    const resumed = entries.find((entry) => uuidOf(entry) === prompt)!;
    expect(parentOf(resumed)).toBe(uuidOf(heal));
    expect(validateTranscript(entries)).toEqual([]);
  });

  test('answers only the unanswered one of two parallel calls, hanging it off its own call', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const answered = transcript.toolId();
    const orphan = transcript.toolId();
    const [first, second] = transcript.reply([
      { type: 'tool_use', id: answered, name: 'Bash', input: { command: 'ls' } },
      { type: 'tool_use', id: orphan, name: 'Bash', input: { command: 'pwd' } },
    ]);
    const [result] = transcript.results([{ id: answered, content: 'a' }]);
    const { entries, healed } = healOrphans(transcript.entries, TEXT);
    expect(healed).toBe(1);
    expect(entries.map(uuidOf).slice(0, 4)).toEqual([uuidOf(transcript.entries[0]!), first, second, result]);
    expect(parentOf(entries[4]!)).toBe(second);
    expect(validateTranscript(entries)).toEqual([]);
  });

  test('treats a result that comes only after a later reply as missing', () => {
    const transcript = new TranscriptBuilder();
    const id = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id, name: 'Bash', input: { command: 'make' } }]);
    transcript.reply([{ type: 'text', text: 'later' }]);
    transcript.results([{ id, content: 'too late' }]);
    expect(healOrphans(transcript.entries, TEXT).healed).toBe(1);
  });
});
