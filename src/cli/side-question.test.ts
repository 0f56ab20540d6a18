import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readManifest } from '../runtime/manifest.js';
import { ScriptedBackend } from '../testing/scripted-backend.js';
import { scriptedTurn } from '../testing/scripted-turn.js';
import { answerLines, answerSideQuestion, failLine, printAside } from './side-question.js';

type Printed = Array<[string, string]>;

function collector(): { printed: Printed; print: (text: string, style?: string) => void } {
  const printed: Printed = [];
  return { printed, print: (text, style = 'plain') => printed.push([style, text]) };
}

describe('answerLines', () => {
  test('wraps each paragraph with a two-space indent and keeps one blank line between paragraphs', () => {
    const text = 'It is running the tests of the parser module right now.\n\n\n- two fail\n- one is flaky';
    expect(answerLines(text, 30)).toEqual([
      '  It is running the tests of',
      '  the parser module right now.',
      '',
      '  - two fail',
      '  - one is flaky',
    ]);
  });

  test('removes control sequences a model may write', () => {
    expect(answerLines('\u001b[2Jcleared \u001b[31mred\u001b[0m', 80)).toEqual(['  cleared red']);
  });

  test('gives no lines for an empty answer', () => {
    expect(answerLines('  \n ', 80)).toEqual([]);
  });
});

describe('failLine', () => {
  test('splits the failure into its kind and message at the first colon', () => {
    expect(failLine('error_max_turns: Reached maximum number of turns (12): stop', 'en')).toBe(
      '# Aside failed: error_max_turns: Reached maximum number of turns (12): stop',
    );
    expect(failLine('killed-by-signal', 'en')).toBe('# Aside failed: error: killed-by-signal');
  });
});

describe('printAside', () => {
  test('prints the head, the wrapped answer and the cost', () => {
    const { printed, print } = collector();
    printAside({ ok: true, text: 'Fixing parse.ts.', costUsd: 0.0312 }, print, { width: 80, lang: 'en' });
    expect(printed).toEqual([
      ['bold', '# Aside · the oracle answers'],
      ['plain', '  Fixing parse.ts.'],
      ['dim', '($0.0312, the running job was not disturbed)'],
    ]);
  });

  test('prints (no answer) for an empty answer, and only the failure line for a failure', () => {
    const empty = collector();
    printAside({ ok: true, text: '', costUsd: 0 }, empty.print, { width: 80, lang: 'zh' });
    expect(empty.printed.map(([, text]) => text)).toEqual([
      '# 旁路 · 答问者回答',
      '(没有答复)',
      '($0.0000,没有打扰正在进行的运行)',
    ]);
    const failed = collector();
    printAside({ ok: false, text: 'APIError: 529 overloaded', costUsd: 0 }, failed.print, {
      width: 80,
      lang: 'en',
    });
    expect(failed.printed).toEqual([['red', '# Aside failed: APIError: 529 overloaded']]);
  });
});

describe('answerSideQuestion', () => {
  let dir: string;

  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-side-question-')));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('asks with the window lines of the moment, prints the answer and resolves to it', async () => {
    const lines = ['[text·main] first'];
    const backend = new ScriptedBackend([scriptedTurn('aside-1', 'Still on the first step.')]);
    const { printed, print } = collector();
    const pending = answerSideQuestion('where is it?', {
      workspace: join(dir, 'ws'),
      runDir: join(dir, 'ws', 'runs'),
      recent: () => lines,
      print,
      backend,
      config: { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } },
    });
    // Said at once, before the oracle has answered.
    expect(printed).toEqual([['dim', '(asking…)']]);
    const answer = await pending;
    expect(answer.ok).toBe(true);
    expect(backend.requests[0]?.prompt).toContain('[text·main] first');
    expect(printed.map(([, text]) => text)).toEqual([
      '(asking…)',
      '# Aside · the oracle answers',
      '  Still on the first step.',
      '($0.0100, the running job was not disturbed)',
    ]);
    expect(readManifest(join(dir, 'ws', 'runs'))).toEqual([]);
    expect(readManifest(join(dir, 'ws', 'runs', 'aside'))).toHaveLength(1);
  });
});
