/**
 * Reading a human's answer to a framework question that offered options (decisions.md D112). The
 * reference matched the first four (or two) characters of an option's text, which broke as soon as the
 * options were translated. Here: the option's number or id first, then its exact text, and anything else is
 * free text for the caller to interpret.
 *
 * @module
 */

/** One offered option: a stable id the code acts on, and the text the human sees. */
export interface Choice<Id extends string> {
  readonly id: Id;
  readonly text: string;
}

/** `2`, `2.`, `2)`, `(2)`, `#2`: the number of an option as a person types it. */
const NUMBER = /^[(#]?\s*(\d{1,3})\s*[.)]?$/;

/**
 * The id of the option `answer` picks: by 1-based number, by id, or by the option's exact text (case and
 * surrounding blanks ignored). Null for free text, an empty answer or a number out of range.
 */
export function matchChoice<Id extends string>(answer: string, choices: readonly Choice<Id>[]): Id | null {
  const said = answer.trim();
  if (said === '') return null;
  const number = NUMBER.exec(said);
  if (number !== null) return choices[Number(number[1]) - 1]?.id ?? null;
  const folded = said.toLowerCase();
  return (
    choices.find((choice) => choice.id.toLowerCase() === folded)?.id ??
    choices.find((choice) => choice.text.trim().toLowerCase() === folded)?.id ??
    null
  );
}
