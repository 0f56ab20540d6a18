/**
 * Sends a run's events both to its renderer and to the run's event log `<runDir>/events.jsonl`, so `flower
 * ask` in another terminal can see what the run is doing. One helper for `run` (and `go` later), so every
 * command that runs a workflow writes the same log.
 *
 * @module
 */
import type { EventSink, FlowerEvent } from '../events/flower-event.js';
import { EventLog } from '../runtime/event-log.js';

/** The teed sink and the log behind it. */
export interface TeedEvents {
  /** Writes each event to the log, then hands it to the renderer. */
  sink: EventSink;
  log: EventLog;
  /** Closes the log (the run is no longer in progress). Idempotent. */
  close(): void;
}

/** Opens `<runDir>/events.jsonl` and returns a sink that feeds it and `renderer`. */
export function teeEvents(renderer: EventSink, runDir: string): TeedEvents {
  const log = new EventLog(runDir);
  const sink = (event: FlowerEvent): void => {
    // The log first: it never throws, while a renderer's exception would end this call.
    log.sink(event);
    renderer(event);
  };
  return { sink, log, close: () => log.close() };
}
