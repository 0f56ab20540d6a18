/**
 * What the model is told when a human interrupt resumes its session (docs/runtime.md, decisions.md D12). The
 * note is there because an interrupt makes in-flight tool calls come back "interrupted"; without it the
 * model spent two rounds chasing an imaginary environment fault and adopted a defensive rule (the
 * reference's HT002 run).
 *
 * @module
 */

/** Appended to every interrupt-resume prompt. */
export const INTERRUPT_NOTE =
  'Note: tool calls that were in flight when the human interrupted (questions to the human, inbox checks ' +
  'and commands a subagent had pending included) come back as "interrupted" or "user doesn\'t want to ' +
  'take this action". That is the normal side effect of the interruption, not an environment fault and ' +
  'not a veto. Do not investigate it, change strategy or add defensive rules because of it; repeat such a ' +
  'call if you still need it. Your work and your context are intact.';

/** The prompt that resumes an interrupted session: what the human said (if anything), then the note. */
export function interruptPrompt(words: string): string {
  const said = words.trim();
  const head =
    said === ''
      ? 'The human interrupted you briefly and said nothing. Continue where you were.'
      : `The human interrupted you and said:\n\n${said}\n\nAdjust to this and continue.`;
  return `${head}\n\n${INTERRUPT_NOTE}`;
}
