// Claude Code's nonessential traffic, end to end: the built CLI runs `flower once` (real SDK, real binary)
// against the fake Messages API from a parent environment WITHOUT `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC`
// (scratchEnvironment sets it for every other test, which is how its absence went unnoticed). flower must
// turn the traffic off itself: the fake then sees the scripted turns and nothing else. Without it the binary
// sends `HEAD /api/hello` before the first turn (recorded against this fake with the setting removed from
// flower), and a session may name itself with an extra model call; either shows up below.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  scriptTurns,
  text,
  toolUse,
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

async function onceWithParentEnv(adjust: (env: Record<string, string>) => void) {
  server = await FakeAnthropicServer.start(
    scriptTurns({
      main: [
        message([toolUse('Bash', { command: 'echo hi', description: 'say hi' })]),
        message([text('done')]),
      ],
    }),
  );
  scratch = await scratchEnvironment({ baseUrl: server.url });
  const env = { ...scratch.env };
  delete env['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'];
  adjust(env);
  const run = await execa('node', [cli, 'once', '-t', 'Bash', 'say hi'], {
    env,
    extendEnv: false,
    cwd: scratch.workspace,
    reject: false,
    timeout: 60_000,
  });
  return { run, server };
}

describe('nonessential traffic (e2e)', () => {
  test('a parent environment without the switch: the fake sees exactly the two scripted turns', async () => {
    const { run, server } = await onceWithParentEnv(() => {});
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(run.stdout).toBe('done');
    expect(server.unexpectedCalls.map((call) => `${call.method} ${call.path}`)).toEqual([]);
    // Every request is a turn of the main thread, on the session's model with its full token allowance: no
    // hello, no quota probe, no small-model call to title the session.
    expect(server.calls.map((call) => `${call.method} ${call.path} ${call.thread}#${call.turn}`)).toEqual([
      'POST /v1/messages main#0',
      'POST /v1/messages main#1',
    ]);
    const models = new Set(server.calls.map((call) => String(call.body.model)));
    expect(models.size).toBe(1);
    expect([...models][0]).not.toMatch(/haiku/i);
  });

  test('a user who sets the switch to an empty value gets Claude Code’s traffic back', async () => {
    const { run, server } = await onceWithParentEnv((env) => {
      env['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'] = '';
    });
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(server.unexpectedCalls.map((call) => `${call.method} ${call.path}`)).toContain('HEAD /api/hello');
  });
});
