/**
 * The options of a `HumanChannel`: where its events, log and brief amendments go, its quota and its
 * timeout, and the fall-through texts the model reads.
 *
 * @module
 */
import type { EventSink } from '../events/flower-event.js';

/** Options of {@link HumanChannel}. */
export interface HumanChannelOptions {
  /** Receives `ask`, `answer` and `mail` events; a throwing sink is recorded in `uiErrors`. */
  onEvent?: EventSink | null;
  /** Most questions to put to the human; `null` (default) = unlimited, `0` = none. */
  maxAsks?: number | null;
  /** Seconds a question waits; `null` = forever, `<= 0` = fall through at once. Default 1800. */
  timeoutS?: number | null;
  /** The Q&A log (`notes/qa-log.md` on the go path); `null` = no log. */
  logPath?: string | null;
  /** The file mail is appended to (normally the brief); `null` = mail dies at the step boundary. */
  amendPath?: string | null;
  overBudgetText?: string;
  timeoutText?: string;
  declinedText?: string;
}
