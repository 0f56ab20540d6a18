import { describe, expect, test } from 'vitest';
import { BULKY, HANDS_ON, matchesTool, SPILL_TOOLS } from './tool-groups.js';

describe('tool groups', () => {
  test('name the hands-on and bulky tools', () => {
    expect(HANDS_ON).toBe('Bash|Write|Edit|NotebookEdit');
    expect(BULKY).toBe('Bash|Read|Grep|Glob|WebFetch|WebSearch');
  });

  test('SPILL_TOOLS takes the bulky tools, Agent and MCP tools except the human channel', () => {
    for (const name of [
      'Bash',
      'Read',
      'Grep',
      'Glob',
      'WebFetch',
      'WebSearch',
      'Agent',
      'mcp__fw__big_dump',
    ]) {
      expect(matchesTool(SPILL_TOOLS, name), name).toBe(true);
    }
    for (const name of [
      'Write',
      'Edit',
      'TodoWrite',
      'mcp__human__ask',
      'mcp__human__inbox',
      'BashOutput',
      'xRead',
    ]) {
      expect(matchesTool(SPILL_TOOLS, name), name).toBe(false);
    }
  });
});

describe('matchesTool', () => {
  test('reads a plain list as exact names', () => {
    expect(matchesTool('Write|Edit', 'Edit')).toBe(true);
    expect(matchesTool('Write|Edit', 'NotebookEdit')).toBe(false);
  });

  test('matches everything when empty or *', () => {
    expect(matchesTool('', 'Anything')).toBe(true);
    expect(matchesTool('*', 'Anything')).toBe(true);
  });

  test('reads anything else as a regular expression, an invalid one matching nothing', () => {
    expect(matchesTool('mcp__.*', 'mcp__fw__x')).toBe(true);
    expect(matchesTool('^mcp__(', 'mcp__fw__x')).toBe(false);
  });
});
