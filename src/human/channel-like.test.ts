import { describe, expect, test } from 'vitest';
import type { ChannelLike } from '../roles/channel-like.js';
import { coordinator } from '../roles/coordinator.js';
import { HumanChannel } from './human-channel.js';

describe('ChannelLike', () => {
  test('is satisfied by HumanChannel, whose server a coordinator mounts', () => {
    const channel: ChannelLike = new HumanChannel({ timeoutS: 0 });
    expect(Object.keys(coordinator('c', '', {}, { channel }).mcpServers)).toEqual(['human']);
  });
});
