// A trimmed resume through the runtime (acceptance of the store's deferred spill files): the resumed session's
// first request carries pointers in place of the oldest large results, and the model reading a pointer's file
// at once gets the whole original text. The store writes spill files after load() returns; this passes only
// because the runtime's gate holds the first tool call until they are on disk. Real SDK and Claude Code binary.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { agentSpec } from '../../src/agent/agent-spec.js';
import {
  lastUserText,
  MAIN_THREAD,
  message,
  text,
  toolUse,
  type FakeRequest,
  type FakeResponse,
} from '../../src/testing/index.js';
import { inProcessRuns } from './support/in-process-run.js';

const setUp = inProcessRuns();

/** More large results than trim keeps (20), so the oldest ones are spilled on resume. */
const FILES = 24;
const SPILL_PATH = /\/[^\s"'`\\]*\.flower\/spill\/[0-9a-f]{16}\.txt/;

function fileText(index: number): string {
  const lines = [`MARKER-${index}-FIRST-LINE`];
  for (let line = 1; line < 70; line += 1) lines.push(`file ${index} line ${line} `.padEnd(60, '.'));
  return lines.join('\n');
}

describe('trimmed resume (e2e)', () => {
  test('a spill file the resumed session points at can be read by its first tool call, whole', async () => {
    const script = (request: FakeRequest): FakeResponse => {
      if (request.thread !== MAIN_THREAD) return message([text('no subagents here')]);
      const last = lastUserText(request);
      const body = JSON.stringify(request.body);
      if (last.includes('Read every file') && request.turn === 0) {
        return message(
          Array.from({ length: FILES }, (_, index) =>
            toolUse('Read', { file_path: join(scratch.workspace, `big-${index}.txt`) }),
          ),
        );
      }
      if (last.includes('Open the oldest archived result') && !body.includes('ARCHIVE-READ')) {
        const path = SPILL_PATH.exec(body)?.[0];
        if (path === undefined) return message([text('no pointer in the resumed context')]);
        return message([text('ARCHIVE-READ'), toolUse('Read', { file_path: path })]);
      }
      return message([text('Done.')]);
    };
    const { server, scratch, runtime: runtimeWith } = await setUp(script);
    for (let index = 0; index < FILES; index += 1) {
      writeFileSync(join(scratch.workspace, `big-${index}.txt`), fileText(index));
    }
    const spec = agentSpec({ name: 'work', instructions: '', allowedTools: ['Read'] });

    const first = await runtimeWith({ trim: true }).run(spec, 'Read every file, please.');
    expect(first.error).toBeNull();
    const resumed = await runtimeWith({ trim: true }).run(spec, 'Open the oldest archived result.', {
      resume: first.sessionId,
    });
    expect(resumed.error).toBeNull();

    const opening = server.calls.find((call) => lastUserText(call).includes('Open the oldest archived'));
    const pointed = SPILL_PATH.exec(JSON.stringify(opening?.body))?.[0];
    expect(pointed).toBeDefined();
    const after = server.calls.find((call) => JSON.stringify(call.body).includes('ARCHIVE-READ'));
    const results = JSON.stringify(after?.body.messages?.at(-1));
    // Claude Code stores parallel results in the order they finish, so which file was oldest varies: the
    // result must be one whole file, numbered twice (Read of a file that holds a numbered Read), not an error.
    const file = /MARKER-(\d+)-FIRST-LINE/.exec(results)?.[1];
    expect(file).toBeDefined();
    // JSON escapes the tabs: `\\t` is a backslash and a t.
    expect(results).toContain(`1\\t1\\tMARKER-${file}-FIRST-LINE`);
    expect(results).toContain(`file ${file} line 69`);
    expect(results).not.toMatch(/does not exist|ENOENT/);
  }, 120_000);
});
