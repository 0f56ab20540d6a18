// The help a person reads from the built CLI: every subcommand lists the global options it accepts, `setup`
// names the file it really writes (from the environment, not a fixed `~/.config`), and `FLOWER_LANG=zh`
// gives the help in Chinese.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import { FLOWER_CLI } from './support/flower-process.js';

let scratch: string | null = null;

afterEach(() => {
  if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  scratch = null;
});

async function help(args: string[], extra: Record<string, string> = {}): Promise<string> {
  scratch ??= realpathSync(mkdtempSync(join(tmpdir(), 'flower-help-e2e-')));
  const run = await execa('node', [FLOWER_CLI, ...args], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: scratch, FLOWER_NO_UPDATE: '1', ...extra },
    extendEnv: false,
    cwd: scratch,
    reject: false,
    timeout: 30_000,
  });
  expect(run.exitCode, String(run.stderr)).toBe(0);
  return String(run.stdout);
}

describe('flower help (e2e)', () => {
  test('flower once --help lists the global options', async () => {
    const text = await help(['once', '--help']);
    expect(text).toContain('Global Options:');
    expect(text).toMatch(/-w, --workspace <dir> +agent working directory/);
    expect(text).toMatch(/-v, --verbose +show subagent text/);
  });

  test('flower setup --help shows the path setup writes', async () => {
    expect(await help(['setup', '--help'])).toContain('~/.config/flower/.env');
    const elsewhere = await help(['setup', '--help'], { XDG_CONFIG_HOME: '/srv/xdg' });
    expect(elsewhere.replace(/\s+/g, ' ')).toContain('/srv/xdg/flower/.env');
    expect(elsewhere).not.toContain('~/.config/flower/.env');
  });

  test('FLOWER_LANG=zh flower --help is in Chinese', async () => {
    const text = await help(['--help'], { FLOWER_LANG: 'zh' });
    expect(text).toMatch(/^用法: flower /);
    expect(text).toContain('命令:');
    expect(text).toContain('运行单个代理一次');
    expect(text).not.toContain('Run a single agent once');
    const once = await help(['once', '--help'], { FLOWER_LANG: 'zh' });
    expect(once).toContain('全局选项:');
    expect(once).toContain('代理的工作目录');
  });
});
