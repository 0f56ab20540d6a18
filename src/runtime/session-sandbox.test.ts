import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { sandboxSupport } from '../agent/sandbox-support.js';
import { describeEvent } from './describe-event.js';
import { mainCheckoutWall, sessionSandbox, unsandboxedWarning } from './session-sandbox.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('mainCheckoutWall', () => {
  test('walls every entry except the writable paths, walking into the folders that hold them', () => {
    const root = mkdtempSync(join(tmpdir(), 'flower-wall-'));
    made.push(root);
    for (const folder of [
      '.git/objects',
      '.claude/worktrees/agent-1',
      '.claude/agents',
      'src',
      'runs/tmp',
      'runs/claude',
    ])
      mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, 'README.md'), 'hi\n');
    writeFileSync(join(root, 'runs', 'sessions.db'), '');
    const writable = [join(root, '.git'), join(root, '.claude', 'worktrees'), join(root, 'runs', 'tmp')];

    expect(mainCheckoutWall(root, writable).sort()).toEqual(
      [
        join(root, '.claude', 'agents'),
        join(root, 'README.md'),
        join(root, 'runs', 'claude'),
        join(root, 'runs', 'sessions.db'),
        join(root, 'src'),
      ].sort(),
    );
  });
});

describe('unsandboxedWarning', () => {
  test('is a shell_not_sandboxed warning naming the reason when the sandbox cannot run', () => {
    const notice = unsandboxedWarning({ PATH: '/nonexistent-flower-path' });
    const warning = notice === null ? null : describeEvent(notice, 'en');
    expect(warning).toMatchObject({ kind: 'warning', code: 'shell_not_sandboxed', step: null });
    expect(notice?.detail).toMatch(/bubblewrap/);
    expect(warning?.text).toMatch(/unsandboxed/);
  });

  test('names FLOWER_SANDBOX when the setting turned the sandbox off, even where it could run', () => {
    const notice = unsandboxedWarning({ PATH: '/usr/bin:/bin' }, false);
    const warning = notice === null ? null : describeEvent(notice, 'en');
    expect(warning).toMatchObject({
      code: 'shell_not_sandboxed',
      detail: 'turned off by FLOWER_SANDBOX=off',
    });
    expect(warning?.text).toContain('FLOWER_SANDBOX=off');
  });
});

describe('sessionSandbox', () => {
  const context = {
    workspace: '/nonexistent-flower-workspace',
    runDir: '/nonexistent-flower-workspace/runs',
    env: { PATH: '/usr/bin:/bin' },
    workbench: null,
  };
  const spec = agentSpec({ name: 'shell', instructions: '', allowedTools: ['Bash'] });

  test('is none when the configuration turned it off', () => {
    expect(sessionSandbox({ ...context, sandbox: false }, spec)).toBeNull();
  });

  test('scrubs the credentials where the sandbox can run and nothing turned it off', () => {
    const sandbox = sessionSandbox(context, spec);
    if (sandboxSupport(context.env.PATH).available) {
      expect(sandbox?.credentials?.envVars?.map((entry) => entry.name)).toContain('ANTHROPIC_API_KEY');
    } else {
      expect(sandbox).toBeNull();
    }
  });
});
