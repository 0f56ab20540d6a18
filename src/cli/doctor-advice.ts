/**
 * What each `flower doctor` rule means and what to do about it, one line each (docs/doctor.md has the long
 * form). Kept beside the command, not in the checks: the checks return facts, the screen explains them.
 *
 * @module
 */

/** A rule's meaning and the action it calls for. */
export interface Advice {
  means: string;
  todo: string;
}

const HEALED = 'flower heals this every time it loads the transcript; nothing to do.';
const REJECTED =
  'the Messages API answers 400 to any request holding it, so the session cannot be resumed as stored.';
const START_FRESH =
  'start the run afresh (flower go --new archives the old lineage), or keep it for a bug report.';

/** Advice per rule name; {@link adviceFor} covers a rule missing here. */
const ADVICE: Readonly<Record<string, Advice>> = {
  'unanswered-tool-use': { means: 'a tool call has no result (the run stopped mid-call).', todo: HEALED },
  'synthetic-leaf': {
    means: 'the transcript ends in an "API Error" reply the harness made up.',
    todo: HEALED,
  },
  'orphan-tool-result': {
    means: `a tool result answers a call that is not in the transcript; ${REJECTED}`,
    todo: START_FRESH,
  },
  'result-out-of-place': {
    means: `a tool result is not in the user turn right after its call; ${REJECTED}`,
    todo: START_FRESH,
  },
  'broken-parent': {
    means: 'an entry names a parent that is not stored: history before it is lost on resume.',
    todo: START_FRESH,
  },
  'duplicate-uuid': {
    means: 'two entries share one uuid: the chain walk may take either.',
    todo: START_FRESH,
  },
  'duplicate-tool-use-id': { means: `two tool calls share one id; ${REJECTED}`, todo: START_FRESH },
  'duplicate-tool-result': { means: `one tool call is answered twice; ${REJECTED}`, todo: START_FRESH },
  'empty-content': { means: `a message has no content; ${REJECTED}`, todo: START_FRESH },
  'thinking-not-first': {
    means: `a thinking block follows another block of its reply; ${REJECTED}`,
    todo: START_FRESH,
  },
  'forked-chain': {
    means: 'one entry has two continuations: a resume follows only the newest, the other branch is not sent.',
    todo: 'nothing if the run went on; keep the run if history seems missing.',
  },
  'oversized-entry': {
    means: 'one entry is larger than the largest request the API accepts.',
    todo: START_FRESH,
  },
  'summary-disagrees': {
    means: 'the session list shows a title or prompt the transcript no longer has.',
    todo: 'harmless for resuming; the next append refreshes it.',
  },
  'journal-call-not-in-transcript': {
    means: 'a tool call ran but its transcript lost it (killed before the write).',
    todo: 'flower restores it from the journal on load; nothing to do.',
  },
  'manifest-invalid': {
    means: 'manifest.json cannot be read: the next run moves it aside and starts its record anew.',
    todo: 'look at the file; restore it from a copy if you keep one.',
  },
  'manifest-session-missing': {
    means: 'a manifest row names a session the store does not hold.',
    todo: 'the step cannot be resumed; run it afresh.',
  },
  'session-in-two-steps': {
    means: "two steps use one session: each would resume the other's conversation.",
    todo: START_FRESH,
  },
  'retired-session-resumed': {
    means: 'a step resumed a session that an earlier step had retired.',
    todo: START_FRESH,
  },
  'session-without-row': {
    means: 'a stored session has no manifest row (its step never finished, or another tool wrote it).',
    todo: 'nothing; the next run of that step resumes it through the lineage.',
  },
  'lineage-invalid': {
    means: 'lineage.json cannot be read: the next run quarantines it and starts every step afresh.',
    todo: 'look at the file; restore it from a copy if you keep one.',
  },
  'lineage-session-missing': {
    means: 'the lineage resumes a step from a session the store does not hold.',
    todo: 'that step starts afresh on the next run.',
  },
  'lineage-resumes-retired': {
    means: 'the lineage would resume a session that was retired.',
    todo: START_FRESH,
  },
  'flower-running': {
    means: 'a flower process is driving this run right now; findings may change as it writes.',
    todo: 'run the doctor again once it has stopped.',
  },
  'leftover-process-record': {
    means: 'processes.json holds a process that is gone (killed).',
    todo: 'nothing; the next flower clears it.',
  },
  'no-session-store': { means: 'the run has no sessions.db yet.', todo: 'nothing.' },
  'store-unreadable': {
    means: 'sessions.db cannot be opened as a session store.',
    todo: 'keep the file; see docs/session-stores.md on damaged stores.',
  },
};

/** The advice for `rule`. */
export function adviceFor(rule: string): Advice {
  return ADVICE[rule] ?? { means: rule, todo: 'see docs/doctor.md.' };
}

/** Every rule with advice (for the docs test). */
export const ADVISED_RULES: readonly string[] = Object.keys(ADVICE);
