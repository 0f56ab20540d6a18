import { describe, expect, test } from 'vitest';

import { closedPortUrl } from './closed-port.js';

describe('closedPortUrl', () => {
  test('returns a loopback URL that refuses connections', async () => {
    const url = await closedPortUrl();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const failure = await fetch(url).then(
      () => null,
      (error: unknown) => error,
    );
    expect((failure as { cause?: { code?: string } } | null)?.cause?.code).toBe('ECONNREFUSED');
  });
});
