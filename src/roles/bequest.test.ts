import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  BEQUEST_BEGIN,
  BEQUEST_DEGRADED_MARKER,
  BEQUEST_END,
  Bequest,
  bequestPrompt,
  managedBlock,
  type BequestFields,
} from './bequest.js';

const FULL: Required<BequestFields> = {
  what: 'A date CLI for shell scripts; the run built and tested it.',
  acceptance: '- Met: prints ISO dates.\n- Not met: no Windows build.',
  generated: '- `src/version.ts` from `package.json` by `scripts/stamp.sh`',
  deadends: '- `date -d` parsing: not portable to BSD.',
  workbench: 'Read `.flower/notes/brief.md` first; reports in `.flower/artifacts/`.',
};

const parseCases: Array<{ name: string; text: string; expected: BequestFields }> = [
  {
    name: 'English headings',
    text: `## What\n${FULL.what}\n## Acceptance\n${FULL.acceptance}\n## Generated\n${FULL.generated}\n## Dead ends\n${FULL.deadends}\n## Workbench\n${FULL.workbench}`,
    expected: FULL,
  },
  {
    name: 'Chinese headings',
    text: '## 是什么\n日期工具\n## 验收\n达成\n## 生成的文件\n无\n## 走不通的路\n无\n## 工作台\n先读 notes',
    expected: {
      what: '日期工具',
      acceptance: '达成',
      generated: '无',
      deadends: '无',
      workbench: '先读 notes',
    },
  },
  {
    name: 'pasted code with fake headings',
    text: '## What\nw\n```md\n## Workbench\nfake\n```\n## Workbench\nreal',
    expected: { what: 'w', workbench: 'real' },
  },
  {
    name: 'an unclosed fence, which drops the rest',
    text: '## What\nw\n```\n## Workbench\nlost',
    expected: { what: 'w' },
  },
  {
    name: 'body lines that start with a section name (decisions.md D109)',
    text: '## What\nWhat it does: prints dates.\nWorkbench: see below.\n## Workbench\nw',
    expected: { what: 'What it does: prints dates.\nWorkbench: see below.', workbench: 'w' },
  },
];

describe('Bequest', () => {
  test.each(parseCases)('parses $name', ({ text, expected }) => {
    expect(Bequest.parse(text)).toEqual(new Bequest(expected));
  });

  test.each([
    { fields: FULL, missing: [] },
    { fields: { what: 'w', workbench: 'b' }, missing: [] },
    { fields: { what: 'w', acceptance: 'a', generated: 'g', deadends: 'd' }, missing: ['Workbench'] },
    { fields: {}, missing: ['What', 'Workbench'] },
  ])('requires what and workbench: $missing', ({ fields, missing }) => {
    const bequest = new Bequest(fields);
    expect(bequest.missing()).toEqual(missing);
    expect(bequest.complete()).toBe(missing.length === 0);
  });

  test.each([
    { name: 'a full bequest', fields: FULL },
    { name: 'a bequest with only the required sections', fields: { what: 'w', workbench: 'b' } },
  ])('round-trips $name through toMarkdown and parse', ({ fields }) => {
    const bequest = new Bequest(fields);
    expect(Bequest.parse(bequest.toMarkdown())).toEqual(bequest);
  });

  test('leaves empty sections out of its Markdown, which every future session loads', () => {
    expect(new Bequest({ what: 'w', workbench: 'b' }).toMarkdown()).toBe(
      '## Where flower left this project\n\n### What\n\nw\n\n### Workbench\n\nb\n',
    );
  });

  test('builds a degraded bequest: marker, the requirement in one line, a workbench pointer', () => {
    const bequest = Bequest.degraded('Build a date CLI\nfor scripts.', '/ws/.flower');
    expect(bequest.degraded).toBe(true);
    expect(bequest.complete()).toBe(true);
    expect(bequest.what).toBe(`${BEQUEST_DEGRADED_MARKER} The run worked on: Build a date CLI for scripts.`);
    expect(bequest.workbench).toContain('/ws/.flower');
    expect(Bequest.parse(bequest.toMarkdown()).degraded).toBe(true);
    expect(Bequest.degraded('x'.repeat(500), '/w').what.length).toBeLessThan(300);
  });

  describe('managedBlock', () => {
    test.each([
      { name: 'one ordered pair', text: `a\n${BEQUEST_BEGIN}\nbody\n${BEQUEST_END}\nz`, inner: '\nbody\n' },
      {
        name: 'a begin marker with another note',
        text: '<!-- flower:begin old note -->x<!--flower:end-->',
        inner: 'x',
      },
      { name: 'no markers', text: 'just text', inner: null },
      { name: 'a begin marker only', text: `${BEQUEST_BEGIN}\nbody`, inner: null },
      { name: 'an end marker only', text: `body\n${BEQUEST_END}`, inner: null },
      { name: 'reversed markers', text: `${BEQUEST_END}\nbody\n${BEQUEST_BEGIN}`, inner: null },
      {
        name: 'two begin markers and one end',
        text: `${BEQUEST_BEGIN}a${BEQUEST_BEGIN}b${BEQUEST_END}`,
        inner: null,
      },
      {
        name: 'two pairs',
        text: `${BEQUEST_BEGIN}a${BEQUEST_END}\n${BEQUEST_BEGIN}b${BEQUEST_END}`,
        inner: null,
      },
    ])('finds $name', ({ text, inner }) => {
      expect(managedBlock(text)?.inner ?? null).toBe(inner);
    });
  });

  describe('load', () => {
    let directory: string;
    beforeEach(() => {
      directory = mkdtempSync(join(tmpdir(), 'flower-bequest-'));
    });
    afterEach(() => {
      rmSync(directory, { recursive: true, force: true });
    });

    test('reads only the managed block of a file that has one', () => {
      const path = join(directory, 'CLAUDE.md');
      const bequest = new Bequest({ what: 'w', workbench: 'b' });
      writeFileSync(
        path,
        `## What\nthe user's own section\n\n${BEQUEST_BEGIN}\n${bequest.toMarkdown()}${BEQUEST_END}\n`,
      );
      expect(Bequest.load(path)).toEqual(bequest);
      expect(Bequest.load(join(directory, 'absent.md'))).toBeNull();
    });
  });
});

describe('bequestPrompt', () => {
  const prompt = bequestPrompt({ workbench: '.flower' });

  test.each([
    { what: 'that it goes into both files', text: 'CLAUDE.md and AGENTS.md' },
    { what: 'to read the workbench first', text: 'First read the workbench (.flower)' },
    { what: 'the unmet criteria above all', text: 'above all, which are not' },
    { what: 'why generated files matter', text: 'silently overwritten' },
    { what: 'the required sections', text: '"What" and "Workbench" are required' },
    { what: 'pointers in a few dozen lines', text: 'A few dozen lines in all' },
    { what: 'headings (decisions.md D109)', text: 'No line of the body may start with a section name' },
    { what: 'not to create the files', text: 'Do not create or edit CLAUDE.md or AGENTS.md' },
  ])('states $what', ({ text }) => {
    expect(prompt).toContain(text);
  });

  test('asks for the five sections in order', () => {
    expect(prompt.split('\n').filter((line) => line.startsWith('## '))).toEqual([
      '## What',
      '## Acceptance',
      '## Generated',
      '## Dead ends',
      '## Workbench',
    ]);
    expect(bequestPrompt()).toContain('First read the workbench:');
  });
});
