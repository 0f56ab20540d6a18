import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AgentMessage } from '../agent/agent-backend.js';
import { VERSION } from '../config/package-info.js';
import { projectKey } from '../agent/project-key.js';
import { readManifest } from '../runtime/manifest.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { ScriptedBackend, type ScriptedStep } from '../testing/scripted-backend.js';
import { sdkAssistantText, sdkInit, sdkResult, type SdkSuccessResult } from '../testing/sdk-messages.js';
import { startCli } from '../../test/support/cli-session.js';

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-cli-')));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  backend: ScriptedBackend;
}

async function flower(
  argv: string[],
  steps: ScriptedStep[] = [],
  env: Record<string, string> = {},
): Promise<Outcome> {
  const backend = new ScriptedBackend(steps);
  const outcome = await startCli(dir, argv, { backend, env, input: '' }).done;
  return { ...outcome, backend };
}

function answer(text: string): AgentMessage[] {
  const session = { sessionId: 'sess-1' };
  return [
    sdkInit(session),
    sdkAssistantText(text, { ...session, id: 'm1', model: 'claude-opus-5-5', inputTokens: 36_849 }),
    sdkResult({ ...session, result: text, costUsd: 0.1474 }),
  ];
}

function apiFailure(status: number, text: string): AgentMessage[] {
  const session = { sessionId: 'sess-1' };
  // The SDK reports an API error as a `success` result with `is_error` set, its reason and HTTP status.
  const result: SdkSuccessResult = {
    ...sdkResult({ ...session, result: text, isError: true }),
    terminal_reason: 'api_error',
    api_error_status: status,
  };
  return [
    sdkInit(session),
    sdkAssistantText(text, {
      ...session,
      id: 'm1',
      model: '<synthetic>',
      error: status === 401 ? 'authentication_failed' : 'server_error',
    }),
    result,
  ];
}

