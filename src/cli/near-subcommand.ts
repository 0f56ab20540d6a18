/**
 * The typo trap of a default subcommand (a known trap of CLIs with a default subcommand): with `go` as the
 * default, `flower setpu` would become a paid task "setpu". A single bare word close to a subcommand name is
 * refused instead.
 *
 * @module
 */
import { editDistance } from '../internal/nearest-name.js';

export { editDistance };

/**
 * The subcommand `word` is probably a typo of, or null. Only a single word counts (no whitespace, not an
 * option); "close" = at most 2 edits (insert, delete, substitute, swap two neighbours), and fewer edits
 * than the name is long, so a short name like `go` only catches one-letter slips.
 */
export function nearSubcommand(word: string, subcommands: Iterable<string>): string | null {
  const candidate = word.trim().toLowerCase();
  if (candidate === '' || /\s/.test(candidate) || candidate.startsWith('-')) return null;
  let best: { name: string; distance: number } | null = null;
  for (const name of subcommands) {
    const distance = editDistance(candidate, name.toLowerCase());
    if (distance === 0 || distance > 2 || distance >= name.length) continue;
    if (best === null || distance < best.distance) best = { name, distance };
  }
  return best?.name ?? null;
}
