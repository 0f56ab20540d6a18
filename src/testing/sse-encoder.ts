/**
 * Server-sent-event framing as the Messages API writes it. Every frame carries an `event:` line: the Claude
 * Code binary rejects data-only streams and falls back to a non-streaming request (seen when probing it).
 *
 * @module
 */

/** One server-sent event: its name and its JSON payload. */
export interface ServerSentEvent {
  event: string;
  data: unknown;
}

/** Encodes one event as `event: <name>\ndata: <json>\n\n`. */
export function encodeServerSentEvent(serverSentEvent: ServerSentEvent): string {
  return `event: ${serverSentEvent.event}\ndata: ${JSON.stringify(serverSentEvent.data)}\n\n`;
}

/** Encodes several events back to back. */
export function encodeServerSentEvents(serverSentEvents: readonly ServerSentEvent[]): string {
  return serverSentEvents.map(encodeServerSentEvent).join('');
}

/** Splits an SSE stream back into events (for tests and for readers of recorded fixtures). */
export function parseServerSentEvents(stream: string): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  for (const frame of stream.split('\n\n')) {
    if (frame.trim() === '') continue;
    let event = 'message';
    const dataLines: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith('event:')) event = line.slice('event:'.length).trim();
      else if (line.startsWith('data:')) dataLines.push(line.slice('data:'.length).trimStart());
    }
    events.push({ event, data: dataLines.length > 0 ? JSON.parse(dataLines.join('\n')) : null });
  }
  return events;
}
