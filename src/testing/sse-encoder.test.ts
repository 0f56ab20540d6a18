import { describe, expect, test } from 'vitest';

import { encodeServerSentEvent, encodeServerSentEvents, parseServerSentEvents } from './sse-encoder.js';

describe('sse encoder', () => {
  test('writes an event line, a data line and a blank line per event', () => {
    expect(encodeServerSentEvent({ event: 'ping', data: { type: 'ping' } })).toBe(
      'event: ping\ndata: {"type":"ping"}\n\n',
    );
  });

  test('parses what it encodes', () => {
    const events = [
      { event: 'message_stop', data: { type: 'message_stop' } },
      { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'a\nb' } } },
    ];
    expect(parseServerSentEvents(encodeServerSentEvents(events))).toEqual(events);
  });
});
