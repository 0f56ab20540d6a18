/**
 * What happens to goal checks that cannot be verified here (docs/go-path.md, decisions.md D104). Such a check
 * never passes, so the run would end in UNREACHABLE after all its work rounds (measured: the reference's
 * HT002 run found 4 of 15 only after $35.90 of work and $1.40 of judging). At goal time it costs nothing to
 * decide: when a person can be reached they choose to keep, drop or accept the checks; otherwise — and when
 * nobody answers — a warning says so now, while the goal file is still easy to edit.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import type { EventSink } from '../events/flower-event.js';
import type { HumanChannel } from '../human/human-channel.js';
import { Goal } from '../roles/goal.js';
import { matchChoice, type Choice } from './answer-choice.js';
import { canReachHuman } from './human-reach.js';
import { warningEvent } from './workflow-events.js';

/** The human's choice for the unverifiable checks. */
export type UnverifiableChoice = 'keep' | 'drop' | 'accept';

/** Options of {@link settleUnverifiable}. */
export interface SettleUnverifiableOptions {
  /** The goal file, named in the warning. */
  goalPath: string;
  /** Where the warning goes (the workflow's sink); null = nobody listens. */
  sink: EventSink | null | undefined;
  /** The step that set the goal, for the warning's `step`. */
  step: string;
  /** The language of the question and the warning: the workflow's (`ctx._lang`). */
  lang: Lang;
}

/**
 * The goal to freeze after dealing with its unverifiable checks: unchanged for "keep", for a question nobody
 * answered and when nobody can be asked (then with an `unverifiable_checks` warning); without them for
 * "drop"; with them moved from the checklist into the statement as the human's own after-run checks for
 * "accept". Nobody is asked when every check is unverifiable: dropping them would leave nothing to judge.
 */
export async function settleUnverifiable(
  goal: Goal,
  channel: HumanChannel | null,
  options: SettleUnverifiableOptions,
): Promise<Goal> {
  const unverifiable = [...goal.unverifiable];
  if (unverifiable.length === 0) return goal;
  const lang = options.lang;
  const verifiable = goal.checks.filter((check) => !unverifiable.includes(check));
  if (canReachHuman(channel) && verifiable.length > 0) {
    const choices: Choice<UnverifiableChoice>[] = [
      { id: 'keep', text: uiText('goal.keep', {}, lang) },
      { id: 'drop', text: uiText('goal.drop', {}, lang) },
      { id: 'accept', text: uiText('goal.accept', {}, lang) },
    ];
    const question = uiText(
      'goal.unverifiableAsk',
      { n: unverifiable.length, items: listed(unverifiable) },
      lang,
    );
    const ask = await channel.ask(question, { options: choices.map((choice) => choice.text) });
    const choice = ask.state === 'answered' ? matchChoice(ask.answer, choices) : null;
    if (choice === 'keep') return goal;
    const blocks = verifiable.map((check) => goal.blockOf(check));
    if (choice === 'drop') return new Goal({ statement: goal.statement, checks: verifiable, blocks });
    if (choice === 'accept') {
      const list = unverifiable.map((check) => `- ${check}`).join('\n');
      const statement = `${goal.statement}\n\nLeft to the human after the run; the judge does not check these:\n${list}`;
      return new Goal({ statement, checks: verifiable, blocks });
    }
  }
  const text = uiText(
    'goal.unverifiable',
    {
      n: unverifiable.length,
      total: goal.checks.length,
      items: listed(unverifiable),
      path: options.goalPath,
    },
    lang,
  );
  options.sink?.(warningEvent('unverifiable_checks', text, options.step));
  return goal;
}

/** The checks on one line, each in quotes, for a question or a warning. */
function listed(checks: readonly string[]): string {
  return checks.map((check) => `"${check.replace(/\s+/g, ' ').trim()}"`).join('; ');
}
