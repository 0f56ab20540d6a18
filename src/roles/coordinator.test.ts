import { describe, expect, test } from 'vitest';
import type { AgentDefinition, McpServerConfig } from '../agent/claude-sdk.js';
import { CompactPolicy } from '../agent/compact-policy.js';
import type { ChannelLike } from './channel-like.js';
import { coordinator } from './coordinator.js';
import { wantsIsolation } from '../agent/isolation-mark.js';
import type { WorkbenchLike } from '../workbench/workbench-places.js';
import { worker } from './worker.js';

const coder = worker('Writes code and tests.', 'Implement.', { tools: ['Read', 'Write', 'Edit', 'Bash'] });

const server = { type: 'sdk', name: 'human' } as unknown as McpServerConfig;
const channel: ChannelLike = { mcpServers: () => ({ human: server }) };

const outside: WorkbenchLike = {
  root: '/data/runs/workbench',
  artifacts: '/data/runs/workbench/artifacts',
  scripts: '/data/runs/workbench/scripts',
  notes: '/data/runs/workbench/notes',
  display: (path) => path,
};

describe('coordinator', () => {
  test('delegates only, with the workbench block, foreground workers and acceptEdits by default', () => {
    const spec = coordinator('coordinator', '', { coder });
    expect(spec).toMatchObject({
      name: 'coordinator',
      delegateOnly: true,
      workbench: true,
      glance: true,
      backgroundAgents: false,
      permissionMode: 'acceptEdits',
      agents: { coder },
      mcpServers: {},
      hooks: null,
      compact: null,
    });
  });

  test('is offered Agent, SendMessage, the task list, Read and glance Bash by default, and only those', () => {
    const spec = coordinator('c', '', { coder });
    expect(spec.tools).toEqual([
      'Agent',
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'Read',
      'Bash',
    ]);
    expect(spec.allowedTools).toEqual(spec.tools);
  });

  test('drops Read with canRead false and Bash with glance false', () => {
    const spec = coordinator('c', '', { coder }, { canRead: false, glance: false });
    expect(spec.tools).toEqual(['Agent', 'SendMessage', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']);
    expect(spec.allowedTools).toEqual([
      'Agent',
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
    ]);
    expect(spec.glance).toBe(false);
  });

  test('adds both human tools and mounts the server with a channel', () => {
    const spec = coordinator('c', '', { coder }, { channel });
    const expected = [
      'Agent',
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'Read',
      'Bash',
      'mcp__human__ask',
      'mcp__human__inbox',
    ];
    expect(spec.tools).toEqual(expected);
    expect(spec.allowedTools).toEqual(expected);
    expect(spec.mcpServers).toEqual({ human: server });
  });

  test('merges a worker’s web tools up into the approvals, never its hands-on ones, and offers neither', () => {
    const researcher = worker('Searches the web.', 'Search.', { tools: ['Read', 'WebSearch'] });
    const spec = coordinator('c', '', { coder, researcher }, { glance: false });
    expect(spec.allowedTools).toEqual([
      'Agent',
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'Read',
      'WebSearch',
    ]);
    expect(spec.allowedTools).not.toContain('Write');
    expect(spec.allowedTools).not.toContain('Bash');
    expect(spec.tools).toEqual([
      'Agent',
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'Read',
    ]);
  });

  test('merges both web tools up for the default worker and for a definition that inherits every tool', () => {
    expect(coordinator('c', '', { coder: worker('Writes code.', 'Implement.') }).allowedTools).toEqual([
      'Agent',
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'Read',
      'Bash',
      'WebFetch',
      'WebSearch',
    ]);
    const inherits: AgentDefinition = { description: 'Anything.', prompt: 'Do it.' };
    expect(coordinator('c', '', { inherits }).allowedTools).toContain('WebFetch');
  });

  test('keeps the worker definitions as they are, so isolation marks survive', () => {
    const isolatedCoder = worker('Writes code.', 'Implement.', { isolate: true });
    const spec = coordinator('c', '', { coder: isolatedCoder });
    expect(spec.agents?.['coder']).toBe(isolatedCoder);
    expect(wantsIsolation(spec.agents?.['coder'] as AgentDefinition)).toBe(true);
  });

  test('passes the remaining options through', () => {
    const compact = new CompactPolicy({ mode: 'off' });
    const hooks = { PreToolUse: [] };
    const spec = coordinator(
      'c',
      '',
      { coder },
      {
        permissionMode: 'default',
        compact,
        hooks,
        env: { A: '1' },
        model: 'opus',
        effort: 'high',
        maxTurns: 200,
        maxBudgetUsd: 20,
        backgroundAgents: true,
      },
    );
    expect(spec).toMatchObject({
      permissionMode: 'default',
      compact,
      hooks,
      env: { A: '1' },
      model: 'opus',
      effort: 'high',
      maxTurns: 200,
      maxBudgetUsd: 20,
      backgroundAgents: true,
    });
  });

  test('takes one object as well: the same spec as the positional form', () => {
    const fromObject = coordinator({
      name: 'lead',
      instructions: 'Keep changes small.',
      workers: { coder },
      channel,
      glance: false,
    });
    expect(fromObject).toEqual(
      coordinator('lead', 'Keep changes small.', { coder }, { channel, glance: false }),
    );
    expect(fromObject.name).toBe('lead');
    expect(fromObject.instructions).toContain('Keep changes small.');
    expect(Object.keys(fromObject.agents ?? {})).toEqual(['coder']);
    expect(coordinator({ name: 'bare', workers: { coder } })).toEqual(coordinator('bare', '', { coder }));
  });
});

describe('coordinator rule text', () => {
  const text = coordinator('c', '', { coder }).instructions;

  test('makes it a person skilled with Claude Code who never does hands-on work', () => {
    expect(text).toContain('a person skilled with Claude Code');
    expect(text).toContain('Never write files, edit code or run tests yourself');
    expect(text).toContain('through the Agent tool');
  });

  test('allows Bash only for glances, never cd, and says glances go stale', () => {
    expect(text).toContain('side-effect-free glances only');
    expect(text).toContain('Never `cd`');
    expect(text).toContain('goes stale');
  });

  test('cites the reference’s measured cost of restated rules and names the rules workers already have', () => {
    expect(text).toContain('The reference implementation measured');
    expect(text).toContain('8 of 8 briefs');
    expect(text).toContain('4.8k tokens');
    expect(text).toContain('four-part report of at most 30 lines');
    expect(text).toContain('`desc:` line');
  });

  test('relays only the workbench convention, asks for paths and parallel dispatch', () => {
    expect(text).toContain('Relay one convention only');
    expect(text).toContain('Give background as paths, not copied text');
    expect(text).toContain('ask only for the choice and why');
    expect(text).toContain('in parallel');
    expect(text).toContain('one decision per file');
  });

  test('names the default workbench places when no workbench is given', () => {
    expect(text).toContain('Long output goes to `.flower/artifacts/`');
    expect(text).toContain('`.flower/notes/`');
  });

  test('renders the given workbench’s paths and never the default name (decisions.md D113)', () => {
    const rendered = coordinator('c', '', { coder }, { workbench: outside, channel }).instructions;
    expect(rendered).toContain('Workbench: `/data/runs/workbench/`');
    expect(rendered).toContain('Long output goes to `/data/runs/workbench/artifacts/`');
    expect(rendered).not.toContain('.flower');
    expect(rendered).not.toContain('{{');
  });

  test('has inbox and ask rules only with a channel (decisions.md D117)', () => {
    expect(text).not.toContain('mcp__human__inbox');
    expect(text).not.toContain('mcp__human__ask');
    const withChannel = coordinator('c', '', { coder }, { channel }).instructions;
    expect(withChannel).toContain('Check `mcp__human__inbox` after each milestone');
    expect(withChannel).toContain('carry it into every later task brief');
    expect(withChannel).toContain('blocking `mcp__human__ask` only at a real fork');
    expect(withChannel).toContain('If nobody answers, decide');
  });

  test('says there is no Bash or no reading when those are off', () => {
    const bare = coordinator('c', '', { coder }, { glance: false, canRead: false }).instructions;
    expect(bare).toContain('You have no Bash');
    expect(bare).not.toContain('side-effect-free glances only');
    expect(bare).toContain('Do not read files yourself');
  });

  test('appends the caller’s instructions after the rules', () => {
    const spec = coordinator('c', '  Prefer small commits.  ', { coder });
    expect(spec.instructions.startsWith('# Your role: coordinator')).toBe(true);
    expect(spec.instructions.endsWith('\n\nPrefer small commits.')).toBe(true);
  });
});