describe('runCli', () => {
  test('prints the version and exits 0', async () => {
    const outcome = await flower(['--version']);
    expect(outcome).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  test('prints the top-level help with every command and exits 0', async () => {
    const outcome = await flower(['--help']);
    expect(outcome.code).toBe(0);
    for (const command of ['go', 'run', 'once', 'setup', 'ask', 'demo'])
      expect(outcome.stdout).toMatch(new RegExp(`\\n  ${command} `));
    expect(outcome.stdout).not.toContain('not available yet');
  });

  test('exits 2 with one line for an unknown option, a missing argument, a bad choice or number', async () => {
    for (const argv of [
      ['--bogus'],
      ['once'],
      ['run'],
      ['once', '-p', 'sometimes', 'x'],
      ['once', '-b', '-1', 'x'],
      ['go', '--rounds', '0'],
    ]) {
      const outcome = await flower(argv);
      expect(outcome.code, argv.join(' ')).toBe(2);
      expect(outcome.stderr.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(outcome.stderr).toMatch(/^error: /);
    }
  });

  test('refuses --fork without --resume as a usage error', async () => {
    const outcome = await flower(['once', '--fork', 'x']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('--fork needs --resume');
  });

  test('refuses a single word close to a command instead of running it as a request', async () => {
    const outcome = await flower(['setpu']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('did you mean `flower setup`');
    expect((await flower(['go', 'setpu'])).stderr).not.toContain('did you mean');
  });

  test('runs go for a bare request too (here stopped by --isolate outside git, before any agent call)', async () => {
    for (const argv of [
      ['go', '--isolate', 'x'],
      ['--isolate', 'build me an X'],
    ]) {
      const outcome = await flower(argv);
      expect(outcome.code, argv.join(' ')).toBe(1);
      expect(outcome.stderr).toContain('--isolate requires');
      expect(outcome.backend.requests).toEqual([]);
    }
  });

  test('runs once: the answer goes to stdout, the log with status and closing line to stderr, exit 0', async () => {
    const outcome = await flower(['once', 'say hi'], [answer('Hi there.')]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe('Hi there.\n');
    expect(outcome.stderr).toContain('  Hi there.\n  - context 36.8K/1M · total $0.00 · 0:00');
    expect(outcome.stderr).toContain('  + done 1 turn · $0.1474');
    expect(outcome.stderr).toContain('  - context 36.8K/1M · total $0.15');
    expect(outcome.stderr).toContain(`Total cost $0.1474 · manifest ${join(dir, 'runs', 'manifest.json')}`);
    expect(outcome.stderr).toContain('flower once --resume sess-1');
    expect(readManifest(join(dir, 'runs'))).toEqual([
      expect.objectContaining({ step: 'ad-hoc', ok: true, cost_usd: 0.1474 }),
    ]);
  });

  test('gives once a workbench in the run directory with -W: its index opens the prompt', async () => {
    const outcome = await flower(['once', '-W', 'say hi'], [answer('Hi there.')]);
    expect(outcome.code).toBe(0);
    expect(existsSync(join(dir, 'runs', 'workbench', 'INDEX.md'))).toBe(true);
    expect(outcome.backend.requests[0]?.prompt).toMatch(/^## Workbench: /);
    expect(outcome.backend.requests[0]?.prompt).toContain('say hi');
    const without = await flower(['once', 'say hi'], [answer('Hi there.')]);
    expect(without.backend.requests[0]?.prompt).toBe('say hi');
  });

  test('passes once options into the agent spec: tools, instructions, permission mode, budget, resume', async () => {
    // `--resume` names a session the store holds; one it does not is a usage error before anything runs.
    const store = new SqliteSessionStore(join(dir, 'runs', 'sessions.db'));
    await store.append({ projectKey: projectKey(dir), sessionId: 'old' }, [{ type: 'user', uuid: 'u0' }]);
    store.close();
    const outcome = await flower(
      [
        'once',
        '-t',
        ' Bash , Read,,',
        '-i',
        'Be terse.',
        '-p',
        'acceptEdits',
        '-b',
        '0.5',
        '--resume',
        'old',
        '--fork',
        'go on',
      ],
      [answer('ok')],
    );
    expect(outcome.code).toBe(0);
    const request = outcome.backend.requests[0];
    expect(request?.prompt).toBe('go on');
    expect(request?.options).toMatchObject({
      tools: ['Bash', 'Read'],
      allowedTools: ['Bash', 'Read'],
      systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Be terse.' },
      permissionMode: 'acceptEdits',
      maxBudgetUsd: 0.5,
      resume: 'old',
      forkSession: true,
      settingSources: [],
    });
  });

  test('accepts globals after the subcommand, and a later one does not clobber an earlier one when absent', async () => {
    const workspace = join(dir, 'elsewhere');
    const after = await flower(['once', 'hi', '-w', workspace, '-r', 'my-runs'], [answer('ok')]);
    expect(after.code).toBe(0);
    expect(existsSync(join(dir, 'my-runs', 'manifest.json'))).toBe(true);
    expect(after.backend.requests[0]?.options.cwd).toBe(workspace);
    const before = await flower(['-w', workspace, 'once', 'hi'], [answer('ok')]);
    expect(before.backend.requests[0]?.options.cwd).toBe(workspace);
    expect(existsSync(join(workspace, 'runs', 'manifest.json'))).toBe(true);
  });

  test('stops with the four-line message and no agent call when credentials are missing', async () => {
    const outcome = await flower(['once', 'hi'], [], { ANTHROPIC_API_KEY: '' });
    expect(outcome.code).toBe(1);
    const lines = outcome.stderr.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain('Missing credentials');
    expect(lines[1]).toContain(join(dir, 'home', '.config', 'flower', '.env'));
    expect(outcome.backend.requests).toHaveLength(0);
  });

  test('names a credential problem and `flower setup` when the API answers 401, exit 1', async () => {
    const outcome = await flower(['once', 'hi'], [apiFailure(401, 'Invalid API key · Fix external API key')]);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain('! Looks like a credential problem: api_error 401: Invalid API key');
    expect(outcome.stderr).toContain('Run `flower setup`');
    // Said as a person would, without the step's internal name.
    expect(outcome.stderr.trimEnd().endsWith('Stopped: the agent did not finish')).toBe(true);
    expect(outcome.stderr).not.toContain('ad-hoc');
    // A rejected key is fixed with setup; continuing that session is not the way on.
    expect(outcome.stderr).not.toContain('--resume');
  });

  test('names overload when the API answers 529, exit 1, and says how to continue the session', async () => {
    const outcome = await flower(['once', 'hi'], [apiFailure(529, 'Repeated 529 Overloaded errors')]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('! The API is overloaded');
    expect(outcome.stderr).not.toContain('credential');
    expect(outcome.stderr).toContain('flower once --resume');
  });

  test('shows any other failure as its error text', async () => {
    const outcome = await flower(['once', 'hi'], [new Error('the model server said something odd')]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('! Error: the model server said something odd');
  });
});
