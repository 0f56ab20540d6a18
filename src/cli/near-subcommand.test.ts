import { describe, expect, test } from 'vitest';
import { editDistance, nearSubcommand } from './near-subcommand.js';

const commands = ['go', 'run', 'once', 'setup', 'help'];

describe('nearSubcommand', () => {
  test('catches a single word within two edits of a command', () => {
    expect(nearSubcommand('setpu', commands)).toBe('setup');
    expect(nearSubcommand('stup', commands)).toBe('setup');
    expect(nearSubcommand('onec', commands)).toBe('once');
    expect(nearSubcommand('Rnu', commands)).toBe('run');
  });

  test('lets real requests through', () => {
    expect(nearSubcommand('refactor the parser', commands)).toBeNull();
    expect(nearSubcommand('hi', commands)).toBeNull();
    expect(nearSubcommand('deploy', commands)).toBeNull();
    expect(nearSubcommand('-v', commands)).toBeNull();
  });

  test('needs fewer edits than the name is long, so go only catches one-letter slips', () => {
    expect(nearSubcommand('gp', commands)).toBe('go');
    expect(nearSubcommand('ox', commands)).toBeNull();
  });
});

describe('editDistance', () => {
  test('counts a swap of neighbours as one edit', () => {
    expect(editDistance('setpu', 'setup')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
