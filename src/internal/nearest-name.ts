/**
 * "Did you mean": the known name a mistyped one is probably a typo of. Shared by the command line (a
 * subcommand, a workflow module's exports) and the workflow (a step reference), so every suggestion follows
 * the same rule.
 *
 * @module
 */

/**
 * The name in `names` that `word` is probably a typo of, or null. Compared without case; "close" = at most
 * 2 edits (insert, delete, substitute, swap two neighbours), and fewer edits than the name is long, so a
 * short name only catches one-letter slips. A name equal to `word` is not a suggestion.
 */
export function nearestName(word: string, names: Iterable<string>): string | null {
  const candidate = word.toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const name of names) {
    if (name === word) continue;
    const distance = editDistance(candidate, name.toLowerCase());
    if (distance > 2 || (distance >= name.length && distance > 0)) continue;
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
