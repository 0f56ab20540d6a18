import { describe, expect, test } from 'vitest';
import { ASK_TOOL, INBOX_TOOL, type ChannelLike } from '../roles/channel-like.js';
import { coordinator } from '../roles/coordinator.js';
import { HumanChannel } from './human-channel.js';
import { ASK_TOOL as HUMAN_ASK_TOOL, INBOX_TOOL as HUMAN_INBOX_TOOL } from './human-tools.js';

describe('ChannelLike', () => {
  test('names the tools the human channel’s server exposes', () => {
    expect([ASK_TOOL, INBOX_TOOL]).toEqual([HUMAN_ASK_TOOL, HUMAN_INBOX_TOOL]);
  });

  test('is satisfied by HumanChannel, whose server a coordinator mounts', () => {
    const channel: ChannelLike = new HumanChannel({ timeoutS: 0 });
    expect(Object.keys(coordinator('c', '', {}, { channel }).mcpServers)).toEqual(['human']);
  });
});
