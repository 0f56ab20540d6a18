import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AgentMessage } from '../agent/agent-backend.js';
import { agentSpec } from '../agent/agent-spec.js';
import { ScriptedBackend } from '../testing/scripted-backend.js';
import { sdkInit, sdkResult } from '../testing/sdk-messages.js';
import { processStartTime, PROCESSES_FILE, type ProcessRecord } from './run-processes.js';
import { Runtime } from './runtime.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const spec = agentSpec({ name: 'ad-hoc', instructions: '', allowedTools: ['Bash'], tools: ['Bash'] });

let dir: string;
let holder: ChildProcess | null = null;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-runtime-processes-')));
});

afterEach(() => {
  holder?.kill('SIGKILL');
  holder = null;
  rmSync(dir, { recursive: true, force: true });
});

const init = (session: string): AgentMessage => sdkInit({ sessionId: session });
const result = (session: string): AgentMessage => sdkResult({ sessionId: session });

function records(runDir: string): ProcessRecord[] {
  return JSON.parse(readFileSync(join(runDir, PROCESSES_FILE), 'utf8')) as ProcessRecord[];
}

describe('Runtime and processes.json', () => {
  test('refuses to resume a session another live process is continuing, before any query', async () => {
    holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    await new Promise((resolve) => holder!.once('spawn', resolve));
    const runDir = join(dir, 'ws', 'runs');
    mkdirSync(runDir, { recursive: true });
    const now = Math.floor(Date.now() / 1000);
    const live: ProcessRecord = {
      pid: holder.pid!,
      started: processStartTime(holder.pid!),
      host: hostname(),
      since: now,
      beat: now,
      token: 'other',
      go: false,
      sessions: ['sess-busy'],
      children: [],
    };
    writeFileSync(join(runDir, PROCESSES_FILE), JSON.stringify([live]));
    const backend = new ScriptedBackend([[init('sess-busy'), result('sess-busy')]]);
    const runtime = new Runtime({ workspace: join(dir, 'ws'), config, backend });

    const refused = runtime.run(spec, 'go on', { resume: 'sess-busy' });
    await expect(refused).rejects.toMatchObject({ code: 'SESSION_IN_USE' });
    await expect(refused).rejects.toThrow(
      /^Session sess-busy is being continued by another flower \(pid \d+,/,
    );
    expect(backend.requests).toHaveLength(0);

    // Once the holder is gone, the same resume goes ahead and the session is this process's.
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder!.once('exit', resolve));
    const step = await runtime.run(spec, 'go on', { resume: 'sess-busy' });
    expect(step.ok).toBe(true);
    expect(records(runDir).map((record) => [record.pid, record.sessions])).toEqual([
      [process.pid, ['sess-busy']],
    ]);
    void runtime.close();
    expect(records(runDir)).toEqual([]);
  });

  test('claims each new session and ties every attempt through the custom spawn', async () => {
    const backend = new ScriptedBackend([[init('sess-new'), result('sess-new')]]);
    const runtime = new Runtime({ workspace: join(dir, 'ws'), config, backend });
    await runtime.run(spec, 'start');
    expect(records(runtime.runDir).find((record) => record.pid === process.pid)?.sessions).toEqual([
      'sess-new',
    ]);
    expect(typeof backend.requests[0]?.options.spawnClaudeCodeProcess).toBe('function');
    void runtime.close();
  });
});
