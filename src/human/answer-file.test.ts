import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  answerFilePath,
  appendAnswer,
  parseAnswerLine,
  watchAnswers,
  type FiledAnswer,
} from './answer-file.js';
import { HumanChannel } from './human-channel.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function runDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flower-answers-'));
  dirs.push(dir);
  return dir;
}

describe('the answer file', () => {
  test('delivers answers appended after the watch began, in order, and none from before', () => {
    const runDir = runDirectory();
    appendAnswer(runDir, { askId: 'q1', text: 'from an earlier process' });
    const delivered: FiledAnswer[] = [];
    const watch = watchAnswers(runDir, (answer) => delivered.push(answer));
    try {
      appendAnswer(runDir, { askId: 'q1', text: 'Standard input' });
      appendAnswer(runDir, { askId: 'q2', text: 'yes' });
      watch.check();
      expect(delivered).toEqual([
        { askId: 'q1', text: 'Standard input' },
        { askId: 'q2', text: 'yes' },
      ]);
      // A line still being written waits for its newline; a line that is not an answer is passed over.
      appendFileSync(answerFilePath(runDir), 'not json\n{"askId":"q3","te');
      watch.check();
      expect(delivered).toHaveLength(2);
      appendFileSync(answerFilePath(runDir), 'xt":"no"}\n');
      watch.check();
      expect(delivered[2]).toEqual({ askId: 'q3', text: 'no' });
    } finally {
      watch.close();
    }
    expect(statSync(answerFilePath(runDir)).mode & 0o777).toBe(0o600);
  });

  test('reaches a waiting question the way a typed answer does', async () => {
    const runDir = runDirectory();
    const channel = new HumanChannel({ timeoutS: 30 });
    const watch = watchAnswers(runDir, (answer) => channel.answer(answer.askId, answer.text));
    try {
      const asking = channel.ask('Which colour?', { options: ['red', 'blue'] });
      const [pending] = channel.pending();
      appendAnswer(runDir, { askId: pending!.id, text: 'blue' });
      // The watcher's own change notice delivers it: no explicit check.
      const ask = await asking;
      expect(ask).toMatchObject({ state: 'answered', answer: 'blue' });
    } finally {
      watch.close();
    }
  });

  test('parseAnswerLine takes only whole answers', () => {
    expect(parseAnswerLine('{"askId":"q1","text":"a"}')).toEqual({ askId: 'q1', text: 'a' });
    expect(parseAnswerLine('{"askId":"q1"}')).toBeNull();
    expect(parseAnswerLine('[1]')).toBeNull();
    expect(parseAnswerLine('')).toBeNull();
  });
});
