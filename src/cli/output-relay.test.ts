import { describe, expect, test } from 'vitest';
import { createOutputRelay } from './output-relay.js';

describe('createOutputRelay', () => {
  test('writes to the base, to a redirect target in order, and to the base again', () => {
    const base: string[] = [];
    const other: string[] = [];
    const relay = createOutputRelay({ write: (text) => base.push(text), isTTY: true, columns: 72 });
    relay.write('one\n');
    relay.redirect({ write: (text) => other.push(text) });
    relay.write('two\n');
    relay.write(Buffer.from('three\n'));
    relay.redirect(null);
    relay.write('four\n');
    expect(base).toEqual(['one\n', 'four\n']);
    expect(other).toEqual(['two\n', 'three\n']);
    // The terminal facts stay those of the base: the lines end up on that terminal.
    expect([relay.isTTY, relay.columns]).toEqual([true, 72]);
  });
});
