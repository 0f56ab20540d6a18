import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { scratchEnvironment, TEST_API_KEY } from './scratch-environment.js';

describe('scratchEnvironment', () => {
  test('creates the scratch folders and an explicit child environment pointing at them', async () => {
    const scratch = await scratchEnvironment({ baseUrl: 'http://127.0.0.1:1234' });
    try {
      for (const dir of [scratch.home, scratch.configDir, scratch.workspace, scratch.tmp]) {
        expect(statSync(dir).isDirectory()).toBe(true);
        expect(dir.startsWith(scratch.dir)).toBe(true);
      }
      expect(scratch.workspace).toBe(join(scratch.dir, 'workspace'));
      expect(scratch.env).toEqual({
        PATH: expect.any(String) as unknown,
        HOME: scratch.home,
        LANG: 'C.UTF-8',
        NO_COLOR: '1',
        TMPDIR: scratch.tmp,
        CLAUDE_CODE_TMPDIR: scratch.tmp,
        CLAUDE_CONFIG_DIR: scratch.configDir,
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:1234',
        ANTHROPIC_API_KEY: TEST_API_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        CLAUDE_CODE_MAX_RETRIES: '2',
        API_TIMEOUT_MS: '10000',
        DISABLE_AUTO_COMPACT: '1',
        CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS: '1',
      });
      expect(scratch.env['PATH']).not.toBe('');
    } finally {
      await scratch.cleanup();
    }
    expect(existsSync(scratch.dir)).toBe(false);
  });

  test('uses a given key and leaves the base URL unset when none is given', async () => {
    const scratch = await scratchEnvironment({ apiKey: 'sk-ant-api-other' });
    await scratch.cleanup();
    expect(scratch.env['ANTHROPIC_API_KEY']).toBe('sk-ant-api-other');
    expect(scratch.env).not.toHaveProperty('ANTHROPIC_BASE_URL');
  });
});
