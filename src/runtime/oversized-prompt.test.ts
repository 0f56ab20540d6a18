import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fitPrompt, PROMPT_LIMIT_CHARS, SAVED_LINE_CHARS, saveForReading } from './oversized-prompt.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-oversized-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('oversized prompts', () => {
  test('a prompt that fits one message is sent as it is, and nothing is written', () => {
    const prompt = 'x'.repeat(PROMPT_LIMIT_CHARS);
    expect(fitPrompt(prompt, { folder: dir, name: 'work' })).toBe(prompt);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a longer one is saved whole and replaced by a pointer that says how to read it in parts', () => {
    const words = Array.from({ length: 30_000 }, (_, index) => `w${index}`);
    const sent = fitPrompt(words.join(' '), { folder: join(dir, 'notes'), name: 'work/1' });
    const [file] = readdirSync(join(dir, 'notes'));
    expect(file).toMatch(/^prompt-work-1-\d+\.md$/);
    const path = join(dir, 'notes', file ?? '');
    expect(sent).toContain(
      `saved in full at ${path}. Read it in parts with the Read tool: offset 1 and limit 100`,
    );
    expect(sent.length).toBeLessThan(1_000);
    expect(readFileSync(path, 'utf8').split(/\s+/).filter(Boolean)).toEqual(words);
  });

  test('long lines are folded at a space, or cut when there is none, so Read shows every character', () => {
    const path = join(dir, 'request.md');
    const spaced = Array.from({ length: 300 }, () => 'abcd').join(' ');
    const solid = 'z'.repeat(1_200);
    const lines = saveForReading(path, `${spaced}\nshort\n${solid}`);
    const saved = readFileSync(path, 'utf8').split('\n').slice(0, -1);
    expect(lines).toBe(saved.length);
    expect(Math.max(...saved.map((line) => line.length))).toBeLessThanOrEqual(SAVED_LINE_CHARS);
    expect(saved).toContain('short');
    expect(saved.join(' ')).toContain(spaced);
    expect(saved.filter((line) => line.startsWith('z')).join('')).toBe(solid);
  });
});
