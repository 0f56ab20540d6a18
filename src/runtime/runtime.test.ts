import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AgentMessage } from '../agent/agent-backend.js';
import { agentSpec } from '../agent/agent-spec.js';
import type { McpServerConfig, HookJSONOutput } from '../agent/claude-sdk.js';
import { isFlowerError } from '../errors.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { ClaudeSdkBackend } from '../agent/claude-sdk-backend.js';
import { ScriptedBackend } from '../testing/scripted-backend.js';
import { scriptedTurn } from '../testing/scripted-turn.js';
import { sdk, SdkLikeBackend, type LikeResult } from '../../test/support/sdk-like-backend.js';
import { sdkAssistant, sdkAssistantText, sdkInit, sdkToolResult } from '../testing/sdk-messages.js';
import { PruningSessionStore } from '../session/pruning-session-store.js';
import { readManifest } from './manifest.js';
import { Runtime } from './runtime.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const spec = agentSpec({ name: 'ad-hoc', instructions: 'be brief', allowedTools: ['Bash'], tools: ['Bash'] });

let dir: string;
let workspace: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-runtime-')));
  workspace = join(dir, 'ws');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function init(): AgentMessage {
  return sdkInit({ sessionId: 'sess-1' });
}

/** The blocks a test puts in an assistant message, without the fields the SDK adds. */
type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function assistant(
  blocks: Block[],
  options: { id?: string; parent?: string | null; tokens?: number } = {},
): AgentMessage {
  const content = blocks.map((block) => {
    if (block.type === 'text') return { ...block, citations: null };
    if (block.type === 'thinking') return { ...block, signature: '' };
    return block;
  });
  return sdkAssistant(content, {
    sessionId: 'sess-1',
    id: options.id ?? 'msg_1',
    model: 'claude-opus-5-5',
    parentToolUseId: options.parent ?? null,
    inputTokens: options.tokens ?? 0,
  });
}

function result(fields: LikeResult = {}): AgentMessage {
  return sdk.result({ num_turns: 2, ...fields });
}

function syntheticError(text: string): AgentMessage {
  return sdkAssistantText(text, {
    sessionId: 'sess-1',
    id: 'm_err',
    model: '<synthetic>',
    error: 'authentication_failed',
  });
}

