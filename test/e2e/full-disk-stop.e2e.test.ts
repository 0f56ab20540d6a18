/**
 * A run directory that fills while the real Claude Code answers: flower must stop at the first write that
 * finds no space, before another request goes out (docs/decisions.md D350). The full disk is the same real
 * tmpfs `flower chaos --faults disk-full` uses, filled when the first request of the demo arrives; the
 * answer to it asks the person a question (a tool call), which must neither run nor reach the model.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { DEMO_CHAOS_SCENARIO } from '../../src/chaos/chaos-scenario.js';
import { FullDisk } from '../../src/chaos/full-disk.js';
import { demoEnvironment } from '../../src/cli/run-demo.js';
import { FakeAnthropicServer } from '../../src/testing/fake-anthropic-server.js';
import { FLOWER_CLI } from './support/flower-process.js';

let root: string | null = null;
let disk: FullDisk | null = null;
let server: FakeAnthropicServer | null = null;

afterEach(async () => {
  await server?.close();
  await disk?.close();
  if (root !== null) rmSync(root, { recursive: true, force: true });
  server = null;
  disk = null;
  root = null;
});

describe('a run directory that fills mid-turn', () => {
  test('flower stops at the first write that finds no space: no further request, no tool run', async () => {
    const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'flower-full-stop-')));
    root = scratch;
    const folder = {
      root: scratch,
      workspace: join(scratch, 'workspace'),
      home: join(scratch, 'home'),
      claudeConfig: join(scratch, 'claude-config'),
      tmp: join(scratch, 'tmp'),
    };
    for (const path of [folder.workspace, folder.home, folder.claudeConfig, folder.tmp]) mkdirSync(path);
    const runs = join(folder.workspace, 'runs');
    mkdirSync(runs);
    const full = await FullDisk.mount(runs);
    disk = full;
    const script = DEMO_CHAOS_SCENARIO.script();
    let requests = 0;
    server = await FakeAnthropicServer.start(async (request) => {
      if (request.path === '/v1/messages' && ++requests === 1) full.fill();
      return script(request);
    });
    const env = { ...demoEnvironment(process.env, folder, server.url), ...DEMO_CHAOS_SCENARIO.env };
    const command = full.wrap(
      process.execPath,
      [FLOWER_CLI, ...DEMO_CHAOS_SCENARIO.args(folder.workspace)],
      folder.workspace,
    );
    const child = spawn(command.command, command.args, { cwd: folder.workspace, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));

    const lines = output.trim().split('\n');
    expect(code, output).toBe(1);
    expect(lines.at(-1)).toMatch(
      /^The run directory .* is full \(no space left on device\), so flower stopped/,
    );
    // The first answer (the clarifier's question) could not be stored: nothing after it was sent, and the
    // question was never put to the person.
    expect(requests, output).toBe(1);
    full.free();
    full.copyOut();
    expect(() => readFileSync(join(folder.workspace, '.flower', 'notes', 'qa-log.md'), 'utf8')).toThrow(
      /ENOENT/,
    );
  }, 90_000);
});
