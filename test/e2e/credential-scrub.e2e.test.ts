// The agent's shell does not see the API key (acceptance of "The agent's shell sees the API key"): with
// marker credentials, the main thread's `printenv` glance and a worker's `env` show no credential, and the
// marker appears in no file under the run directory, the workspace or HOME (sessions.db and Claude Code's
// own transcript folder included) and in no request body. Where the shell does print a credential (here: a
// file holding it), the store writes a fixed marker in its place. Real SDK and binary, fake API.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { agentSpec } from '../../src/agent/agent-spec.js';
import { sandboxSupport } from '../../src/agent/sandbox-support.js';
import type { FlowerEvent } from '../../src/events/flower-event.js';
import { coordinator } from '../../src/roles/coordinator.js';
import { worker } from '../../src/roles/worker.js';
import { REDACTED_CREDENTIAL } from '../../src/session/redact-credentials.js';
import { message, scriptTurns, text, toolUse } from '../../src/testing/index.js';
import { gitWorkspace } from './support/git-workspace.js';
import { inProcessRuns } from './support/in-process-run.js';
import { seenToolResult } from './support/tool-results.js';
import { filesHolding } from './support/files-holding.js';

const setUp = inProcessRuns();

/**
 * A PATH holding every program of `path` except bubblewrap (a folder of links under `root`): the machine
 * as it is where the sandbox cannot run.
 */
function pathWithoutBubblewrap(path: string, root: string): string {
  const bin = join(root, 'bin-without-bwrap');
  mkdirSync(bin);
  for (const folder of path.split(delimiter).filter((entry) => entry !== '' && existsSync(entry))) {
    for (const name of readdirSync(folder)) {
      if (name !== 'bwrap' && !existsSync(join(bin, name))) symlinkSync(join(folder, name), join(bin, name));
    }
  }
  return bin;
}

function markers(): { key: string; token: string } {
  const tag = randomBytes(8).toString('hex');
  return { key: `sk-marker-key-${tag}`, token: `sk-marker-token-${tag}` };
}

