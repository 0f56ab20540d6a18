import { describe, expect, test } from 'vitest';
import { scratchEnvironment } from './scratch-environment.js';
import { scratchRuntimeOptions } from './scratch-runtime-options.js';

describe('scratchRuntimeOptions', () => {
  test('the scratch workspace, the scratch environment as the whole configuration, resilience off', async () => {
    const scratch = await scratchEnvironment({ baseUrl: 'http://127.0.0.1:9' });
    try {
      expect(scratchRuntimeOptions(scratch)).toEqual({
        workspace: scratch.workspace,
        config: { env: scratch.env },
        resilience: false,
      });
    } finally {
      await scratch.cleanup();
    }
  });
});
