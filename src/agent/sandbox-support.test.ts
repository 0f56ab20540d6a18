import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { probeSandboxSupport, sandboxSupport } from './sandbox-support.js';

const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * A PATH folder holding stand-ins for `bwrap` and `socat` that write their name to `calls.log` and end as
 * told. The probe runs them with this folder as the whole PATH, so nothing else on the machine is used.
 */
function fakeTools(bwrap: { exit: number; stderr?: string }): { path: string; calls: () => string[] } {
  const folder = mkdtempSync(join(tmpdir(), 'flower-sandbox-support-'));
  folders.push(folder);
  const log = join(folder, 'calls.log');
  writeFileSync(log, '');
  const script = (name: string, exit: number, stderr = ''): void => {
    const file = join(folder, name);
    const complaint = stderr === '' ? '' : `echo '${stderr}' >&2\n`;
    writeFileSync(file, `#!/bin/sh\necho ${name} >> '${log}'\n${complaint}exit ${exit}\n`);
    chmodSync(file, 0o755);
  };
  script('bwrap', bwrap.exit, bwrap.stderr);
  script('socat', 0);
  return { path: folder, calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).sort() };
}

describe('probeSandboxSupport', () => {
  test('gives the answer the blocking probe gives: available, refused with its reason, or not installed', async () => {
    const working = fakeTools({ exit: 0 });
    const refused = fakeTools({ exit: 1, stderr: 'setting up uid map: Permission denied' });
    const refusedToo = fakeTools({ exit: 1, stderr: 'setting up uid map: Permission denied' });
    await expect(probeSandboxSupport(working.path)).resolves.toEqual({ available: true });
    const answer = await probeSandboxSupport(refused.path);
    expect(answer).toEqual({
      available: false,
      reason: 'bubblewrap cannot run here: setting up uid map: Permission denied',
    });
    expect(sandboxSupport(refusedToo.path)).toEqual(answer);
    await expect(probeSandboxSupport('/nonexistent-flower-path-ahead')).resolves.toEqual(
      sandboxSupport('/nonexistent-flower-path'),
    );
    await expect(probeSandboxSupport('/usr/bin:/bin', 'darwin')).resolves.toMatchObject({
      available: false,
    });
  });

  test('leaves its answer where the runtime reads it, so the trials run once per PATH', async () => {
    const tools = fakeTools({ exit: 0 });
    const [first, second] = await Promise.all([
      probeSandboxSupport(tools.path),
      probeSandboxSupport(tools.path),
    ]);
    expect(first).toEqual({ available: true });
    expect(second).toEqual(first);
    expect(sandboxSupport(tools.path)).toEqual(first);
    expect(tools.calls()).toEqual(['bwrap', 'socat']);
  });
});
