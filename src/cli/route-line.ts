/**
 * Where one line typed at the live input line goes (docs/human-channel.md, the routing table): to a pending
 * interrupt, to the question waiting for an answer, to the side-question oracle, or to the agent's inbox.
 * Pure, so every cell of the table is a test row; the caller carries the decision out.
 *
 * An empty line is never end of input (the reference could not tell a bare Enter from EOF in character
 * mode and declined questions as "input closed", decisions.md D206): end of input is `null`.
 *
 * @module
 */

/** A question waiting for the human, as routing needs it. */
export interface PendingQuestion {
  id: string;
  options: readonly string[];
}

/** What is pending when the line is entered. */
export interface RouteState {
  /** Ctrl-C was pressed and its message has not been typed yet. */
  interruptPending: boolean;
  /** Questions waiting for an answer, oldest first; the oldest one is answered. */
  questions: readonly PendingQuestion[];
}

/** What to do with a line. */
export type LineRoute =
  /** The interrupt's message (may be empty: interrupt with nothing to say). */
  | { kind: 'interrupt'; message: string }
  | { kind: 'answer'; askId: string; text: string }
  /** An empty line skips the question; the agent decides itself. */
  | { kind: 'decline'; askId: string }
  | { kind: 'oracle'; question: string }
  | { kind: 'inbox'; text: string }
  | { kind: 'ignore' }
  /**
   * End of input: settle a pending interrupt with no message (the reference lost it), decline the listed
   * questions as "input closed", remove the prompt and stop reading.
   */
  | { kind: 'eof'; interrupt: boolean; decline: string[] };

/**
 * Lines beginning with either mark are side questions; the full-width one was missed by the reference
 * (decisions.md D204).
 */
const SIDE_MARKS = ['?', '\uff1f'] as const;

/** The reason given to the model for questions declined at end of input. */
export const INPUT_CLOSED = 'input closed';

/** Routes `line` (`null` = end of input) given what is pending. */
export function routeLine(line: string | null, state: RouteState): LineRoute {
  const question = state.questions[0];
  if (line === null) {
    return {
      kind: 'eof',
      interrupt: state.interruptPending,
      decline: state.questions.map((pending) => pending.id),
    };
  }
  const text = line.trim();
  // While an interrupt waits for its message, every line is that message, a side mark included.
  if (state.interruptPending) return { kind: 'interrupt', message: text };
  if (text === '')
    return question === undefined ? { kind: 'ignore' } : { kind: 'decline', askId: question.id };
  const mark = SIDE_MARKS.find((candidate) => text.startsWith(candidate));
  if (mark !== undefined) {
    const asked = text.slice(mark.length).trim();
    return asked === '' ? { kind: 'ignore' } : { kind: 'oracle', question: asked };
  }
  if (question === undefined) return { kind: 'inbox', text };
  return { kind: 'answer', askId: question.id, text: pickedOption(text, question.options) ?? text };
}

/** Option k's text when `text` is the number k of one of `options` (1-based), else null. */
function pickedOption(text: string, options: readonly string[]): string | null {
  if (!/^[0-9]+$/.test(text)) return null;
  const picked = Number(text);
  return picked >= 1 && picked <= options.length ? (options[picked - 1] ?? null) : null;
}
