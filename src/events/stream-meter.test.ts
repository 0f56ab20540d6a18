import { describe, expect, test } from 'vitest';
import { STREAM_PROGRESS_INTERVAL_MS, StreamMeter } from './stream-meter.js';

const streamEvent = (event: object, parent: string | null = null): object => ({
  type: 'stream_event',
  event,
  parent_tool_use_id: parent,
  session_id: 's',
});
const textDelta = (text: string): object => ({
  type: 'content_block_delta',
  index: 0,
  delta: { type: 'text_delta', text },
});

describe('StreamMeter', () => {
  test('reports the start, estimated progress at most every interval, and the API count at the end', () => {
    let clock = 0;
    const meter = new StreamMeter(() => clock);
    expect(meter.feed(streamEvent({ type: 'message_start', message: {} }))).toMatchObject({
      kind: 'stream',
      tokens: 0,
      done: false,
      subagent: false,
    });
    clock += 10;
    // The first count goes out at once, so a reply that pauses after it does not read as zero.
    expect(meter.feed(streamEvent(textDelta('x'.repeat(40))))).toMatchObject({ tokens: 10, done: false });
    clock += 10;
    // Too soon after that: counted, not sent.
    expect(meter.feed(streamEvent(textDelta('y'.repeat(40))))).toBeNull();
    clock += STREAM_PROGRESS_INTERVAL_MS;
    expect(meter.feed(streamEvent(textDelta('z'.repeat(40))))).toMatchObject({ tokens: 30, done: false });
    expect(
      meter.feed(streamEvent({ type: 'message_delta', delta: {}, usage: { output_tokens: 17 } })),
    ).toMatchObject({ tokens: 17, done: true });
  });

  test('counts tool input and thinking, starts again with each response, and names a subagent thread', () => {
    let clock = 0;
    const meter = new StreamMeter(() => clock);
    meter.feed(streamEvent({ type: 'message_start' }, 'toolu_1'));
    clock += STREAM_PROGRESS_INTERVAL_MS;
    const json = {
      type: 'content_block_delta',
      delta: { type: 'input_json_delta', partial_json: '{"a":"bcdefg"}' },
    };
    expect(meter.feed(streamEvent(json, 'toolu_1'))).toMatchObject({
      tokens: 4,
      subagent: true,
      parentToolUseId: 'toolu_1',
    });
    meter.feed(streamEvent({ type: 'message_start' }));
    clock += STREAM_PROGRESS_INTERVAL_MS;
    const thinking = { type: 'content_block_delta', delta: { type: 'thinking_delta', thinking: 'abcd' } };
    expect(meter.feed(streamEvent(thinking))).toMatchObject({ tokens: 1 });
    expect(meter.feed({ type: 'assistant' })).toBeNull();
  });
});
