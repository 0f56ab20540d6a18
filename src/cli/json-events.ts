/**
 * `--json` on `once`, `run` and `go`: every event of the run as one line of JSON on standard output, in the
 * format of the run's event log `events.jsonl` (the log's own serialiser writes both, so they cannot drift),
 * and nothing else there — the human view stays on standard error. This is what users of
 * `claude -p --output-format stream-json` or `codex exec --json` pipe into `jq`.
 *
 * @module
 */
import type { EventSink, FlowerEvent } from '../events/flower-event.js';
import { eventLine } from '../runtime/event-log.js';
import type { OutputStream } from './cli-io.js';

/** A sink that writes each event to `stream` as one JSON line (`pid` is the writer's, as in the log). */
export function jsonEventSink(stream: OutputStream, pid: number = process.pid): EventSink {
  return (event: FlowerEvent): void => {
    // Stream progress is for the screen, and the event log leaves it out too.
    if (event.kind === 'stream') return;
    stream.write(`${eventLine(event, pid)}\n`);
  };
}
