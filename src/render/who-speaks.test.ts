// The renderer's speaker lines, Markdown and widths on a terminal-like stream and on a pipe: what a person
// reads when the judge, the oracle and the coordinator take turns inside one step header.
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { FlowerEvent } from '../events/flower-event.js';
import { displayWidth } from './display-width.js';
import { createTerminalRenderer } from './terminal-renderer.js';

type Stream = PassThrough & { isTTY?: boolean; columns?: number };

/** A stream that looks like a terminal of `columns` (or a pipe when null), and what was written to it. */
function screen(columns: number | null): { stream: Stream; lines: () => string[] } {
  const stream = new PassThrough() as Stream;
  if (columns !== null) {
    stream.isTTY = true;
    stream.columns = columns;
  }
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return { stream, lines: () => chunks.join('').split('\n') };
}

const at = { at: 0, subagent: false, parentToolUseId: null };
const step = (name: string): FlowerEvent => ({
  ...at,
  kind: 'step',
  step: name,
  text: name,
  name,
  index: 3,
  total: 4,
  resumed: false,
  woke: 1,
});
const said = (stepName: string, text: string): FlowerEvent => ({ ...at, kind: 'text', step: stepName, text });
const verdict: FlowerEvent = {
  at: 0,
  kind: 'verdict',
  step: 'work/verdict#1',
  text: 'NOT_YET: there is no README.md, so nothing shows how to run it.',
  round: 1,
  state: 'NOT_YET',
  reason: 'there is no README.md, so nothing shows how to run it.',
  failed: [],
};

async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('who speaks', () => {
  test('the coordinator, then the judge and its verdict, each under its own speaker line', async () => {
    const out = screen(60);
    const render = createTerminalRenderer({ output: out.stream, color: false });
    render(step('work'));
    render(said('work', 'Empty workspace. One worker can write it.'));
    render(said('work/verdict#1', 'Looking at the workspace.'));
    render(verdict);
    render(step('work#round2'));
    render(said('work#round2', 'The judge wants a README.'));
    await settle();
    const lines = out.lines();
    const coordinator = lines.indexOf('  [coordinator]');
    const judge = lines.indexOf('  [judge · round 1]');
    expect(coordinator).toBeGreaterThan(lines.findIndex((line) => line.startsWith('== work ')));
    expect(lines[coordinator + 1]).toBe('  Empty workspace. One worker can write it.');
    expect(judge).toBeGreaterThan(coordinator);
    expect(lines[judge + 1]).toBe('  Looking at the workspace.');
    // The verdict is said in the judge's name, after the judge's line and with no other speaker between.
    const verdictLine = lines.findIndex((line) =>
      line.startsWith('  = judge: NOT_YET: there is no README.md'),
    );
    expect(verdictLine).toBeGreaterThan(judge);
    expect(lines.slice(judge + 1, verdictLine).some((line) => line.startsWith('  ['))).toBe(false);
    // Continuation lines of the verdict are indented under its text.
    expect(lines[verdictLine + 1]).toMatch(/^ {4}\S/);
    // A new step header starts afresh: the coordinator is named again for round 2.
    expect(lines.lastIndexOf('  [coordinator]')).toBeGreaterThan(verdictLine);
  });

  test('a verdict on its own is attributed to the judge', async () => {
    const out = screen(null);
    createTerminalRenderer({ output: out.stream })(verdict);
    await settle();
    expect(out.lines().slice(0, 2)).toEqual([
      '  [judge · round 1]',
      '  = judge: NOT_YET: there is no README.md, so nothing shows how to run it.',
    ]);
  });

  test("the oracle's answer in the aside runtime is the oracle's", async () => {
    const out = screen(null);
    createTerminalRenderer({ output: out.stream })(said('aside', 'It is writing the README.'));
    await settle();
    expect(out.lines().slice(0, 2)).toEqual(['  [oracle]', '  It is writing the README.']);
  });

  test('the speaker line and the verdict in the zh catalogue', async () => {
    const out = screen(60);
    createTerminalRenderer({ output: out.stream, color: false, lang: 'zh' })(verdict);
    await settle();
    const lines = out.lines();
    expect(lines[0]).toBe('  [评审 · 第 1 轮]');
    expect(lines[1]).toMatch(/^ {2}= 评审.NOT_YET: there is no README\.md, so nothing shows$/);
    expect(lines[2]).toBe('    how to run it.');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });

  test('a step of a user workflow gets no speaker line, its judge does', async () => {
    const out = screen(null);
    const render = createTerminalRenderer({ output: out.stream });
    render(said('build', 'Built.'));
    render(said('build/verdict#1', 'Checked.'));
    await settle();
    expect(out.lines().filter((line) => line.startsWith('  ['))).toEqual(['  [judge · round 1]']);
  });
});

