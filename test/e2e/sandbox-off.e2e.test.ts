// FLOWER_SANDBOX=off (the opt-out of the agent's shell sandbox): the session's options carry no sandbox,
// flower says once that the shell runs unsandboxed because of the setting, a server the agent starts in one
// Bash call (in the background) answers in the next — which the sandbox, one network namespace per call,
// does not allow — and the store still never keeps the credential a command prints. Real SDK and binary,
// fake API.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { AgentBackend } from '../../src/agent/agent-backend.js';
import { agentSpec } from '../../src/agent/agent-spec.js';
import { ClaudeSdkBackend } from '../../src/agent/claude-sdk-backend.js';
import type { Options } from '../../src/agent/claude-sdk.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { FlowerEvent } from '../../src/events/flower-event.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { REDACTED_CREDENTIAL } from '../../src/session/redact-credentials.js';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  scriptTurns,
  text,
  toolUse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { seenToolResult } from './support/tool-results.js';

const open: Array<{ server: FakeAnthropicServer; scratch: ScratchEnvironment; runtime: Runtime | null }> = [];
afterEach(async () => {
  for (const { server, scratch, runtime } of open.splice(0)) {
    void runtime?.close();
    // The agent's server, should the test have failed before the agent ended it.
    try {
      process.kill(Number(readFileSync(join(scratch.workspace, 'server.pid'), 'utf8')), 'SIGKILL');
    } catch {
      // Not started, or already ended.
    }
    await server.close();
    await scratch.cleanup();
  }
});

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The real backend, keeping the options of every query it starts. */
function recordingBackend(seen: Options[]): AgentBackend {
  const real = new ClaudeSdkBackend();
  return {
    query: (request, signal) => {
      seen.push(request.options);
      return real.query(request, signal);
    },
  };
}

describe('FLOWER_SANDBOX=off (e2e)', () => {
  test('no sandbox option, one warning naming the setting, a background server reachable from the next Bash call, the store still redacted', async () => {
    const port = await freePort();
    const key = `sk-marker-key-${port}-${Date.now()}`;
    const serve =
      `node -e "require('fs').writeFileSync('server.pid', String(process.pid)); ` +
      `require('http').createServer((q, s) => s.end('served-' + process.pid)).listen(${port}, '127.0.0.1')"`;
    // The agent polls, as it would for a server that takes a moment to start.
    const poll = `for i in $(seq 1 50); do curl -s -m 1 http://127.0.0.1:${port}/ && exit 0; sleep 0.1; done; exit 7`;
    const server = await FakeAnthropicServer.start(
      scriptTurns({
        main: [
          message([
            toolUse('Bash', { command: serve, description: 'serve', run_in_background: true }, 'serve'),
          ]),
          message([toolUse('Bash', { command: poll, description: 'reach' }, 'reach')]),
          message([toolUse('Bash', { command: 'printenv ANTHROPIC_API_KEY', description: 'key' }, 'key')]),
          message([toolUse('Bash', { command: 'kill $(cat server.pid)', description: 'stop' }, 'stop')]),
          message([text('Done.')]),
          // Claude Code tells the model when the background command ends; the run may take this turn too.
          message([text('Noted.')]),
        ],
      }),
    );
    const scratch = await scratchEnvironment({ baseUrl: server.url });
    const entry: (typeof open)[number] = { server, scratch, runtime: null };
    open.push(entry);
    const config = loadConfig({
      env: { ...scratch.env, ANTHROPIC_API_KEY: key, FLOWER_SANDBOX: 'off' },
      cwd: scratch.workspace,
      packageRoot: null,
    });
    const seen: Options[] = [];
    const runtime = new Runtime({
      workspace: scratch.workspace,
      config,
      resilience: false,
      workbench: false,
      backend: recordingBackend(seen),
    });
    entry.runtime = runtime;
    const events: FlowerEvent[] = [];
    const spec = agentSpec({ name: 'server', instructions: '', allowedTools: ['Bash'] });

    const result = await runtime.run(spec, 'Start the server and try it.', {
      onEvent: (event) => events.push(event),
    });
    void runtime.close();

    expect(result.error).toBeNull();
    expect(seen.length).toBeGreaterThan(0);
    for (const options of seen) expect(options.sandbox).toBeUndefined();
    const warnings = events.filter(
      (event) => event.kind === 'warning' && event.code === 'shell_not_sandboxed',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ detail: expect.stringContaining('FLOWER_SANDBOX=off') as unknown });
    expect(warnings[0]?.kind === 'warning' ? warnings[0].text : '').toContain('FLOWER_SANDBOX=off');
    const reached = seenToolResult(server, 'reach');
    const pid = readFileSync(join(scratch.workspace, 'server.pid'), 'utf8');
    expect(reached?.isError, reached?.text).toBe(false);
    expect(reached?.text).toContain(`served-${pid}`);
    // Unsandboxed, the command did print the key; the store kept the marker instead.
    expect(seenToolResult(server, 'key')?.text).toContain(key);
    const runDir = join(scratch.workspace, 'runs');
    const database = readdirSync(runDir)
      .filter((name) => name.startsWith('sessions.db'))
      .map((name) => readFileSync(join(runDir, name)));
    expect(database.some((bytes) => bytes.includes(key))).toBe(false);
    expect(database.some((bytes) => bytes.includes(REDACTED_CREDENTIAL))).toBe(true);
  }, 120_000);
});
