/**
 * The faults `flower chaos` injects at a message boundary (docs/reliability.md, "flower chaos"): a SIGKILL of
 * flower's whole process group (flower, its Claude Code child and the tools they started), or one answer of
 * the fake Messages API replaced by a failure the real API or network produces, or the run directory's file
 * system filled (`disk-full`, `full-disk.ts`).
 *
 * @module
 */
import type { FakeResponse } from '../testing/fake-response.js';

/** Every fault, in the order the table shows them. */
export const CHAOS_FAULTS = [
  'sigkill',
  'cut',
  '401',
  '429',
  '529',
  '500',
  'refuse',
  'stall',
  'disk-full',
] as const;

/** One fault name. */
export type ChaosFault = (typeof CHAOS_FAULTS)[number];

/** True when `name` is a fault `flower chaos` knows. */
export function isChaosFault(name: string): name is ChaosFault {
  return (CHAOS_FAULTS as readonly string[]).includes(name);
}

/** Seconds the `refuse` fault keeps the fake's port closed. */
export const REFUSE_SECONDS = 3;

/**
 * flower's stall watchdog (`FLOWER_STALL_TIMEOUT`) in the `stall` fault's runs: the default 120 s would make
 * one case last minutes; short enough for CI, long enough that a loaded machine's slow start is no stall.
 */
export const STALL_WATCHDOG_SECONDS = 15;

/** Seconds the `429` fault asks the client to wait. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * How a fault can leave an answer the fake served in no record of the run — so that no process could price
 * it — or null for a fault that cannot: every record of the answer is flower's to write then, and the cost
 * check sets nothing aside. A SIGKILL takes Claude Code's transcript buffer and flower alike before the
 * answer is written (docs/decisions.md D339); a full run directory has no room for it in any record
 * (the first failed write stops the run; docs/decisions.md D352).
 */
export function unrecordedReason(fault: ChaosFault): string | null {
  switch (fault) {
    case 'sigkill':
      return 'in no record when the process group was killed';
    case 'disk-full':
      return 'in no record: served while the run directory was full';
    default:
      return null;
  }
}

/**
 * The answer that replaces the boundary's own for an HTTP or stream fault; null for the faults that are not
 * an answer (`sigkill` acts on the process, `refuse` on the listener).
 */
export function faultResponse(fault: ChaosFault): FakeResponse | null {
  switch (fault) {
    case 'cut':
      // Headers and the message start, then the socket dies: the client has a partial answer.
      return { kind: 'cut', afterEvents: 2 };
    case '401':
      return { kind: 'status', status: 401 };
    case '429':
      return { kind: 'status', status: 429, retryAfterS: RETRY_AFTER_SECONDS };
    case '529':
      return { kind: 'status', status: 529 };
    case '500':
      return { kind: 'status', status: 500 };
    case 'stall':
      return { kind: 'stall', afterEvents: 2 };
    case 'sigkill':
    case 'refuse':
    case 'disk-full':
      return null;
  }
}
