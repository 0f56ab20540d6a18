import { describe, expect, test } from 'vitest';
import { HumanChannel } from '../human/human-channel.js';
import type { ChannelLike } from './channel-like.js';
import { coordinator } from './coordinator.js';

describe('ChannelLike', () => {
  test('is satisfied by HumanChannel, whose server a coordinator mounts', () => {
    const channel: ChannelLike = new HumanChannel({ timeoutS: 0 });
    expect(Object.keys(coordinator('c', '', {}, { channel }).mcpServers)).toEqual(['human']);
  });
});
