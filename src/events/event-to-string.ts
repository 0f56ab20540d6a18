/**
 * A plain one-line rendering of any event, for logs and the oracle's "recent events" window.
 *
 * @module
 */
import type { FlowerEvent } from './flower-event.js';

/** `[tool] text` for a tool call; otherwise the event's text, or `<kind>` when it has none. */
export function eventToString(event: FlowerEvent): string {
  if (event.kind === 'tool_call')
    return event.text === '' ? `[${event.tool}]` : `[${event.tool}] ${event.text}`;
  return event.text !== '' ? event.text : `<${event.kind}>`;
}
