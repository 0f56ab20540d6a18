/**
 * The one warning line for a model whose price flower had to guess (docs/configuration.md, `FLOWER_PRICES`).
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import type { WarningEvent } from '../events/flower-event.js';
import { FAMILY_MODELS, type PriceLookup } from './price-table.js';

/** `price_guessed`: which model, which price it gets instead, and how to set the right one. */
export function priceGuessWarning(
  model: string,
  lookup: PriceLookup,
  lang: Lang,
  step: string | null,
): WarningEvent {
  const like = lookup.family === null ? null : (FAMILY_MODELS[lookup.family] ?? null);
  const text =
    like === null
      ? uiText('price.unknown', { model }, lang)
      : uiText('price.family', { model, family: lookup.family ?? '', like }, lang);
  return {
    kind: 'warning',
    code: 'price_guessed',
    text,
    detail: `${model} priced as ${like ?? 'unknown ($4 in, $20 out)'}`,
    at: Date.now() / 1000,
    step,
  };
}
