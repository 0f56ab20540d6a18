/**
 * What the `ask` tool returns to the model when no human answer comes (docs/human-channel.md). Every
 * fall-through tells the model to decide itself, to record the question and the assumption it adopted under
 * "Unknowns and assumptions" (the brief's record of what was guessed, the run's fuse) — and not to ask again
 * or wait, so an absent human never stalls a run. Model-facing, so English literals kept beside the code
 * rather than in the UI catalog.
 *
 * @module
 */

/** Returned when nobody answers in time. */
export const TIMEOUT_TEXT =
  'Nobody answered. Decide for yourself: write the question and the assumption you adopted under ' +
  '"Unknowns and assumptions", then carry on. Do not ask this again and do not stop to wait.';

/** Returned once the question quota is used up. */
export const OVER_BUDGET_TEXT =
  'The question quota is used up: stop asking. Put any remaining doubts, each with the assumption you ' +
  'adopted, under "Unknowns and assumptions", and continue.';

/** Returned when the human skips a question; their words, if any, follow in parentheses. */
export const DECLINED_TEXT =
  'The human skipped this question. Decide for yourself: write the question and the assumption you ' +
  'adopted under "Unknowns and assumptions", then carry on. Do not ask this again.';

/** Returned for an empty question, which is never put to the human and never counted. */
export const INVALID_TEXT =
  'The question was empty, so nothing was asked. To ask, put one concrete question in `question`.';