describe('Markdown from the model', () => {
  const markdown = '## Plan\n- write **wc.js**\n- run `node wc.test.js`';

  test('is drawn on a terminal: no ## or ** markers left, colour when asked for', async () => {
    const out = screen(60);
    createTerminalRenderer({ output: out.stream, color: true })(said('ad-hoc', markdown));
    await settle();
    const text = out.lines().join('\n');
    expect(text).toContain('\x1b[1m');
    expect(text).not.toContain('**');
    expect(text).toContain('wc.js');
  });

  test('honours NO_COLOR on a terminal: drawn, but without a single colour sequence', async () => {
    const out = screen(60);
    createTerminalRenderer({ output: out.stream, color: false })(said('ad-hoc', markdown));
    await settle();
    expect(out.lines().slice(0, 3)).toEqual(['  ## Plan', '  - write wc.js', '  - run `node wc.test.js`']);
    expect(out.lines().join('\n')).not.toContain('\x1b');
  });

  test('is written as the model wrote it when piped', async () => {
    const out = screen(null);
    createTerminalRenderer({ output: out.stream })(said('ad-hoc', markdown));
    await settle();
    expect(out.lines().slice(0, 3)).toEqual([
      '  ## Plan',
      '  - write **wc.js**',
      '  - run `node wc.test.js`',
    ]);
  });
});

describe('width', () => {
  const cjk = '工作区里已经有了计数程序和它的测试，但是还缺少一份说明文件，所以现在派一个工人去写它。';
  const path = `/tmp/flower-demo-vVAi5l/workspace/.flower/notes/${'handoff-'.repeat(6)}work.md`;

  test('wraps at word boundaries at 60 columns, CJK included, and never cuts or shortens a path', async () => {
    const out = screen(60);
    const render = createTerminalRenderer({ output: out.stream, color: false });
    const words = 'The coordinator writes a long sentence about the workspace and what comes next';
    render(said('work', `${words} ${cjk} Written to ${path} for later.`));
    render({ ...at, kind: 'tool_call', step: 'work', text: path, tool: 'Read', id: 't', input: {} });
    render({
      at: 0,
      kind: 'handoff',
      step: 'work',
      text: '',
      phase: 'done',
      context: 152_300,
      window: 200_000,
      threshold: 150_000,
      path,
      sections: { doing: words, decided: cjk, deadends: 'none yet', next: words },
    });
    render.print(`Total cost $0.2626 · manifest ${path} · 0:28`);
    render.print('It runs the whole go path: one clarifying question (answered for you), a frozen brief.');
    await settle();
    const lines = out.lines();
    const text = lines.join('\n');
    expect(text).not.toContain('...');
    for (const line of lines) {
      if (!line.includes(path)) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    }
    // Every word of the English text is whole on some line; the path is whole on its lines.
    for (const word of words.split(' '))
      expect(
        lines.some((line) => line.split(/\s+/).includes(word)),
        word,
      ).toBe(true);
    expect(lines.filter((line) => line.includes(path)).length).toBeGreaterThanOrEqual(4);
    // No line starts with closing CJK punctuation.
    expect(lines.some((line) => /^\s*[，。]/.test(line))).toBe(false);
  });

  test('writes nothing wrapped or cut into a pipe', async () => {
    const out = screen(null);
    const render = createTerminalRenderer({ output: out.stream });
    const long = `${'word '.repeat(40)}${cjk}`;
    render(said('ad-hoc', long));
    render({ ...at, kind: 'tool_call', step: 'ad-hoc', text: long, tool: 'Bash', id: 't', input: {} });
    render.print(`Total cost $0.2626 · manifest ${path} · 0:28 and more words after the path ${long}`);
    await settle();
    const lines = out.lines();
    expect(lines[0]).toBe(`  ${long.trim()}`);
    expect(lines).toContain(`  * Bash ${long.trim()}`);
    expect(lines).toContain(
      `Total cost $0.2626 · manifest ${path} · 0:28 and more words after the path ${long}`,
    );
  });
});
