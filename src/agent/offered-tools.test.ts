import { describe, expect, test } from 'vitest';
import { agentSpec } from './agent-spec.js';
import type { Options } from './claude-sdk.js';
import { MAIN_THREAD_AGENT, offerTools } from './offered-tools.js';

const coder = { description: 'Codes.', prompt: 'Code.', tools: ['Read', 'Write', 'Glob'] };

function optionsFor(init: Parameters<typeof agentSpec>[0], env: Record<string, string> = {}): Options {
  const options: Options = { env: { ...env } };
  const spec = agentSpec(init);
  if (spec.agents !== null) options.agents = { ...spec.agents };
  offerTools(options, spec);
  return options;
}

describe('offerTools', () => {
  test('leaves Claude Code’s default set alone when the spec names no tools', () => {
    const options = optionsFor({ name: 'a', instructions: '', agents: { coder } });
    expect(options).toEqual({ env: {}, agents: { coder } });
  });

  test('cuts the built-in tools of a spec without subagents, and turns tool search off', () => {
    const options = optionsFor({ name: 'a', instructions: '', tools: ['mcp__human__ask', 'Read'] });
    expect(options.tools).toEqual(['Read']);
    expect(options.agent).toBeUndefined();
    expect(options.env).toEqual({ ENABLE_TOOL_SEARCH: 'false' });
  });

  test('keeps tool search when the set has ToolSearch, or the environment already says', () => {
    expect(optionsFor({ name: 'a', instructions: '', tools: ['Read', 'ToolSearch'] }).env).toEqual({});
    const said = optionsFor({ name: 'a', instructions: '', tools: ['Read'] }, { ENABLE_TOOL_SEARCH: 'true' });
    expect(said.env).toEqual({ ENABLE_TOOL_SEARCH: 'true' });
  });

  test('with subagents, runs the main thread as a definition with the spec’s tools and pools every list', () => {
    const options = optionsFor({
      name: 'lead',
      instructions: 'rules',
      tools: ['Agent', 'Read', 'mcp__human__ask'],
      agents: { coder },
    });
    expect(options.agent).toBe(MAIN_THREAD_AGENT);
    expect(options.agents?.[MAIN_THREAD_AGENT]).toMatchObject({
      prompt: '',
      tools: ['Agent', 'Read', 'mcp__human__ask'],
    });
    expect(options.agents?.['coder']).toBe(coder);
    expect(options.tools).toEqual(['Agent', 'Read', 'Write', 'Glob']);
    expect(options.env).toEqual({ ENABLE_TOOL_SEARCH: 'false' });
  });

  test('leaves the pool at the default when a subagent inherits every tool', () => {
    const inherits = { description: 'Anything.', prompt: 'Do it.' };
    const options = optionsFor({ name: 'lead', instructions: '', tools: ['Agent'], agents: { inherits } });
    expect(options.agent).toBe(MAIN_THREAD_AGENT);
    expect(options.tools).toBeUndefined();
    expect(options.env).toEqual({});
  });
});
