import { describe, expect, test } from 'vitest';
import { CREDENTIAL_KEYS } from '../config/known-keys.js';
import { bashSandbox } from './bash-sandbox.js';
import { sandboxSupport } from './sandbox-support.js';

describe('bashSandbox', () => {
  test('scrubs every credential variable and lets no command run outside the sandbox', () => {
    const settings = bashSandbox();
    expect(settings.enabled).toBe(true);
    expect(settings.allowUnsandboxedCommands).toBe(false);
    expect(settings.credentials?.envVars?.map((entry) => entry.name)).toEqual([...CREDENTIAL_KEYS]);
    expect(settings.credentials?.envVars?.every((entry) => entry.mode === 'deny')).toBe(true);
  });

  test('without write roots, writes and the network stay open', () => {
    const settings = bashSandbox();
    expect(settings.filesystem).toEqual({ disabled: true });
    expect(settings.network?.allowedDomains).toEqual(['*']);
  });

  test('with write roots, writes are limited to them minus the walled paths', () => {
    const settings = bashSandbox({ writeRoots: ['/repo/.claude/worktrees'], denyWrite: ['/repo/src'] });
    expect(settings.filesystem).toEqual({
      allowWrite: ['/repo/.claude/worktrees'],
      denyWrite: ['/repo/src'],
    });
  });
});

describe('sandboxSupport', () => {
  test('is unavailable, with the package to install, when bwrap is not on the PATH', () => {
    expect(sandboxSupport('/nonexistent-flower-path')).toEqual({
      available: false,
      reason: expect.stringMatching(/apt-get install bubblewrap/) as unknown,
    });
  });

  test('is unavailable off Linux', () => {
    expect(sandboxSupport('/usr/bin:/bin', 'darwin')).toMatchObject({ available: false });
  });
});
