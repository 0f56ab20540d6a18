/**
 * A question an agent puts to the human through the channel, and where it stands.
 *
 * @module
 */

/** Where a question stands. `asked` is the only open state. */
export type AskState = 'asked' | 'answered' | 'timeout' | 'declined' | 'over_budget' | 'invalid';

/** One question from an agent. */
export interface Ask {
  /** `q<n>`; the counter is shared with mail, so ids order everything said on the channel. */
  id: string;
  question: string;
  options: string[];
  /** Epoch seconds. */
  askedAt: number;
  state: AskState;
  /** What the asking tool returns to the model (the human's words, or a fall-through instruction). */
  answer: string;
}
