/**
 * `journalLayer`: puts back, from the base store's tool journal, the calls the gate let through that the
 * stored transcript lost (a process killed between the call and the transcript write).
 *
 * @module
 */
import type { SessionKey } from '../agent/claude-sdk.js';
import { recoverJournalledCalls, toolUseIds } from './journal-recovery.js';
import { PLACEHOLDER_TEXT } from './placeholder-text.js';
import type { StoreLayer } from './store-layer.js';

/** The subpath prefix of a subagent's transcript; the rest is the agent id the hooks report. */
const SUBAGENT_PREFIX = 'subagents/agent-';

/**
 * Journal recovery as a layer. It reads the base store's `toolJournal` and does nothing when the base has
 * none, or for a subpath that is neither the main transcript nor a subagent's.
 *
 * @param orphanText - the result text of a recovered call that never got one (the prune policy's `orphanText`).
 */
export function journalLayer(orphanText: string = PLACEHOLDER_TEXT.orphan): StoreLayer {
  return {
    name: 'journal',
    keepsPositions: false,
    apply(entries, context) {
      const journal = context.base.toolJournal;
      const agentId = agentOf(context.key);
      if (journal === undefined || journal === null || agentId === undefined) return { entries, report: {} };
      const sessionId = context.key.sessionId;
      // The calls of the transcript as stored, not as pruned: a denial prune dropped was not lost.
      const stored = toolUseIds(context.stored);
      return recoverJournalledCalls(entries, {
        storedCalls: stored,
        journalledIds: journal.idsOf(sessionId, agentId),
        journalled: journal.callsOf(sessionId, agentId, stored),
        text: PLACEHOLDER_TEXT.journalled,
        orphanText,
      });
    },
  };
}

/** The agent id of a subagent transcript, null for the main one, undefined for any other subpath. */
export function agentOf(key: SessionKey): string | null | undefined {
  if (key.subpath === undefined || key.subpath === '') return null;
  return key.subpath.startsWith(SUBAGENT_PREFIX) ? key.subpath.slice(SUBAGENT_PREFIX.length) : undefined;
}
