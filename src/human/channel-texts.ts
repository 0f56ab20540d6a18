/**
 * What the `ask` tool returns to the model when no human answer comes (docs/human-channel.md). Every
 * fall-through tells the model to decide itself, to record the question and the assumption it adopted under
 * "Unknowns and assumptions" (the brief's record of what was guessed, the run's fuse) — and not to ask again
 * or wait, so an absent human never stalls a run. Model-facing, so English texts in `src/roles/prompts/` with
 * the other texts the model reads, rather than in the UI catalog.
 *
 * @module
 */
import { loadPrompt } from '../internal/load-prompt.js';

/** Returned when nobody answers in time. */
export const TIMEOUT_TEXT = loadPrompt('ask-timeout');

/** Returned once the question quota is used up. */
export const OVER_BUDGET_TEXT = loadPrompt('ask-over-budget');

/** Returned when the human skips a question; their words, if any, follow in parentheses. */
export const DECLINED_TEXT = loadPrompt('ask-declined');

/** Returned for an empty question, which is never put to the human and never counted. */
export const INVALID_TEXT = loadPrompt('ask-invalid');