describe('Runtime', () => {
  test('refuses to start the SDK without credentials and creates nothing', () => {
    for (const backend of [undefined, new ClaudeSdkBackend()]) {
      let caught: unknown;
      try {
        new Runtime({ workspace, config: { env: { PATH: '/usr/bin' } }, ...(backend ? { backend } : {}) });
      } catch (error) {
        caught = error;
      }
      expect(isFlowerError(caught) && caught.code).toBe('CREDENTIALS_MISSING');
      expect(String((caught as Error).message).split('\n')).toHaveLength(4);
      expect(existsSync(workspace)).toBe(false);
    }
  });

  test('a backend of its own needs no credentials: a scripted runtime runs on an empty environment', async () => {
    const runtime = new Runtime({
      workspace,
      config: { env: {} },
      backend: new ScriptedBackend([scriptedTurn('s-1', 'Done.')]),
      resilience: false,
    });
    try {
      const result = await runtime.run(agentSpec({ name: 'worker', instructions: 'work' }), 'go');
      expect(result.ok).toBe(true);
      expect(result.text).toBe('Done.');
    } finally {
      void runtime.close();
    }
  });

  test('defaults the run directory to <workspace>/runs and resolves an explicit one against the cwd', () => {
    const runtime = new Runtime({ workspace, config, backend: new ScriptedBackend([]) });
    expect(runtime.runDir).toBe(join(workspace, 'runs'));
    expect(existsSync(join(workspace, 'runs', 'claude'))).toBe(true);
    expect(existsSync(join(workspace, 'runs', 'tmp'))).toBe(true);
    expect(existsSync(runtime.manifestPath)).toBe(false);
    const explicit = new Runtime({
      workspace,
      runDir: join(dir, 'elsewhere'),
      config,
      backend: new ScriptedBackend([]),
    });
    expect(explicit.runDir).toBe(join(dir, 'elsewhere'));
  });

  test('runs one step: events carry the step, main text and context are kept, the row is written', async () => {
    const backend = new ScriptedBackend([
      [
        init(),
        assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'touch f' } }], {
          id: 'm1',
          tokens: 1200,
        }),
        sdkToolResult('toolu_1', '', { sessionId: 'sess-1' }),
        assistant([{ type: 'text', text: 'sub prose' }], { parent: 'toolu_x' }),
        assistant([{ type: 'text', text: 'Created f.' }], { id: 'm2', tokens: 1500 }),
        result(),
      ],
    ]);
    const runtime = new Runtime({ workspace, config, backend });
    const sessions: string[] = [];
    runtime.onSession = (sessionId) => sessions.push(sessionId);
    const events: FlowerEvent[] = [];
    const step = await runtime.run(spec, 'make f', {
      stepName: 'ad-hoc',
      onEvent: (event) => events.push(event),
    });
    backend.assertComplete();

    expect(step).toMatchObject({
      step: 'ad-hoc',
      ok: true,
      error: null,
      text: 'Created f.',
      sessionId: 'sess-1',
      costUsd: 0.5,
      numTurns: 2,
      attempts: 1,
      context: 1500,
    });
    expect(step.endedAt).toBeGreaterThanOrEqual(step.startedAt);
    expect(sessions).toEqual(['sess-1']);
    expect(events.every((event) => event.step === 'ad-hoc')).toBe(true);
    expect(events.find((event) => event.kind === 'tool_result')).toMatchObject({ tool: 'Bash' });
    expect(events.filter((event) => event.kind === 'cost')).toEqual([
      expect.objectContaining({ usd: 0.5, stepUsd: 0.5, runUsd: 0.5 }),
    ]);
    expect(runtime.totalCost()).toBe(0.5);
    expect(readManifest(runtime.runDir)).toEqual([
      expect.objectContaining({
        step: 'ad-hoc',
        ok: true,
        session_id: 'sess-1',
        cost_usd: 0.5,
        run: runtime.runId,
      }),
    ]);
  });

  test('reports an owned variable in spec.env as a warning event, never on stderr', async () => {
    const backend = new ScriptedBackend([[result()]]);
    const events: FlowerEvent[] = [];
    const owning = agentSpec({ name: 'a', instructions: '', env: { CLAUDE_CONFIG_DIR: '/elsewhere' } });
    await new Runtime({ workspace, config, backend }).run(owning, 'x', {
      onEvent: (event) => events.push(event),
    });
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'warning', code: 'owned_env_ignored', detail: 'CLAUDE_CONFIG_DIR' }),
    );
    expect(backend.requests[0]?.options.env?.['CLAUDE_CONFIG_DIR']).not.toBe('/elsewhere');
  });

  test('counts one context reading per API response', async () => {
    const backend = new ScriptedBackend([
      [
        assistant([{ type: 'thinking', thinking: 'hm' }], { id: 'm1', tokens: 1000 }),
        assistant([{ type: 'text', text: 'a' }], { id: 'm1', tokens: 1000 }),
        result(),
      ],
    ]);
    const events: FlowerEvent[] = [];
    await new Runtime({ workspace, config, backend }).run(spec, 'x', {
      onEvent: (event) => events.push(event),
    });
    expect(events.filter((event) => event.kind === 'context')).toHaveLength(1);
  });

  test('allows only the named tools of a mounted server when the spec names some, every tool otherwise', async () => {
    const gateOf = async (allowedTools: string[]) => {
      const backend = new ScriptedBackend([[result()]]);
      const runtime = new Runtime({ workspace, config, backend });
      const human = { type: 'sdk', name: 'human', instance: {} } as unknown as McpServerConfig;
      await runtime.run(
        agentSpec({ name: 'judge', instructions: '', allowedTools, mcpServers: { human } }),
        'x',
      );
      void runtime.close();
      const gate = backend.requests[0]?.options.hooks?.PreToolUse?.find((m) => m.matcher === undefined)
        ?.hooks[0];
      return async (tool: string) =>
        (
          (await gate?.(
            {
              hook_event_name: 'PreToolUse',
              tool_name: tool,
              tool_input: {},
              tool_use_id: 't',
              session_id: 's',
              transcript_path: '',
              cwd: '/',
            },
            't',
            { signal: new AbortController().signal },
          )) as { hookSpecificOutput?: { permissionDecision?: string } } | undefined
        )?.hookSpecificOutput?.permissionDecision;
    };
    // The judge names mcp__human__ask: the inbox (mail meant for the coordinator) stays closed to it.
    const judge = await gateOf(['Read', 'mcp__human__ask']);
    expect(await judge('mcp__human__ask')).toBe('allow');
    expect(await judge('mcp__human__inbox')).toBe('ask');
    const open = await gateOf(['Read']);
    expect(await open('mcp__human__inbox')).toBe('allow');
  });

  test('builds options with the whitelist gate, the run directory and resume', async () => {
    const backend = new ScriptedBackend([[result()]]);
    const runtime = new Runtime({ workspace, config, backend });
    await runtime.run(spec, 'x', { resume: 'old-session', fork: true });
    const options = backend.requests[0]?.options;
    expect(options).toMatchObject({
      cwd: realpathSync(workspace),
      tools: ['Bash'],
      resume: 'old-session',
      forkSession: true,
      settingSources: [],
      env: { CLAUDE_CONFIG_DIR: join(runtime.runDir, 'claude'), ANTHROPIC_API_KEY: 'sk-test' },
      sessionStoreFlush: 'eager',
    });
    // The SDK talks to the runtime's store through an observing wrapper, so each response can be priced.
    await options?.sessionStore?.append({ projectKey: runtime.projectKey, sessionId: 'probe' }, [
      { type: 'user', uuid: 'u-probe', message: { role: 'user', content: 'hi' } },
    ]);
    expect(runtime.hasSession('probe')).toBe(true);
    expect(runtime.store).toBeInstanceOf(PruningSessionStore);
    // The whitelist is the guard for every tool (no matcher); the Agent input rewrite has its own matcher.
    const gate = options?.hooks?.PreToolUse?.find((matcher) => matcher.matcher === undefined)?.hooks[0];
    const ask = async (tool: string): Promise<HookJSONOutput | undefined> =>
      gate?.(
        {
          hook_event_name: 'PreToolUse',
          tool_name: tool,
          tool_input: {},
          tool_use_id: 't',
          session_id: 's',
          transcript_path: '',
          cwd: '/',
        },
        't',
        {
          signal: new AbortController().signal,
        },
      );
    expect(await ask('Bash')).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } });
    expect(await ask('Write')).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
  });

  test('takes an error result as the truth over the throw that follows it, errors apart from text', async () => {
    const backend = new ScriptedBackend([
      [
        init(),
        syntheticError('Invalid API key · Fix external API key'),
        result({
          is_error: true,
          terminal_reason: 'api_error',
          api_error_status: 401,
          total_cost_usd: 0,
          num_turns: 1,
          result: 'Invalid API key',
        }),
      ],
    ]);
    const step = await new Runtime({ workspace, config, backend }).run(spec, 'x');
    expect(step.ok).toBe(false);
    expect(step.error).toBe('api_error 401: Invalid API key · Fix external API key');
    expect(step.errors).toEqual(['Invalid API key · Fix external API key']);
    expect(step.text).toBe('');
  });

  test('names the subtype and errors of an error result', async () => {
    const backend = new ScriptedBackend([
      [
        result({
          subtype: 'error_max_budget_usd',
          is_error: true,
          errors: ['Reached maximum budget ($0.03)'],
          total_cost_usd: 0.03,
        }),
      ],
    ]);
    const step = await new Runtime({ workspace, config, backend }).run(spec, 'x');
    expect(step.error).toBe('error_max_budget_usd: Reached maximum budget ($0.03)');
    expect(step.costUsd).toBe(0.03);
  });

  test('records an exception without a result as Name: message', async () => {
    const backend = new ScriptedBackend([new TypeError('spawn failed')]);
    const step = await new Runtime({ workspace, config, backend, resilience: false }).run(spec, 'x');
    expect(step).toMatchObject({ ok: false, error: 'TypeError: spawn failed' });
  });

  test('reads cost as the latest cumulative total when one query yields several results', async () => {
    const backend = new ScriptedBackend([
      [
        result({ total_cost_usd: 0.2, num_turns: 1 }),
        assistant([{ type: 'text', text: 'later' }]),
        result({ total_cost_usd: 0.35, num_turns: 1 }),
      ],
    ]);
    const step = await new Runtime({ workspace, config, backend }).run(spec, 'x');
    expect(step.costUsd).toBeCloseTo(0.35);
    expect(step.numTurns).toBe(2);
  });

  test('stops with killed-by-signal when the signal aborts', async () => {
    const controller = new AbortController();
    const backend = new ScriptedBackend([[init(), assistant([{ type: 'text', text: 'a' }]), result()]]);
    const step = await new Runtime({ workspace, config, backend }).run(spec, 'x', {
      signal: controller.signal,
      onEvent: () => controller.abort(),
    });
    expect(step).toMatchObject({ ok: false, error: 'killed-by-signal' });
  });

  test('stops at the next message boundary after interrupt() and resumes the same session', async () => {
    const backend = new ScriptedBackend([
      [init(), assistant([{ type: 'text', text: 'a' }]), result()],
      [init(), assistant([{ type: 'text', text: 'adjusted' }]), result({ total_cost_usd: 0.2 })],
    ]);
    const runtime = new Runtime({ workspace, config, backend });
    expect(runtime.interrupt()).toBe(false);
    let asked = false;
    const step = await runtime.run(spec, 'x', {
      onEvent: (event) => {
        if (event.kind === 'text' && !asked) asked = runtime.interrupt('use tabs');
      },
    });
    backend.assertComplete();
    expect(step).toMatchObject({ ok: true, attempts: 1, resumed: true, text: 'adjusted' });
    expect(backend.requests[1]?.options).toMatchObject({ resume: 'sess-1' });
    expect(backend.requests[1]?.options.forkSession).toBeUndefined();
    expect(backend.requests[1]?.prompt).toContain('use tabs');
    expect(backend.requests[1]?.prompt.endsWith(Runtime.INTERRUPT_NOTE)).toBe(true);
  });

  test('rescue() writes the in-flight step as killed-by-signal synchronously', async () => {
    const backend = new ScriptedBackend([[init(), assistant([{ type: 'text', text: 'a' }]), result()]]);
    const runtime = new Runtime({ workspace, config, backend });
    let rowsAtRescue: ReturnType<typeof readManifest> = [];
    const step = await runtime.run(spec, 'x', {
      onEvent: (event) => {
        if (event.kind !== 'text') return;
        runtime.rescue();
        rowsAtRescue = readManifest(runtime.runDir);
      },
    });
    expect(rowsAtRescue).toEqual([
      expect.objectContaining({ step: 'ad-hoc', ok: false, error: 'killed-by-signal', session_id: 'sess-1' }),
    ]);
    expect(step.error).toBe('killed-by-signal');
    expect(runtime.results).toHaveLength(1);
    expect(readManifest(runtime.runDir)).toHaveLength(1);
  });

  test('rejects a second concurrent run with RUNTIME_BUSY', async () => {
    const backend = new ScriptedBackend([[init(), result()]]);
    const runtime = new Runtime({ workspace, config, backend });
    const first = runtime.run(spec, 'x');
    await expect(runtime.run(spec, 'y')).rejects.toMatchObject({ code: 'RUNTIME_BUSY' });
    await first;
  });

  test('keeps a throwing event sink out of the step', async () => {
    const backend = new ScriptedBackend([[assistant([{ type: 'text', text: 'a' }]), result()]]);
    const runtime = new Runtime({ workspace, config, backend });
    const step = await runtime.run(spec, 'x', {
      onEvent: () => {
        throw new Error('render bug');
      },
    });
    expect(step.ok).toBe(true);
    expect(runtime.uiErrors[0]).toContain('render bug');
  });
});

describe('Runtime cost on resume', () => {
  test('subtracts the running total the resumed transcript saved, as the child restarts from it', async () => {
    const backend = new SdkLikeBackend([[result({ total_cost_usd: 0.44, num_turns: 1, session_id: 'old' })]]);
    const runtime = new Runtime({ workspace, config, backend });
    await runtime.store.append({ projectKey: runtime.projectKey, sessionId: 'old' }, [
      { type: 'cost-state', sessionId: 'old', totalCostUSD: 0.1 },
      { type: 'user', uuid: 'u1', message: { role: 'user', content: 'hi' } },
      { type: 'cost-state', sessionId: 'old', totalCostUSD: 0.4 },
    ]);
    const step = await runtime.run(spec, 'again', { resume: 'old' });
    expect(step.costUsd).toBeCloseTo(0.04);
    void runtime.close();
  });

  test('counts the whole total of a session that saved none', async () => {
    const backend = new SdkLikeBackend([[result({ total_cost_usd: 0.44, num_turns: 1 })]]);
    const runtime = new Runtime({ workspace, config, backend });
    const step = await runtime.run(spec, 'again', { resume: 'missing' });
    expect(step.costUsd).toBeCloseTo(0.44);
    void runtime.close();
  });
});
