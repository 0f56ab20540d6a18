/**
 * The typo trap of a default subcommand (a known trap of CLIs with a default subcommand): with `go` as the
 * default, `flower setpu` would become a paid task "setpu". A single bare word close to a subcommand name is
 * refused instead.
 *
 * @module
 */

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

/** Optimal-string-alignment distance: Levenshtein plus transposition of adjacent characters. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  const at = (row: number, column: number): number => table[row]?.[column] ?? 0;
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let value = Math.min(at(row - 1, column) + 1, at(row, column - 1) + 1, at(row - 1, column - 1) + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        value = Math.min(value, at(row - 2, column - 2) + 1);
      }
      (table[row] as number[])[column] = value;
    }
  }
  return at(rows - 1, columns - 1);
}
