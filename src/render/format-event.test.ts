import picocolors from 'picocolors';
import { describe, expect, test } from 'vitest';
import type { FlowerEvent } from '../events/flower-event.js';
import { displayWidth } from './display-width.js';
import {
  formatEvent,
  formatStatusLine,
  formatStepHeader,
  tildePath,
  type FormatOptions,
  type RenderState,
} from './format-event.js';

const plain: FormatOptions = { verbose: false, width: 60, colors: picocolors.createColors(false) };
const verbose: FormatOptions = { ...plain, verbose: true };
const state: RenderState = { contextTokens: 36_849, totalUsd: 0.1234, elapsedS: 7 };
const main = { at: 0, step: 'ad-hoc', subagent: false, parentToolUseId: null };
const sub = { ...main, subagent: true, parentToolUseId: 'toolu_agent' };

function lines(event: FlowerEvent, options = plain): string[] {
  return formatEvent(event, state, options);
}

describe('formatStatusLine', () => {
  test('shows context, total with two decimals and elapsed', () => {
    expect(formatStatusLine(state, plain)).toBe('  - context 36.8K · total $0.12 · 0:07');
  });

  test('leaves context out while it is unknown', () => {
    expect(formatStatusLine({ ...state, contextTokens: 0 }, plain)).toBe('  - total $0.12 · 0:07');
  });
});

describe('formatEvent', () => {
  test('wraps main text at a two-space indent and follows it with the status line', () => {
    expect(lines({ ...main, kind: 'text', text: 'The file is created.' })).toEqual([
      '  The file is created.',
      '  - context 36.8K · total $0.12 · 0:07',
    ]);
  });

  test('shows subagent text only with -v, under the gutter', () => {
    const event: FlowerEvent = { ...sub, kind: 'text', text: 'sub prose' };
    expect(lines(event)).toEqual([]);
    expect(lines(event, verbose)).toEqual(['  | sub prose']);
  });

  test('shows main thinking with a tilde and never subagent thinking', () => {
    expect(lines({ ...main, kind: 'thinking', text: 'hmm' })).toEqual(['  ~ hmm']);
    expect(lines({ ...sub, kind: 'thinking', text: 'hmm' }, verbose)).toEqual([]);
  });

  test('shows one line per tool call with its argument on one line', () => {
    expect(
      lines({ ...main, kind: 'tool_call', text: 'echo a\necho b', tool: 'Bash', id: 't', input: {} }),
    ).toEqual(['  * Bash echo a echo b']);
    expect(lines({ ...sub, kind: 'tool_call', text: '/x', tool: 'Read', id: 't', input: {} })).toEqual([
      '  | * Read /x',
    ]);
  });

  test('cuts a long tool argument after its last whole word that fits, and never cuts a path', () => {
    const call = (text: string): FlowerEvent => ({
      ...main,
      kind: 'tool_call',
      text,
      tool: 'Bash',
      id: 't',
      input: {},
    });
    const [command] = lines(call(`npm test -- ${'word '.repeat(30)}end`));
    expect(command).toBe(`  * Bash npm test --${' word'.repeat(7)} ...`);
    expect(displayWidth(command ?? '')).toBeLessThanOrEqual(60);
    const path = `/home/someone/work/${'deep/'.repeat(12)}file.ts`;
    expect(lines(call(path))).toEqual([`  * Bash ${path}`]);
  });

  test('shows an Agent call as a dispatch line with type and description', () => {
    const event: FlowerEvent = {
      ...main,
      kind: 'tool_call',
      text: 'write tests',
      tool: 'Agent',
      id: 't',
      input: { subagent_type: 'coder', description: 'write tests\nfor the parser' },
    };
    expect(lines(event)).toEqual(['  > dispatch coder write tests for the parser']);
  });

  test('shows failed tool results in red and others only with -v', () => {
    const failed: FlowerEvent = {
      ...main,
      kind: 'tool_result',
      text: 'Exit code 2\nboom',
      toolUseId: 't',
      tool: 'Bash',
      isError: true,
    };
    expect(lines(failed)).toEqual(['  x Exit code 2', '    boom']);
    const fine: FlowerEvent = { ...failed, isError: false, text: 'ok' };
    expect(lines(fine)).toEqual([]);
    expect(lines(fine, verbose)).toEqual(['    ok']);
  });

  test('shows errors with an exclamation mark', () => {
    expect(
      lines({ ...main, kind: 'error', text: 'API Error: 529', synthetic: true, errorKind: 'overloaded' }),
    ).toEqual(['  ! API Error: 529']);
  });

  test('shows a question with numbered options, and the quota left only when there is a quota', () => {
    const ask = {
      at: 0,
      step: 'clarify',
      kind: 'ask' as const,
      id: 'q1',
      question: 'Which zone?',
      askedAt: 0,
    };
    expect(lines({ ...ask, text: 'Which zone?', options: ['UTC', 'local'], remaining: 2 })).toEqual([
      '',
      '  ? Which zone?',
      '     1) UTC',
      '     2) local',
      '     (2 questions left)',
    ]);
    expect(lines({ ...ask, text: 'Which zone?', options: [], remaining: -1 })).toEqual([
      '',
      '  ? Which zone?',
    ]);
  });

  test('shows a result line with turns, four-decimal cost and elapsed, then the status line', () => {
    const event: FlowerEvent = {
      ...main,
      kind: 'result',
      text: 'success',
      sessionId: 's',
      costUsd: 0.0123,
      numTurns: 3,
      isError: false,
      subtype: 'success',
      errors: [],
    };
    expect(lines(event)).toEqual([
      '  + done 3 turns · $0.0123 · elapsed 0:07',
      '  - context 36.8K · total $0.12 · 0:07',
    ]);
    expect(lines({ ...event, isError: true })[0]).toBe('  x failed 3 turns · $0.0123 · elapsed 0:07');
  });

  test('removes control sequences from model text', () => {
    expect(lines({ ...main, kind: 'text', text: 'hi\x1b]0;title\x07 \x1b[2Jthere' })[0]).toBe('  hi there');
  });

  test('shows nothing for context, cost and system events', () => {
    expect(lines({ ...main, kind: 'system', text: 'init', subtype: 'init', data: {} }, verbose)).toEqual([]);
    expect(lines({ at: 0, step: null, kind: 'cost', text: '', usd: 1, stepUsd: 1, runUsd: 1 })).toEqual([]);
  });

  test('colours by speaker when colour is on', () => {
    const colored: FormatOptions = { ...plain, colors: picocolors.createColors(true) };
    expect(lines({ ...main, kind: 'error', text: 'x', synthetic: true, errorKind: null }, colored)[0]).toBe(
      '\x1b[31m  ! x\x1b[39m',
    );
  });
});

describe('formatStepHeader', () => {
  test('fills the bar to the width and shows the position', () => {
    const [, header] = formatStepHeader('work', 3, 3, null, plain);
    expect(header).toBe(`== work ${'='.repeat(60 - 4 - 3 - 6)} 3/3`);
  });
});

describe('tildePath', () => {
  test('shows the home directory as ~', () => {
    expect(tildePath('/home/me/p/notes.md', '/home/me')).toBe('~/p/notes.md');
    expect(tildePath('/home/meow/x', '/home/me')).toBe('/home/meow/x');
  });
});
