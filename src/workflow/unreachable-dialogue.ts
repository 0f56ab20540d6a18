/**
 * The question flower puts to a person when the judge finds the goal unreachable (docs/go-path.md): accept
 * and move on, amend the goal, or "you judged wrong, keep going". Spinning more rounds against an unreachable
 * goal is the costliest option, so when nobody answers the step stops instead (the caller throws
 * `StepAbort`). Answers are matched by option number or id, then exact text; anything else is the human's own
 * words and means "misjudged" (decisions.md D112).
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import type { HumanChannel } from '../human/human-channel.js';
import type { Verdict } from '../roles/verdict.js';
import { matchChoice, type Choice } from './answer-choice.js';
import { canReachHuman } from './human-reach.js';

/** What the human decided about an unreachable verdict. */
export type UnreachableOutcome =
  /** Nobody could be asked, or nobody answered (timeout, skipped, quota used up). */
  | { kind: 'unanswered' }
  /** Accept the result as it is and move on: the round passes. */
  | { kind: 'accept' }
  /** The goal changes: `words` is the new goal in one sentence. */
  | { kind: 'amend'; words: string }
  /** The judge was wrong; `words` is what the human said (the option's text when they picked it). */
  | { kind: 'misjudged'; words: string };

type UnreachableChoice = 'accept' | 'amend' | 'misjudged';

/**
 * Asks the human through `channel`, in `lang` (the workflow's), what to do about `verdict`; for "amend" also
 * asks for the new goal.
 */
export async function unreachableDialogue(
  channel: HumanChannel | null,
  verdict: Verdict,
  lang: Lang,
  signal?: AbortSignal,
): Promise<UnreachableOutcome> {
  if (!canReachHuman(channel)) return { kind: 'unanswered' };
  const choices: Choice<UnreachableChoice>[] = [
    { id: 'accept', text: uiText('verdict.accept', {}, lang) },
    { id: 'amend', text: uiText('verdict.amend', {}, lang) },
    { id: 'misjudged', text: uiText('verdict.misjudged', {}, lang) },
  ];
  const reason = verdict.reason === '' ? '-' : verdict.reason;
  const ask = await channel.ask(uiText('verdict.unreachableAsk', { reason }, lang), {
    options: choices.map((choice) => choice.text),
    ...(signal === undefined ? {} : { signal }),
  });
  if (ask.state !== 'answered') return { kind: 'unanswered' };
  const choice = matchChoice(ask.answer, choices);
  if (choice === 'accept') return { kind: 'accept' };
  if (choice === 'amend') {
    const followUp = await channel.ask(
      uiText('verdict.newGoal', {}, lang),
      signal === undefined ? {} : { signal },
    );
    const words = followUp.answer.trim();
    if (followUp.state !== 'answered' || words === '') return { kind: 'unanswered' };
    return { kind: 'amend', words };
  }
  return { kind: 'misjudged', words: ask.answer.trim() };
}
