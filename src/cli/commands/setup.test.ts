import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig, type FlowerConfig } from '../../config/load-config.js';
import { isFlowerError } from '../../errors.js';
import {
  checkBaseUrl,
  checkToken,
  checkWindow,
  runSetup,
  runSetupCommand,
  type AnswerCheck,
  type SetupPrompter,
} from './setup.js';

type Asked = { kind: 'secret' | 'text'; message: string; errors: string[] };

/** Answers questions from a script, re-asking as clack does while the check rejects; `null` cancels. */
function scripted(answers: Array<string | null>): { prompter: SetupPrompter; asked: Asked[] } {
  const asked: Asked[] = [];
  const ask = (kind: Asked['kind'], message: string, check: AnswerCheck): Promise<string | null> => {
    const entry: Asked = { kind, message, errors: [] };
    asked.push(entry);
    for (;;) {
      if (answers.length === 0) return Promise.reject(new Error(`no scripted answer left for: ${message}`));
      const answer = answers.shift() ?? null;
      if (answer === null) return Promise.resolve(null);
      const error = check(answer);
      if (error === undefined) return Promise.resolve(answer);
      entry.errors.push(error);
    }
  };
  return {
    prompter: {
      secret: (message, check) => ask('secret', message, check),
      text: (message, check) => ask('text', message, check),
    },
    asked,
  };
}

let root: string;
let home: string;
let work: string;
let file: string;
let lines: string[];
const write = (line: string) => lines.push(line);

