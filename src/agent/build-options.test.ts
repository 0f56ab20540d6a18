import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { PLUGIN_DIR } from '../config/package-info.js';
import { agentSpec } from './agent-spec.js';
import { buildOptions } from './build-options.js';
import { CompactPolicy } from './compact-policy.js';

const baseEnv = {
  PATH: '/usr/bin',
  ANTHROPIC_API_KEY: 'sk-test',
  CLAUDE_CONFIG_DIR: '/home/me/.claude',
  TMPDIR: '/shell/tmp',
  DISABLE_AUTO_COMPACT: '1',
  CLAUDE_CODE_MAX_RETRIES: '10',
  API_TIMEOUT_MS: '1',
  UNSET: undefined,
};

describe('buildOptions', () => {
  test('asks for partial messages, the stall watchdog heartbeat during a long reply', () => {
    const options = buildOptions(agentSpec({ name: 'a', instructions: '' }), { baseEnv: {} });
    expect(options.includePartialMessages).toBe(true);
  });

  test('appends instructions to the claude_code preset and reads no settings files', () => {
    const options = buildOptions(agentSpec({ name: 'a', instructions: 'Answer in French.' }), { baseEnv });
    expect(options.systemPrompt).toEqual({
      type: 'preset',
      preset: 'claude_code',
      append: 'Answer in French.',
    });
    expect(options.settingSources).toEqual([]);
    expect(
      buildOptions(agentSpec({ name: 'a', instructions: '' }), { baseEnv, portable: false }).settingSources,
    ).toEqual(['project']);
  });

  test('strips owned variables from the base environment and sets its own under the run directory', () => {
    const options = buildOptions(agentSpec({ name: 'a', instructions: '' }), { baseEnv, runDir: '/r' });
    expect(options.env).toEqual({
      PATH: '/usr/bin',
      ANTHROPIC_API_KEY: 'sk-test',
      CLAUDE_CONFIG_DIR: join('/r', 'claude'),
      TMPDIR: join('/r', 'tmp'),
      CLAUDE_CODE_TMPDIR: join('/r', 'tmp'),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_MAX_RETRIES: '2',
      API_TIMEOUT_MS: '300000',
    });
  });

  test('turns nonessential traffic off unless the user set it', () => {
    const spec = agentSpec({ name: 'a', instructions: '' });
    expect(buildOptions(spec, { baseEnv }).env?.['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC']).toBe('1');
    const chosen = { ...baseEnv, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '0' };
    expect(buildOptions(spec, { baseEnv: chosen }).env?.['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC']).toBe(
      '0',
    );
    const viaSpec = agentSpec({
      name: 'a',
      instructions: '',
      env: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '' },
    });
    expect(buildOptions(viaSpec, { baseEnv }).env?.['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC']).toBe('');
  });

  test('ignores owned keys in spec.env with a warning and applies the compact policy', () => {
    const warning = vi.fn();
    {
      const spec = agentSpec({
        name: 'a',
        instructions: '',
        env: { FOO: 'bar', CLAUDE_CODE_MAX_RETRIES: '9' },
        compact: new CompactPolicy({ mode: 'no_summary' }),
      });
      const options = buildOptions(spec, {
        baseEnv,
        resilience: { cliMaxRetries: 0, apiTimeoutMs: 5000 },
        onWarning: warning,
      });
      expect(options.env).toMatchObject({
        FOO: 'bar',
        CLAUDE_CODE_MAX_RETRIES: '0',
        API_TIMEOUT_MS: '5000',
        DISABLE_AUTO_COMPACT: '1',
      });
      expect(warning).toHaveBeenCalledWith('owned_env_ignored', 'CLAUDE_CODE_MAX_RETRIES');
    }
  });

  test('passes tools, limits and resume options only when set', () => {
    const bare = buildOptions(agentSpec({ name: 'a', instructions: '' }), { baseEnv });
    for (const key of [
      'tools',
      'maxBudgetUsd',
      'maxTurns',
      'resume',
      'forkSession',
      'hooks',
      'model',
      'disallowedTools',
      'cwd',
    ]) {
      expect(bare).not.toHaveProperty(key);
    }
    const spec = agentSpec({
      name: 'a',
      instructions: '',
      tools: ['Bash'],
      allowedTools: ['Bash'],
      maxBudgetUsd: 0.5,
      maxTurns: 3,
    });
    const options = buildOptions(spec, { baseEnv, cwd: '/ws', resume: 'sid-1', fork: true });
    expect(options).toMatchObject({
      tools: ['Bash'],
      allowedTools: ['Bash'],
      maxBudgetUsd: 0.5,
      maxTurns: 3,
      cwd: '/ws',
      resume: 'sid-1',
      forkSession: true,
    });
  });

  test('warns and drops fork without resume', () => {
    const warning = vi.fn();
    const options = buildOptions(agentSpec({ name: 'a', instructions: '' }), {
      baseEnv,
      fork: true,
      onWarning: warning,
    });
    expect(options).not.toHaveProperty('forkSession');
    expect(warning).toHaveBeenCalledWith('resume_args_ignored', expect.any(String));
  });

  test('loads the packaged plugin directory unless usePlugin is false', () => {
    expect(existsSync(PLUGIN_DIR)).toBe(true);
    const spec = agentSpec({ name: 'a', instructions: '' });
    expect(buildOptions(spec, { baseEnv }).plugins).toEqual([{ type: 'local', path: PLUGIN_DIR }]);
    expect(buildOptions(spec, { baseEnv, usePlugin: false })).not.toHaveProperty('plugins');
  });
});