describe('credential scrub (e2e)', () => {
  test('printenv in the coordinator and env in a worker show no credential; the marker is nowhere on disk or in a request', async () => {
    const { key, token } = markers();
    const {
      server,
      scratch,
      runtime: runtimeWith,
    } = await setUp(
      scriptTurns({
        main: [
          message([toolUse('Bash', { command: 'printenv', description: 'look' }, 'printenv')]),
          message([
            toolUse('Agent', { description: 'env', prompt: 'Show env.', subagent_type: 'coder' }, 'dispatch'),
          ]),
          message([text('Done.')]),
        ],
        subagent: [
          message([toolUse('Bash', { command: 'env', description: 'env' }, 'env')]),
          message([text('Conclusion: shown.')]),
        ],
      }),
    );
    scratch.env['ANTHROPIC_API_KEY'] = key;
    scratch.env['ANTHROPIC_AUTH_TOKEN'] = token;
    gitWorkspace(scratch.workspace);
    const events: FlowerEvent[] = [];
    const runtime = runtimeWith({ workbench: false });
    const spec = coordinator('coordinator', '', { coder: worker('Shows things.', 'Do it.') });

    const result = await runtime.run(spec, 'Show the environment.', {
      onEvent: (event) => events.push(event),
    });
    void runtime.close();

    expect(result.error).toBeNull();
    const printed = seenToolResult(server, 'printenv');
    expect(printed?.isError, printed?.text).toBe(false);
    // The shell really ran and printed its environment; only the credentials are missing from it.
    expect(printed?.text).toContain('ANTHROPIC_BASE_URL=');
    expect(seenToolResult(server, 'env')?.text).toContain('ANTHROPIC_BASE_URL=');
    const warnings = events.filter(
      (event) => event.kind === 'warning' && event.code === 'shell_not_sandboxed',
    );
    if (sandboxSupport(scratch.env['PATH'] ?? '').available) {
      for (const marker of [key, token]) {
        expect(filesHolding(scratch.dir, marker), marker).toEqual([]);
        const bodies = server.calls.filter((call) => JSON.stringify(call.body).includes(marker));
        expect(bodies, marker).toHaveLength(0);
      }
      expect(warnings).toHaveLength(0);
    } else {
      // No sandbox here: flower says so once, and the store still never holds the value.
      expect(warnings).toHaveLength(1);
      const runDir = join(scratch.workspace, 'runs');
      for (const marker of [key, token]) {
        expect(filesHolding(runDir, marker).filter((path) => path.includes('sessions.db'))).toEqual([]);
      }
    }
  }, 90_000);

  test('a credential a command does print is stored as a fixed marker', async () => {
    const { key } = markers();
    const {
      server,
      scratch,
      runtime: runtimeWith,
    } = await setUp(
      scriptTurns({
        main: [
          message([toolUse('Bash', { command: 'cat key.txt', description: 'read' }, 'cat')]),
          message([text('Done.')]),
        ],
      }),
    );
    scratch.env['ANTHROPIC_API_KEY'] = key;
    const keyFile = join(scratch.workspace, 'key.txt');
    writeFileSync(keyFile, `${key}\n`);
    const runtime = runtimeWith({ workbench: false });
    const spec = agentSpec({ name: 'reader', instructions: '', allowedTools: ['Bash'] });

    const result = await runtime.run(spec, 'Read the key file.');
    void runtime.close();

    expect(result.error).toBeNull();
    // The command did print the key: this run is about the store, not the shell.
    expect(seenToolResult(server, 'cat')?.text).toContain(key);
    const runDir = join(scratch.workspace, 'runs');
    const database = readdirSync(runDir)
      .filter((name) => name.startsWith('sessions.db'))
      .map((name) => readFileSync(join(runDir, name)));
    expect(database.length).toBeGreaterThan(0);
    expect(database.some((bytes) => bytes.includes(key))).toBe(false);
    expect(database.some((bytes) => bytes.includes(REDACTED_CREDENTIAL))).toBe(true);
  }, 90_000);

  test('without a sandbox flower says so once, and the store still never holds a credential', async () => {
    const { key } = markers();
    const {
      server,
      scratch,
      runtime: runtimeWith,
    } = await setUp(
      scriptTurns({
        main: [
          message([toolUse('Bash', { command: 'printenv', description: 'look' }, 'printenv')]),
          message([text('Done.')]),
          message([text('Done again.')]),
        ],
      }),
    );
    scratch.env['ANTHROPIC_API_KEY'] = key;
    scratch.env['PATH'] = pathWithoutBubblewrap(scratch.env['PATH'] ?? '', scratch.dir);
    const events: FlowerEvent[] = [];
    const runtime = runtimeWith({ workbench: false });
    const spec = agentSpec({ name: 'looker', instructions: '', allowedTools: ['Bash'] });

    const first = await runtime.run(spec, 'Look.', { onEvent: (event) => events.push(event) });
    const second = await runtime.run(spec, 'Look again.', { onEvent: (event) => events.push(event) });
    void runtime.close();

    expect(first.error).toBeNull();
    expect(second.error).toBeNull();
    const warnings = events.filter(
      (event) => event.kind === 'warning' && event.code === 'shell_not_sandboxed',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.text).toMatch(/bubblewrap/);
    // The shell did print the key here; the store kept the marker instead.
    expect(seenToolResult(server, 'printenv')?.text).toContain(`ANTHROPIC_API_KEY=${key}`);
    const runDir = join(scratch.workspace, 'runs');
    const database = readdirSync(runDir)
      .filter((name) => name.startsWith('sessions.db'))
      .map((name) => readFileSync(join(runDir, name)));
    expect(database.some((bytes) => bytes.includes(key))).toBe(false);
    expect(database.some((bytes) => bytes.includes(REDACTED_CREDENTIAL))).toBe(true);
  }, 90_000);
});
