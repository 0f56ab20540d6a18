import { describe, expect, test } from 'vitest';
import { colorWanted } from './color-wanted.js';

const terminal = { isTTY: true };
const pipe = {};

describe('colorWanted', () => {
  test('colours a terminal and not a pipe when the environment says nothing', () => {
    expect(colorWanted(terminal, {})).toBe(true);
    expect(colorWanted(pipe, {})).toBe(false);
  });

  test('NO_COLOR (any non-empty value) and TERM=dumb turn colour off, even on a terminal', () => {
    expect(colorWanted(terminal, { NO_COLOR: '1' })).toBe(false);
    expect(colorWanted(terminal, { NO_COLOR: 'false' })).toBe(false);
    expect(colorWanted(terminal, { NO_COLOR: '' })).toBe(true);
    expect(colorWanted(terminal, { TERM: 'dumb' })).toBe(false);
    expect(colorWanted(terminal, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
  });

  test('FORCE_COLOR colours a pipe, except FORCE_COLOR=0, which keeps a terminal plain', () => {
    expect(colorWanted(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorWanted(terminal, { FORCE_COLOR: '0' })).toBe(false);
  });
});
