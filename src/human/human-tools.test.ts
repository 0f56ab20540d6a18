// The `human` MCP server is exercised through a real MCP client over an in-memory transport: the same
// protocol the Claude Code binary speaks to it, without starting the binary (the e2e suite does that).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import type { McpServerConfig } from '../agent/claude-sdk.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { HumanChannel, TIMEOUT_TEXT } from './human-channel.js';
import { ASK_TOOL, INBOX_TOOL } from '../guards/human-tool-names.js';
import { INBOX_EMPTY, inboxReply, serverTimeoutMs } from './human-tools.js';

let dir: string;
const closers: Array<() => Promise<void>> = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-tools-'));
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  rmSync(dir, { recursive: true, force: true });
});

async function connect(config: McpServerConfig | undefined): Promise<Client> {
  if (config === undefined || !('instance' in config)) throw new Error('expected an in-process server');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await config.instance.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  closers.push(() => client.close());
  return client;
}

function replyText(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((block) => block.text ?? '').join('');
}

describe('humanMcpServers', () => {
  test('names the tools as the model calls them', () => {
    expect([ASK_TOOL, INBOX_TOOL]).toEqual(['mcp__human__ask', 'mcp__human__inbox']);
  });

  test('builds the in-process server human with a timeout past the channel timeout', () => {
    const servers = new HumanChannel({ timeoutS: 30 }).mcpServers();
    expect(Object.keys(servers)).toEqual(['human']);
    expect(servers['human']).toMatchObject({ type: 'sdk', name: 'human', timeout: 90_000 });
    expect(new HumanChannel({ timeoutS: null }).mcpServers()['human']).toMatchObject({
      timeout: 2_147_483_647,
    });
    expect(new HumanChannel().mcpServers()['human']).toMatchObject({ timeout: 1_860_000 });
  });

  test('computes the server timeout from the channel timeout', () => {
    expect(serverTimeoutMs(0)).toBe(60_000);
    expect(serverTimeoutMs(-10)).toBe(60_000);
    // Waiting forever gets the longest timer Node has; a larger value would overflow and fire at once.
    expect(serverTimeoutMs(null)).toBe(2_147_483_647);
    expect(serverTimeoutMs(1e9)).toBe(2_147_483_647);
  });

  test('lists ask and inbox with their schemas, always loaded', async () => {
    const client = await connect(new HumanChannel().mcpServers()['human']);
    const { tools } = await client.listTools();
    expect(tools.map((listed) => listed.name).sort()).toEqual(['ask', 'inbox']);
    const ask = tools.find((listed) => listed.name === 'ask');
    expect(ask?.inputSchema.required).toEqual(['question']);
    expect(Object.keys(ask?.inputSchema.properties ?? {}).sort()).toEqual(['options', 'question']);
    for (const listed of tools) expect(listed._meta?.['anthropic/alwaysLoad']).toBe(true);
  });

  test('returns the answer a human gives to a waiting ask', async () => {
    const events: FlowerEvent[] = [];
    const channel = new HumanChannel({ onEvent: (event) => events.push(event) });
    const client = await connect(channel.mcpServers()['human']);
    const call = client.callTool({
      name: 'ask',
      arguments: { question: 'Colour?', options: ['red', 'blue'] },
    });
    await expect.poll(() => channel.pending().length).toBe(1);
    expect(channel.pending()[0]).toMatchObject({ question: 'Colour?', options: ['red', 'blue'] });
    channel.answer('q1', 'blue');
    expect(replyText(await call)).toBe('blue');
  });

  test('returns the fall-through text at once when nobody can answer', async () => {
    const client = await connect(new HumanChannel({ timeoutS: 0 }).mcpServers()['human']);
    expect(replyText(await client.callTool({ name: 'ask', arguments: { question: 'Anyone?' } }))).toBe(
      TIMEOUT_TEXT,
    );
  });

  test('withdraws the question when the call is cancelled', async () => {
    const channel = new HumanChannel();
    const client = await connect(channel.mcpServers()['human']);
    const controller = new AbortController();
    const call = client.callTool({ name: 'ask', arguments: { question: 'Wait?' } }, undefined, {
      signal: controller.signal,
    });
    await expect.poll(() => channel.pending().length).toBe(1);
    controller.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => channel.pending().length).toBe(0);
  });

  test('delivers mail through the inbox tool once', async () => {
    const events: FlowerEvent[] = [];
    const amendPath = join(dir, 'brief.md');
    const channel = new HumanChannel({ onEvent: (event) => events.push(event), amendPath });
    const client = await connect(channel.mcpServers()['human']);
    expect(replyText(await client.callTool({ name: 'inbox', arguments: {} }))).toBe(INBOX_EMPTY);
    channel.send('Use tabs.');
    channel.send('Ship on Friday.');
    const reply = replyText(await client.callTool({ name: 'inbox', arguments: {} }));
    expect(reply).toBe(
      [
        'The human sent 2 message(s), oldest first:',
        '1. Use tabs.',
        '2. Ship on Friday.',
        '',
        `These messages are already appended to the brief (${amendPath}), so they survive the step boundary.`,
      ].join('\n'),
    );
    expect(events.filter((event) => event.kind === 'mail' && event.state === 'delivered')).toHaveLength(2);
    expect(replyText(await client.callTool({ name: 'inbox', arguments: {} }))).toBe(INBOX_EMPTY);
  });
});

describe('inboxReply', () => {
  const mail = (id: string, text: string) => ({ id, text, sentAt: 0, taken: true });

  test('says mail without an amend file will not survive the step boundary', () => {
    const reply = inboxReply([mail('m1', 'hi')], null, () => false);
    expect(reply).toContain('1. hi');
    expect(reply).toContain('will not survive the step boundary');
  });

  test('does not claim the brief holds mail whose amend failed', () => {
    expect(
      inboxReply([mail('m1', 'a'), mail('m2', 'b')], '/x/brief.md', (item) => item.id === 'm1'),
    ).toContain('not saved in the brief');
  });
});
