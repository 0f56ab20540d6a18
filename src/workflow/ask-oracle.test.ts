import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { readManifest } from '../runtime/manifest.js';
import { Runtime } from '../runtime/runtime.js';
import { ClaudeSdkBackend } from '../agent/claude-sdk-backend.js';
import { ScriptedBackend } from '../testing/scripted-backend.js';
import { scriptedTurn } from '../testing/scripted-turn.js';
import { Workbench } from '../workbench/workbench.js';
import { askOracle, oraclePrompt } from './ask-oracle.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const recent = ['[tool_call/Bash·main] npm test', '[text·main] Two tests still fail; fixing parse.ts next.'];

let dir: string;
let workspace: string;
let runDir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-ask-oracle-')));
  workspace = join(dir, 'ws');
  runDir = join(workspace, 'runs');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function systemAppend(backend: ScriptedBackend): string {
  const systemPrompt = backend.requests[0]?.options.systemPrompt;
  return typeof systemPrompt === 'object' && systemPrompt !== null && 'append' in systemPrompt
    ? String(systemPrompt.append)
    : '';
}

describe('askOracle', () => {
  test('a run on a server: the answer stays in the aside folder, out of the run records there', async () => {
    // No server listens on port 1: an oracle that took the run's store location would fail to open it.
    const onServer = { env: { ...config.env, FLOWER_STORE: 'postgres://flower@127.0.0.1:1/runs?run=demo' } };
    const backend = new ScriptedBackend([scriptedTurn('aside-1', 'It is fixing parse.ts.')]);
    const answer = await askOracle('what is it doing?', {
      workspace,
      runDir,
      recent,
      backend,
      config: onServer,
    });

    expect(answer).toMatchObject({ ok: true, text: 'It is fixing parse.ts.' });
    expect(readManifest(join(runDir, 'aside')).map((row) => row.session_id)).toEqual(['aside-1']);
    backend.assertComplete();
  });

  test('answers on the aside runtime: the aside manifest gets the row, the main manifest does not', async () => {
    const main = new Runtime({
      workspace,
      config,
      backend: new ScriptedBackend([scriptedTurn('main-1', 'Working on it.')]),
      resilience: false,
    });
    await main.run(agentSpec({ name: 'worker', instructions: 'work' }), 'do the work', { stepName: 'work' });
    void main.close();
    const mainRows = readManifest(runDir);

    const backend = new ScriptedBackend([
      scriptedTurn('aside-1', 'It is fixing parse.ts.', { costUsd: 0.03 }),
    ]);
    const answer = await askOracle('what is it doing?', { workspace, runDir, recent, backend, config });

    expect(answer).toEqual({ ok: true, text: 'It is fixing parse.ts.', costUsd: 0.03 });
    expect(readManifest(join(runDir, 'aside'))).toEqual([
      expect.objectContaining({
        step: 'aside',
        ok: true,
        text: 'It is fixing parse.ts.',
        session_id: 'aside-1',
      }),
    ]);
    expect(readManifest(runDir)).toEqual(mainRows);
    expect(mainRows.map((row) => row.step)).toEqual(['work']);
    // Its own store and Claude Code directory, in the aside folder; the run's workspace to read.
    const options = backend.requests[0]?.options;
    expect(options?.cwd).toBe(workspace);
    expect(options?.env?.['CLAUDE_CONFIG_DIR']).toBe(join(runDir, 'aside', 'claude'));
    expect(options?.allowedTools).toEqual(['Read', 'Glob', 'Grep']);
    expect(options?.maxTurns).toBe(12);
    expect(systemAppend(backend)).toContain('A run is still going on beside you');
    backend.assertComplete();
  });

  test('sends the question, the recent events and the workspace in one prompt', async () => {
    const backend = new ScriptedBackend([scriptedTurn('aside-1', 'ok')]);
    await askOracle('  is it stuck?  ', { workspace, runDir, recent, backend, config });
    const prompt = backend.requests[0]?.prompt ?? '';
    expect(prompt).toContain('is it stuck?');
    expect(prompt).toContain(`${recent[0]}\n${recent[1]}`);
    expect(prompt).toContain(`The run has no workbench; its workspace is ${workspace}.`);
  });

  test("points the oracle at the run's workbench and its notes", async () => {
    const workbench = new Workbench(workspace).ensure();
    writeFileSync(join(workbench.notes, 'brief.md'), '# Brief\n');
    const backend = new ScriptedBackend([scriptedTurn('aside-1', 'ok')]);
    await askOracle('what is left?', { workspace, runDir, recent: [], backend, config, workbench });
    const prompt = backend.requests[0]?.prompt ?? '';
    expect(prompt).toContain('No events of the run have been recorded yet.');
    expect(prompt).toContain(`The run's workbench is ${workbench.root}`);
    expect(prompt).toContain(join(workbench.notes, 'brief.md'));
    expect(prompt).toContain(workbench.artifacts);
    // The rule text names the same workbench, and it is the run's, not one in the aside folder.
    expect(systemAppend(backend)).toContain('.flower/');
    expect(backend.requests[0]?.options.env?.['CLAUDE_CONFIG_DIR']).toBe(join(runDir, 'aside', 'claude'));
  });

  test('returns a failed step as ok false with its error on one line and its cost', async () => {
    const backend = new ScriptedBackend([scriptedTurn('aside-1', 'partial', { fail: true, costUsd: 0.02 })]);
    const answer = await askOracle('why?', { workspace, runDir, recent, backend, config });
    expect(answer).toEqual({
      ok: false,
      text: 'error_max_turns: Reached maximum number of turns (3)',
      costUsd: 0.02,
    });
  });

  test('never rejects: missing credentials become one line', async () => {
    const answer = await askOracle('why?', {
      workspace,
      runDir,
      recent,
      // The SDK's backend reads credentials (a scripted one needs none): construction fails before any spawn.
      backend: new ClaudeSdkBackend(),
      config: { env: { PATH: '/usr/bin', HOME: join(dir, 'home') } },
    });
    expect(answer.ok).toBe(false);
    expect(answer.text).toMatch(/^FlowerError: Missing credentials/);
    expect(answer.text).not.toContain('\n');
    expect(answer.costUsd).toBe(0);
  });

  test('stops at once when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const backend = new ScriptedBackend([scriptedTurn('aside-1', 'too late')]);
    const answer = await askOracle('why?', {
      workspace,
      runDir,
      recent,
      backend,
      config,
      signal: controller.signal,
    });
    expect(answer).toMatchObject({ ok: false, text: 'killed-by-signal' });
  });
});

describe('oraclePrompt', () => {
  test('keeps the question first and every event line whole', () => {
    mkdirSync(workspace, { recursive: true });
    const prompt = oraclePrompt('why?', recent, workspace, null);
    expect(prompt.split('\n')[2]).toBe('why?');
    expect(prompt).toContain("The run's 2 most recent events, oldest first");
  });
});
