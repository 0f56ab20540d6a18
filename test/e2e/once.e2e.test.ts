// `flower once` end to end: the built CLI (`node dist/cli/main.js`, built by `npm test`) runs the real SDK and
// its real Claude Code binary against flower's fake Messages API, in a scratch HOME with no real credentials.
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import { projectKey } from '../../src/agent/project-key.js';
import { readManifest } from '../../src/runtime/manifest.js';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  scriptTurns,
  text,
  toolUse,
  type FakeScript,
  type ScratchEnvironment,
} from '../../src/testing/index.js';

const cli = resolve(fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url)));

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await server?.close();
  await scratch?.cleanup();
  server = null;
  scratch = null;
});

async function setUp(
  script: FakeScript,
): Promise<{ server: FakeAnthropicServer; scratch: ScratchEnvironment }> {
  server = await FakeAnthropicServer.start(script);
  scratch = await scratchEnvironment({ baseUrl: server.url });
  return { server, scratch };
}

function flower(args: string[], env: Record<string, string>, cwd: string) {
  return execa('node', [cli, ...args], { env, extendEnv: false, cwd, reject: false, timeout: 60_000 });
}

describe('flower once (e2e)', () => {
  test('runs Bash through the fake API: the file exists, the answer is printed, status shows cost and context', async () => {
    const { server, scratch } = await setUp(
      scriptTurns({
        main: [
          message([toolUse('Bash', { command: 'echo hello > made.txt', description: 'make the file' })], {
            usage: { input_tokens: 30_000, output_tokens: 50 },
          }),
          message([text('Created made.txt.')], {
            usage: { input_tokens: 2_000, cache_read_input_tokens: 34_849, output_tokens: 20 },
          }),
        ],
      }),
    );
    // A space and a non-ASCII character in the path pin flower's project key to the real binary's.
    const workspace = join(scratch.dir, 'my wörk space');
    mkdirSync(workspace);
    const run = await flower(
      ['-w', workspace, 'once', '-t', 'Bash', '-i', 'Answer in one line.', 'make the file'],
      scratch.env,
      scratch.dir,
    );

    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('hello\n');
    expect(run.stdout).toBe('Created made.txt.');
    expect(run.stderr).toContain('  * Bash echo hello > made.txt');
    expect(run.stderr).toContain('  Created made.txt.');
    const [row] = readManifest(join(workspace, 'runs'));
    expect(row).toMatchObject({ step: 'ad-hoc', ok: true, num_turns: 2, error: null, context: 36_849 });
    expect(row?.cost_usd).toBeGreaterThan(0.1);
    // The status line after the result carries the fake's usage: context 36.8K and the cost the CLI computed.
    expect(run.stderr).toContain(`  - context 36.8K/1M · total $${row?.cost_usd.toFixed(2)} · `);
    expect(run.stderr).toContain(
      `Total cost $${row?.cost_usd.toFixed(4)} · manifest ${join(workspace, 'runs', 'manifest.json')}`,
    );
    expect(run.stderr).not.toContain('\x1b[');

    // What reached the API: the exact tool set, the instructions at the end of Claude Code's own prompt.
    expect(server.unexpectedCalls).toEqual([]);
    const first = server.calls.find((call) => call.path === '/v1/messages');
    // Claude Code adds a DeferredToolPlaceholder of its own; of the real tools only Bash is offered.
    const offered = (first?.body.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(offered.filter((name) => name !== 'DeferredToolPlaceholder')).toEqual(['Bash']);
    const system = first?.body.system as Array<{ text: string }>;
    expect(system.at(-1)?.text.trimEnd().endsWith('Answer in one line.')).toBe(true);
    expect(system.map((block) => block.text).join('\n')).toContain('Claude Code');

    // The transcript lives under <runDir>/claude, filed under the key flower computes (decisions.md D4, D19).
    const projects = join(workspace, 'runs', 'claude', 'projects');
    expect(readdirSync(projects)).toEqual([projectKey(realpathSync(workspace))]);
    expect(existsSync(join(projects, projectKey(realpathSync(workspace)), `${row?.session_id}.jsonl`))).toBe(
      true,
    );
  });

  test('resumes and forks a session from its local transcript', async () => {
    const { server, scratch } = await setUp(
      scriptTurns({
        main: [
          message([text('first answer')], { usage: { input_tokens: 100_000 } }),
          message([text('second answer')], { usage: { input_tokens: 10_000 } }),
          message([text('forked answer')], { usage: { input_tokens: 10_000 } }),
        ],
      }),
    );
    const first = await flower(['once', 'remember the word tulip'], scratch.env, scratch.workspace);
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const sessionId = readManifest(join(scratch.workspace, 'runs'))[0]?.session_id as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const second = await flower(
      ['once', '--resume', sessionId, 'which word?'],
      scratch.env,
      scratch.workspace,
    );
    expect(second.exitCode, String(second.stderr)).toBe(0);
    expect(second.stdout).toBe('second answer');
    expect(JSON.stringify(server.calls.at(-1)?.body.messages)).toContain('remember the word tulip');

    const forked = await flower(
      ['once', '--resume', sessionId, '--fork', 'and now?'],
      scratch.env,
      scratch.workspace,
    );
    expect(forked.exitCode, String(forked.stderr)).toBe(0);
    const rows = readManifest(join(scratch.workspace, 'runs'));
    expect(rows.map((row) => row.session_id)).toEqual([
      sessionId,
      sessionId,
      expect.not.stringMatching(sessionId),
    ]);
    // The CLI starts a resumed session's running total from what its transcript saved; flower counts only
    // this process's spend, so a resume with a tenth of the tokens costs about a tenth.
    const [one, two, three] = rows.map((row) => row.cost_usd);
    expect(two).toBeLessThan((one ?? 0) / 5);
    expect(three).toBeLessThan((one ?? 0) / 5);
    expect(two).toBeGreaterThan(0);
  });

  test('stops before any request when there are no credentials anywhere', async () => {
    const { server, scratch } = await setUp(scriptTurns({ main: [message([text('never')])] }));
    const { ANTHROPIC_API_KEY: _key, ...env } = scratch.env;
    const run = await flower(['once', 'hi'], env, scratch.workspace);
    expect(run.exitCode).toBe(1);
    const lines = String(run.stderr).trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain('Missing credentials');
    expect(lines[1]).toContain('flower setup');
    expect(lines[1]).toContain(join(scratch.home, '.config', 'flower', '.env'));
    expect(server.calls).toEqual([]);
    expect(existsSync(join(scratch.workspace, 'runs'))).toBe(false);
  });

  test('names the credential problem and what to run when the API answers 401, without retrying', async () => {
    const { server, scratch } = await setUp(scriptTurns({ main: [{ kind: 'status', status: 401 }] }));
    const run = await flower(['once', 'hi'], scratch.env, scratch.workspace);
    // A rejected key is not a transient fault: flower makes one attempt, no backoff and no resumed attempt
    // (Claude Code's own retries inside that attempt are its business; a timed bound said the same but failed
    // on a loaded machine).
    expect(run.stderr).not.toContain('Attempt 1 failed');
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('Looks like a credential problem');
    expect(run.stderr).toContain('Run `flower setup`');
    expect(run.stderr).toContain('Stopped: the agent did not finish');
    // Setup is the way on after a rejected key, not continuing the session that was refused.
    expect(run.stderr).not.toContain('--resume');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
    expect(readManifest(join(scratch.workspace, 'runs'))[0]).toMatchObject({
      ok: false,
      attempts: 1,
      error: expect.stringContaining('401') as unknown,
    });
    expect(server.calls.length).toBeGreaterThan(0);
  });

  test('rides out an overloaded API: the attempt fails, flower resumes the same session, the run succeeds', async () => {
    let calls = 0;
    const { server, scratch } = await setUp(() =>
      ++calls <= 3 ? { kind: 'status', status: 529 } : message([text('Recovered.')]),
    );
    const run = await flower(['once', 'hi'], scratch.env, scratch.workspace);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(run.stdout).toBe('Recovered.');
    // CLAUDE_CODE_MAX_RETRIES=2 from flower (the scratch shell's own value is ignored): three calls, then
    // flower's own retry resumes the session.
    expect(server.calls.filter((call) => call.path === '/v1/messages')).toHaveLength(4);
    // One line per retry: what failed, then which attempt comes next and that it keeps the session.
    expect(run.stderr).toMatch(
      /Attempt 1 failed \(transient\): .* · attempt 2 of \d+ in \d+ s, same session/,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readManifest(join(scratch.workspace, 'runs'))[0]).toMatchObject({
      ok: true,
      attempts: 2,
      resumed: true,
    });
  });

  test('writes the in-flight row and dies by the signal on SIGTERM', async () => {
    const { server, scratch } = await setUp(scriptTurns({ main: [{ kind: 'hang' }] }));
    const child = execa('node', [cli, 'once', 'hi'], {
      env: scratch.env,
      extendEnv: false,
      cwd: scratch.workspace,
      reject: false,
    });
    await waitFor(() => server.calls.some((call) => call.path === '/v1/messages'));
    child.kill('SIGTERM');
    const run = await child;
    expect(run.signal).toBe('SIGTERM');
    expect(readManifest(join(scratch.workspace, 'runs'))).toEqual([
      expect.objectContaining({
        step: 'ad-hoc',
        ok: false,
        error: 'killed-by-signal',
        session_id: expect.any(String) as unknown,
      }),
    ]);
  });

  test('writes the in-flight row and exits 130 on Ctrl-C without a terminal', async () => {
    const { server, scratch } = await setUp(scriptTurns({ main: [{ kind: 'hang' }] }));
    const child = execa('node', [cli, 'once', 'hi'], {
      env: scratch.env,
      extendEnv: false,
      cwd: scratch.workspace,
      reject: false,
    });
    await waitFor(() => server.calls.some((call) => call.path === '/v1/messages'));
    child.kill('SIGINT');
    const run = await child;
    expect(run.exitCode).toBe(130);
    expect(readManifest(join(scratch.workspace, 'runs'))[0]).toMatchObject({ error: 'killed-by-signal' });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    // Polling the fake's call log: the request arrives from another process, so there is no event to await.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
