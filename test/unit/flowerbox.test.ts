/**
 * docker/flowerbox, the container wrapper, run for real with a fake `docker` first on PATH that records
 * every call (its arguments and the environment it was given): which keys reach the container, that no
 * value is ever on the command line, the mount, the TTY warning, the missing `.env` stop and the mount
 * probe outside `$HOME`. No container engine is needed.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseDotenv } from '../../src/config/dotenv-parser.js';
import { KNOWN_KEYS } from '../../src/config/known-keys.js';

const WRAPPER = fileURLToPath(new URL('../../docker/flowerbox', import.meta.url));

/** Records argv (NUL-separated) and the environment of each call; fails the probe when asked to. */
const FAKE_DOCKER = `#!/bin/sh
n=$(ls "$FAKE_DOCKER_LOG" | wc -l)
printf '%s\\0' "$@" > "$FAKE_DOCKER_LOG/call.$n.args"
env -0 > "$FAKE_DOCKER_LOG/call.$n.env"
case " $* " in *" --entrypoint test "*) [ -n "\${FAKE_PROBE_FAIL:-}" ] && exit 1 ;; esac
exit 0
`;

interface Call {
  args: string[];
  env: Record<string, string>;
}

let scratch: string;
let home: string;
let project: string;
let flowerHome: string;
let log: string;
let fakeBin: string;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'flowerbox-'));
  home = join(scratch, 'home');
  project = join(home, 'project');
  flowerHome = join(scratch, 'flower-home');
  log = join(scratch, 'log');
  fakeBin = join(scratch, 'bin');
  for (const folder of [project, flowerHome, log, fakeBin]) mkdirSync(folder, { recursive: true });
  writeFileSync(join(fakeBin, 'docker'), FAKE_DOCKER);
  chmodSync(join(fakeBin, 'docker'), 0o755);
});

afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function runWrapper(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): { status: number | null; stderr: string; calls: Call[] } {
  const run = spawnSync('sh', [WRAPPER, ...args], {
    cwd: options.cwd ?? project,
    encoding: 'utf8',
    env: {
      PATH: `${fakeBin}:/usr/bin:/bin`,
      HOME: home,
      FLOWER_HOME: flowerHome,
      FAKE_DOCKER_LOG: log,
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const calls = readdirSync(log)
    .filter((name) => name.endsWith('.args'))
    .sort((left, right) => Number(left.split('.')[1]) - Number(right.split('.')[1]))
    .map((name) => ({
      args: readFileSync(join(log, name), 'utf8').split('\0').slice(0, -1),
      env: Object.fromEntries(
        readFileSync(join(log, name.replace('.args', '.env')), 'utf8')
          .split('\0')
          .filter((line) => line.includes('='))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      ),
    }));
  return { status: run.status, stderr: run.stderr, calls };
}

/** The `-e` names of one docker call. */
function passedKeys(args: readonly string[]): string[] {
  return args.flatMap((arg, index) => (index > 0 && args[index - 1] === '-e' ? [arg] : []));
}

describe('flowerbox', () => {
  test('passes only known keys, by name, with the .env values; the shell wins; the folder is the mount', () => {
    writeFileSync(
      join(flowerHome, '.env'),
      [
        'export ANTHROPIC_API_KEY="sk-ant-from-file"',
        'ANTHROPIC_BASE_URL=http://gateway.example  # the team gateway',
        'ANTHROPIC_MODEL=model-from-file',
        'AWS_SECRET_ACCESS_KEY=never-passed',
        'DATABASE_URL=postgres://user:pw@db/x',
      ].join('\n'),
    );
    const { status, calls } = runWrapper(['go', 'build me a thing', '--timeout', '0'], {
      env: { ANTHROPIC_MODEL: 'model-from-shell', UNRELATED_SECRET: 'not-for-the-box' },
    });
    expect(status).toBe(0);
    expect(calls).toHaveLength(1);
    const [call] = calls as [Call];
    expect(call.args.slice(0, 3)).toEqual(['run', '-i', '--rm']);
    expect(call.args.slice(-9)).toEqual([
      '-v',
      `${project}:/project`,
      '-w',
      '/project',
      'flower-box',
      'go',
      'build me a thing',
      '--timeout',
      '0',
    ]);
    expect(passedKeys(call.args).sort()).toEqual(
      ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'HOME=/tmp'].sort(),
    );
    expect(call.env['ANTHROPIC_API_KEY']).toBe('sk-ant-from-file');
    expect(call.env['ANTHROPIC_BASE_URL']).toBe('http://gateway.example');
    expect(call.env['ANTHROPIC_MODEL']).toBe('model-from-shell');
    // Values travel by environment only: nothing secret is on a command line another user can read.
    expect(call.args.join(' ')).not.toContain('sk-ant-from-file');
    expect(call.args).not.toContain('UNRELATED_SECRET');
    expect(call.args).toContain('--user');
  });

  test('FLOWER_IMAGE picks the image; arguments with spaces and quotes arrive unchanged', () => {
    writeFileSync(join(flowerHome, '.env'), 'ANTHROPIC_AUTH_TOKEN=token\n');
    const args = ['once', 'it\'s "quoted" and spaced', '--timeout=0'];
    const { status, calls } = runWrapper(args, { env: { FLOWER_IMAGE: 'registry.example/flower:1' } });
    expect(status).toBe(0);
    const [call] = calls as [Call];
    expect(call.args.slice(-4)).toEqual(['registry.example/flower:1', ...args]);
  });

  test('without FLOWER_HOME/.env it uses the per-user .env; with neither it stops before docker', () => {
    const config = join(scratch, 'xdg');
    mkdirSync(join(config, 'flower'), { recursive: true });
    writeFileSync(join(config, 'flower', '.env'), 'ANTHROPIC_API_KEY=from-user-config\n');
    const found = runWrapper(['--version'], { env: { XDG_CONFIG_HOME: config } });
    expect(found.status).toBe(0);
    expect(found.calls[0]?.env['ANTHROPIC_API_KEY']).toBe('from-user-config');

    rmSync(log, { recursive: true });
    mkdirSync(log);
    const missing = runWrapper(['--version'], { env: { XDG_CONFIG_HOME: join(scratch, 'none') } });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(
      `Cannot find ${flowerHome}/.env (credentials). Point FLOWER_HOME=... at it.\n`,
    );
    expect(missing.calls).toHaveLength(0);
  });

  test('reads .env by the same rules as flower’s own parser', () => {
    const lines = [
      'ANTHROPIC_API_KEY=',
      'ANTHROPIC_API_KEY = spaced-value ',
      "ANTHROPIC_AUTH_TOKEN='single # not a comment'",
      'ANTHROPIC_BASE_URL="quoted" # comment after',
      'ANTHROPIC_MODEL=pa#ss',
      'ANTHROPIC_DEFAULT_OPUS_MODEL="unpaired',
      'ANTHROPIC_DEFAULT_SONNET_MODEL=a=b=c',
      '  export   ANTHROPIC_DEFAULT_HAIKU_MODEL=exported # c',
      '# CLAUDE_CODE_SUBAGENT_MODEL=commented',
      'CLAUDE_CODE_EFFORT_LEVEL\t=\thigh\r',
      'FLOWER_LANG=zh',
      'FLOWER_LANG=second-is-ignored',
    ];
    writeFileSync(join(flowerHome, '.env'), `\uFEFF${lines.join('\n')}\n`);
    const { status, calls } = runWrapper(['--version'], { env: {} });
    expect(status).toBe(0);
    const expected = parseDotenv(lines.join('\n')).values;
    const env = calls[0]!.env;
    const keys = passedKeys(calls[0]!.args).filter((key) => !key.includes('='));
    expect(Object.fromEntries(keys.map((key) => [key, env[key]]))).toEqual(expected);
  });

  test('warns when stdin is not a terminal, unless the run is unattended (--timeout 0)', () => {
    writeFileSync(join(flowerHome, '.env'), 'ANTHROPIC_API_KEY=k\n');
    const attended = runWrapper(['go', 'x']);
    expect(attended.stderr).toContain('! stdin is not a terminal');
    expect(attended.calls[0]?.args).not.toContain('-t');
    const unattended = runWrapper(['go', 'x', '--timeout', '0']);
    expect(unattended.stderr).toBe('');
  });

  test('outside $HOME it probes the mount first and stops when the container cannot see the folder', () => {
    writeFileSync(join(flowerHome, '.env'), 'ANTHROPIC_API_KEY=k\n');
    const outside = join(scratch, 'outside');
    mkdirSync(outside);
    const seen = runWrapper(['--version'], { cwd: outside });
    expect(seen.status).toBe(0);
    expect(seen.calls).toHaveLength(2);
    const probe = seen.calls[0]!.args;
    expect(probe.slice(0, 6)).toEqual(['run', '--rm', '-v', `${outside}:/project`, '--entrypoint', 'test']);
    expect(probe.at(-1)).toMatch(/^\/project\/\.flowerbox-mount-probe\.\d+$/);

    rmSync(log, { recursive: true });
    mkdirSync(log);
    const hidden = runWrapper(['--version'], { cwd: outside, env: { FAKE_PROBE_FAIL: '1' } });
    expect(hidden.status).toBe(1);
    expect(hidden.stderr).toContain(`${outside} is not visible to the container`);
    expect(hidden.calls).toHaveLength(1);
    expect(readdirSync(outside)).toEqual([]);
  });

  test('its key list holds every key flower knows', () => {
    const text = readFileSync(WRAPPER, 'utf8');
    const list = /^keys='([^']*)'/m.exec(text)?.[1]?.split(/\s+/) ?? [];
    for (const key of KNOWN_KEYS) expect(list).toContain(key);
    expect(existsSync(WRAPPER)).toBe(true);
  });
});