function config(extra: Record<string, string> = {}): FlowerConfig {
  return loadConfig({ env: { HOME: home, ...extra }, cwd: work, packageRoot: null });
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flower-setup-'));
  home = join(root, 'home');
  work = join(root, 'work');
  mkdirSync(work, { recursive: true });
  file = join(home, '.config', 'flower', '.env');
  lines = [];
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('runSetup', () => {
  test('refuses without a terminal with a one-line NO_TTY error', async () => {
    const { prompter, asked } = scripted([]);
    const error: unknown = await runSetup({
      config: config(),
      reason: 'setup.reason.none',
      isTty: false,
      write,
      prompter,
    }).catch((caught: unknown) => caught);
    expect(isFlowerError(error) && error.code).toBe('NO_TTY');
    expect((error as Error).message).toBe(`setup needs an interactive terminal; edit ${file} instead.`);
    expect(asked).toEqual([]);
    expect(lines).toEqual([]);
  });

  test('asks four questions, writes CFG/.env with mode 0600 and returns the new configuration', async () => {
    const { prompter, asked } = scripted(['  sk-ant-api03-secret-key  ', '', 'claude-opus-5[1m]', '200000']);
    const result = await runSetup({
      config: config(),
      reason: 'setup.reason.first',
      isTty: true,
      write,
      prompter,
    });

    expect(asked.map((question) => question.kind)).toEqual(['secret', 'text', 'text', 'text']);
    expect(asked[0]?.message).toMatch(/^1\. Your API key or gateway token/);
    expect(lines).toEqual([
      '',
      `== Configure flower ${'='.repeat(40)}`,
      'First time? Provide credentials once.',
      `Credentials will be stored in ${file} (readable only by you). Set once, works everywhere.`,
      `+ Saved: ${file}`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe(
      [
        '# flower credentials — written by `flower setup`. Do not commit this file.',
        '',
        'ANTHROPIC_API_KEY=sk-ant-api03-secret-key',
        'ANTHROPIC_MODEL=claude-opus-5[1m]',
        'ANTHROPIC_DEFAULT_OPUS_MODEL=claude-opus-5[1m]',
        'ANTHROPIC_DEFAULT_SONNET_MODEL=claude-opus-5[1m]',
        'FLOWER_WINDOW=200000',
        '',
      ].join('\n'),
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(result.completed).toBe(true);
    expect(result.config.env['ANTHROPIC_API_KEY']).toBe('sk-ant-api03-secret-key');
    expect(result.config.window).toBe(200000);
  });

  test('re-asks the window until it is empty or a positive whole number', async () => {
    const { prompter, asked } = scripted(['gateway-token', '', '', 'big', '0', '-3', '128000']);
    await runSetup({ config: config(), reason: 'setup.reason.none', isTty: true, write, prompter });
    const message = 'Enter a positive whole number such as 200000, or leave it empty.';
    expect(asked[3]?.errors).toEqual([message, message, message]);
    expect(readFileSync(file, 'utf8')).toContain('FLOWER_WINDOW=128000\n');
    expect(readFileSync(file, 'utf8')).toContain('ANTHROPIC_AUTH_TOKEN=gateway-token\n');
  });

  test('cancels without writing when no token is given and none is configured', async () => {
    const { prompter, asked } = scripted(['   ']);
    const result = await runSetup({
      config: config(),
      reason: 'setup.reason.none',
      isTty: true,
      write,
      prompter,
    });
    expect(result.completed).toBe(false);
    expect(asked).toHaveLength(1);
    expect(lines.at(-1)).toBe('No token given; cancelled.');
    expect(existsSync(file)).toBe(false);
  });

  test('writes nothing when the user cancels a later question', async () => {
    const { prompter } = scripted(['sk-ant-api03-x', 'https://gw.example.com', null]);
    const result = await runSetup({
      config: config(),
      reason: 'setup.reason.none',
      isTty: true,
      write,
      prompter,
    });
    expect(result.completed).toBe(false);
    expect(lines.at(-1)).toBe('Cancelled');
    expect(existsSync(file)).toBe(false);
  });

  test('shows current values masked, keeps them on Enter and clears them with -', async () => {
    mkdirSync(join(home, '.config', 'flower'), { recursive: true });
    writeFileSync(
      file,
      'MY_NOTE=keep\nANTHROPIC_AUTH_TOKEN=gateway-token-123456\nANTHROPIC_BASE_URL=https://gw.example.com\nANTHROPIC_MODEL=m1\nFLOWER_WINDOW=100000\n',
    );
    const { prompter, asked } = scripted(['', '', '-', '-']);
    const result = await runSetup({
      config: config(),
      reason: 'setup.reason.reconfig',
      isTty: true,
      write,
      prompter,
    });

    expect(asked[0]?.message).toContain('current: gate*** (20 chars) — Enter = keep');
    expect(asked[0]?.message).not.toContain('gateway-token-123456');
    expect(asked[1]?.message).toContain('current: https://gw.example.com — Enter = keep, - = clear');
    expect(readFileSync(file, 'utf8')).toBe(
      [
        '# flower credentials — written by `flower setup`. Do not commit this file.',
        '',
        'MY_NOTE=keep',
        'ANTHROPIC_AUTH_TOKEN=gateway-token-123456',
        'ANTHROPIC_BASE_URL=https://gw.example.com',
        '',
      ].join('\n'),
    );
    expect(result.config.env).not.toHaveProperty('ANTHROPIC_MODEL');
    expect(result.config.window).toBeNull();
  });

  test('warns when the saved key is also exported in the shell', async () => {
    const { prompter } = scripted(['sk-ant-api03-new', '', '', '']);
    await runSetup({
      config: config({ ANTHROPIC_API_KEY: 'sk-ant-api03-old' }),
      reason: 'setup.reason.reconfig',
      isTty: true,
      write,
      prompter,
    });
    expect(lines.at(-1)).toMatch(/^! ANTHROPIC_API_KEY is also exported in your shell/);
  });

  test('colours its lines only when asked to', async () => {
    const { prompter } = scripted(['']);
    await runSetup({
      config: config(),
      reason: 'setup.reason.none',
      isTty: true,
      write,
      prompter,
      color: true,
    });
    expect(lines[1]).toBe(`\u001b[1m\u001b[36m== Configure flower ${'='.repeat(40)}\u001b[39m\u001b[22m`);
  });
});

describe('answer checks', () => {
  test('the token check refuses - and values that cannot be stored', () => {
    const check = checkToken('en');
    expect(check('-')).toMatch(/A token is required/);
    expect(check('"sk-ant-x"')).toMatch(/cannot be stored/);
    expect(check('sk-ant-api03-x')).toBeUndefined();
    expect(check('')).toBeUndefined();
  });

  test.each([
    ['', undefined],
    ['-', undefined],
    ['https://gw.example.com', undefined],
    ['http://127.0.0.1:8080/base', undefined],
    ['gw.example.com', 'Enter a URL starting with http:// or https://, or leave it empty.'],
    ['ftp://gw.example.com', 'Enter a URL starting with http:// or https://, or leave it empty.'],
    ['https://', 'Enter a URL starting with http:// or https://, or leave it empty.'],
    ['https://gw.example.com/v1', 'Leave out the trailing /v1; flower adds it.'],
    ['https://gw.example.com/v1/', 'Leave out the trailing /v1; flower adds it.'],
  ])('the URL check answers %j with %j', (answer, error) => {
    expect(checkBaseUrl('en')(answer)).toBe(error);
  });

  test('the window check accepts empty, - and positive whole numbers only', () => {
    const check = checkWindow('en');
    expect(['', '-', '1', ' 200000 '].map(check)).toEqual([undefined, undefined, undefined, undefined]);
    expect(['0', '-1', '1.5', '1e6', '200k'].map(check).every((error) => typeof error === 'string')).toBe(
      true,
    );
  });
});

describe('runSetupCommand', () => {
  let server: Server;
  let baseUrl: string;
  let statuses: number[];

  beforeEach(async () => {
    statuses = [];
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const status = statuses.shift() ?? 200;
        response.writeHead(status).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('opens with "no credentials yet", saves, then probes once and reports success', async () => {
    const { prompter } = scripted(['sk-ant-api03-x', baseUrl, 'm', '']);
    const result = await runSetupCommand({ config: config(), isTty: true, write, prompter });
    expect(lines[2]).toBe('No credentials configured yet.');
    expect(lines.slice(-2)).toEqual(['- Checking credentials…', '+ Credentials verified']);
    expect(result.completed).toBe(true);
    expect(result.probe?.verdict).toBe('ok');
  });

  test('opens with "reconfiguring" when credentials exist, and reports a rejection without looping', async () => {
    statuses = [401];
    const { prompter } = scripted(['sk-ant-api03-bad', baseUrl, 'm', '']);
    const result = await runSetupCommand({
      config: config({ ANTHROPIC_AUTH_TOKEN: 'present' }),
      isTty: true,
      write,
      prompter,
    });
    expect(lines[2]).toBe('Reconfiguring.');
    expect(lines.at(-1)).toBe('! Credentials rejected: HTTP 401 authentication rejected {}');
    expect(result.probe?.verdict).toBe('auth');
  });

  test('does not probe when the dialogue did not complete', async () => {
    const { prompter } = scripted([null]);
    const result = await runSetupCommand({ config: config(), isTty: true, write, prompter });
    expect(result).toMatchObject({ completed: false, probe: null });
    expect(lines).not.toContain('- Checking credentials…');
  });
});
