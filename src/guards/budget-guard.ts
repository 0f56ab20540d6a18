/**
 * The budget gate (docs/runtime.md, decisions.md D325): once the projected cost of going on — the spend so
 * far plus the running turn's estimate — crosses a cap, no new spending starts. A new `Agent` dispatch is
 * denied with the reason; a worker that is running is told to wrap up (its next tool is denied with a
 * request to report now); a tool the main thread asks for is denied and its turn ended there
 * (`continue: false`), so the request that would follow it is never sent.
 *
 * @module
 */
import type { Guard, GuardDecision } from './guard.js';

/** Where the step's budget stands, as the gate asks it before each tool call. */
export interface BudgetGate {
  /**
   * The cap the projection crossed, with the reason to give the model; null while there is room.
   * `toolUseId` is the tool call being decided, whose own response may not be counted yet.
   */
  closed(toolUseId?: string): { reason: string } | null;
  /** The main thread asked for more after the cap closed: its turn ends here, as a budget stop. */
  stopMainThread(): void;
}

/** The words a worker reads when its next tool is denied because the budget closed. */
export const WRAP_UP =
  'Wrap up now: reply with what you have done and what is left, in a few lines, and call no more tools.';

/**
 * The two guards over every tool, fail-open (a broken gate must not stop the run by itself): PreToolUse
 * decides as above; PostToolUse stops the main thread when a worker it dispatched returns after the cap
 * closed, before the request that would carry the worker's answer.
 */
export function budgetGuards(gate: BudgetGate): Guard[] {
  return [preToolUse(gate), postToolUse(gate)];
}

function postToolUse(gate: BudgetGate): Guard {
  return {
    name: 'budget-after',
    event: 'PostToolUse',
    matcher: '',
    failClosed: false,
    decide(input): GuardDecision {
      if (input.agentId !== null) return { action: 'pass' };
      const closed = gate.closed();
      if (closed === null) return { action: 'pass' };
      gate.stopMainThread();
      return { action: 'stop', reason: closed.reason };
    },
  };
}

function preToolUse(gate: BudgetGate): Guard {
  return {
    name: 'budget',
    event: 'PreToolUse',
    matcher: '',
    failClosed: false,
    decide(input): GuardDecision {
      const closed = gate.closed(input.toolUseId);
      if (closed === null) return { action: 'pass' };
      if (input.agentId !== null) {
        if (input.toolName === 'Agent' || input.toolName === 'Task') {
          return { action: 'deny', reason: `${closed.reason} No new workers. ${WRAP_UP}` };
        }
        return { action: 'deny', reason: `${closed.reason} ${WRAP_UP}` };
      }
      gate.stopMainThread();
      const dispatch = input.toolName === 'Agent' || input.toolName === 'Task';
      return { action: 'stop', reason: dispatch ? `${closed.reason} No new workers.` : closed.reason };
    },
  };
}
