import { describe, expect, test } from 'vitest';
import { TranscriptBuilder } from '../../test/fixtures/transcripts/transcript-builder.js';
import { validateTranscript } from './validate-transcript.js';

describe('validateTranscript', () => {
  test('accepts a sound transcript with parallel calls and uuid-less markers', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const first = transcript.toolId();
    const second = transcript.toolId();
    transcript.reply([
      { type: 'thinking', thinking: 'plan' },
      { type: 'tool_use', id: first, name: 'Bash', input: { command: 'ls' } },
      { type: 'tool_use', id: second, name: 'Read', input: { file_path: 'a' } },
    ]);
    transcript.results([
      { id: second, content: 'a' },
      { id: first, content: 'b' },
    ]);
    transcript.marker('cost-state');
    transcript.reply([{ type: 'text', text: 'done' }]);
    expect(validateTranscript(transcript.entries)).toEqual([]);
  });

  test('reports an unanswered tool_use at the entry holding it', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    const id = transcript.toolId();
    transcript.reply([{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }]);
    expect(validateTranscript(transcript.entries)).toEqual([
      {
        index: 1,
        rule: 'unanswered-tool-use',
        detail: `tool_use ${id} has no tool_result before the next reply`,
      },
    ]);
  });

  test('reports a tool_result with no tool_use in the reply before it', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    transcript.results([{ id: 'toolu_missing', content: 'x' }]);
    expect(validateTranscript(transcript.entries).map((problem) => [problem.index, problem.rule])).toEqual([
      [1, 'orphan-tool-result'],
    ]);
  });

  test('reports a parent that names no entry', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    transcript.raw({ parentUuid: 'gone', message: { role: 'user', content: 'x' } });
    expect(validateTranscript(transcript.entries)).toEqual([
      { index: 1, rule: 'broken-parent', detail: 'parentUuid gone names no entry of this transcript' },
    ]);
  });

  test('reports a synthetic API error as the last message, whatever markers follow it', () => {
    const transcript = new TranscriptBuilder();
    transcript.prompt('go');
    transcript.apiError();
    transcript.lastPrompt();
    expect(validateTranscript(transcript.entries).map((problem) => [problem.index, problem.rule])).toEqual([
      [1, 'synthetic-leaf'],
    ]);
  });
});
