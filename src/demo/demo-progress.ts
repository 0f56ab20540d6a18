/**
 * What the conversation shows of `flower demo`'s own calls: their results (real, or the tool journal's "may
 * have completed"), a listing, a spill path. The scripted model reads how far it got from these alone.
 *
 * @module
 */
import type { Conversation, SeenResult } from './demo-conversation.js';

/**
 * The spill file a text points at — a spill pointer (`… spilled to .flower/spill/<hash>.txt — Read it …`) or a
 * report that passes the path on — or null.
 */
export function spillPath(seen: string): string | null {
  return /([^\s`"'()[\]]*spill\/[0-9a-f]+\.txt)/.exec(seen)?.[1] ?? null;
}

/**
 * What a careful model makes of flower's tool journal: a call of `base` answered only by "was started before
 * flower stopped and may have completed" (and never with a real result) may have had its effect, so it looks
 * before doing it again.
 */
export function unaccounted(conversation: Conversation, base: string): boolean {
  const mine = conversation.allResults.filter((seen) => seen.id.startsWith(`${base}__`));
  return (
    mine.some((seen) => seen.text.includes(JOURNALLED_PHRASE)) &&
    !mine.some((seen) => !seen.isError && !seen.text.includes(JOURNALLED_PHRASE))
  );
}

/** The real result of a call of `base` anywhere in the conversation (not the journal's "may have completed"). */
export function reported(conversation: Conversation, base: string): SeenResult | undefined {
  return conversation.allResults.find(
    (seen) => seen.id.startsWith(`${base}__`) && !seen.isError && !seen.text.includes(JOURNALLED_PHRASE),
  );
}

/** A phrase of the journal's answer to a call whose result was lost (`PLACEHOLDER_TEXT.journalled`). */
const JOURNALLED_PHRASE = 'may have completed';

/** True when a listing (`ls`, one name a line) shows `name`. */
export function listed(listing: string, name: string): boolean {
  return listing.split('\n').some((line) => line.trim() === name);
}

/** The result of a call of `base` among those sent since the model last spoke. */
export function result(conversation: Conversation, base: string): SeenResult | undefined {
  return conversation.results.find((seen) => seen.id.startsWith(`${base}__`));
}
