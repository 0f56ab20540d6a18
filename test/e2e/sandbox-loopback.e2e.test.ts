// What loopback the agent's sandboxed Bash reaches (docs/configuration.md, "Loopback in the sandbox"): a
// server started and reached within one Bash call answers; a server the agent started in an earlier call
// (run_in_background) and a server on the host's 127.0.0.1 do not — each call has a network namespace of its
// own — while the credentials stay scrubbed. Pinned so the documentation changes when Claude Code does.
// Real SDK and binary, fake API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { agentSpec } from '../../src/agent/agent-spec.js';
import { sandboxSupport } from '../../src/agent/sandbox-support.js';
import { message, scriptTurns, text, toolUse } from '../../src/testing/index.js';
import { inProcessRuns } from './support/in-process-run.js';
import { seenToolResult } from './support/tool-results.js';

const setUp = inProcessRuns();

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listening(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A shell command starting a server on `port` answering `word`; it ends itself after `lifeS` seconds. */
function serve(port: number, word: string, lifeS: number): string {
  return (
    `node -e "setTimeout(() => process.exit(0), ${lifeS * 1000}); ` +
    `require('http').createServer((q, s) => s.end('${word}')).listen(${port}, '127.0.0.1')"`
  );
}

/** A shell command asking `port` until it answers (exit 0) or 20 tries were refused (exit 7). */
function poll(port: number): string {
  return `for i in $(seq 1 20); do curl -s -m 1 http://127.0.0.1:${port}/ && exit 0; sleep 0.1; done; exit 7`;
}

/** A shell command asking the host's `port` through the sandbox's HTTP proxy, past `NO_PROXY`. */
function viaProxy(port: number): string {
  return `curl -s -m 5 --noproxy '' -x "$HTTP_PROXY" http://127.0.0.1:${port}/`;
}

describe('loopback in the sandboxed shell (e2e)', () => {
  test('within one call a server answers; across calls and on the host it does not (HTTP only through the proxy); the key stays scrubbed', async () => {
    const host = createServer((_request, response) => response.end('host-answered'));
    const hostPort = await listening(host);
    const backgroundPort = await freePort();
    const onePort = await freePort();
    try {
      const {
        server,
        scratch,
        runtime: runtimeWith,
      } = await setUp(
        scriptTurns({
          main: [
            message([toolUse('Bash', { command: poll(hostPort), description: 'host' }, 'host')]),
            message([toolUse('Bash', { command: viaProxy(hostPort), description: 'proxy' }, 'proxy')]),
            message([
              toolUse(
                'Bash',
                // Short-lived: Claude Code ends the session only once every background command has ended.
                {
                  command: serve(backgroundPort, 'background-answered', 8),
                  run_in_background: true,
                  description: 'serve',
                },
                'serve',
              ),
            ]),
            message([toolUse('Bash', { command: poll(backgroundPort), description: 'later' }, 'later')]),
            message([
              toolUse(
                'Bash',
                {
                  command: `${serve(onePort, 'same-call-answered', 30)} & ${poll(onePort)}`,
                  description: 'same',
                },
                'same',
              ),
            ]),
            message([
              toolUse(
                'Bash',
                { command: 'printenv ANTHROPIC_API_KEY || echo none', description: 'key' },
                'key',
              ),
            ]),
            message([text('Done.')]),
            // Claude Code tells the model when the background command ends; the run may take this turn too.
            message([text('Noted.')]),
          ],
        }),
      );
      const key = `sk-marker-key-${hostPort}-${Date.now()}`;
      scratch.env['ANTHROPIC_API_KEY'] = key;
      const runtime = runtimeWith({ workbench: false });
      const spec = agentSpec({ name: 'server', instructions: '', allowedTools: ['Bash'] });

      const result = await runtime.run(spec, 'Start a server and try it.');
      void runtime.close();

      expect(result.error).toBeNull();
      const same = seenToolResult(server, 'same');
      expect(same?.text).toContain('same-call-answered');
      const hostResult = seenToolResult(server, 'host');
      const later = seenToolResult(server, 'later');
      if (sandboxSupport(scratch.env['PATH'] ?? '').available) {
        expect(hostResult?.text).not.toContain('host-answered');
        expect(hostResult?.isError).toBe(true);
        expect(seenToolResult(server, 'proxy')?.text).toContain('host-answered');
        expect(later?.text).not.toContain('background-answered');
        expect(later?.isError).toBe(true);
        expect(seenToolResult(server, 'key')?.text).not.toContain(key);
      } else {
        // Unsandboxed, the shell shares the host's network.
        expect(hostResult?.text).toContain('host-answered');
        expect(later?.text).toContain('background-answered');
      }
    } finally {
      await new Promise((resolve) => host.close(resolve));
    }
  }, 120_000);
});
