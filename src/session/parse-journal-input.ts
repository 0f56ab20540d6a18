/**
 * `parseJournalInput`: a journalled call's input read back from its stored JSON text. The SQLite and the
 * PostgreSQL tool journals store the input the same way, so they read it back with this one function.
 *
 * @module
 */

/**
 * The object a journal row's `input` column holds, or null when the text is not JSON or not a JSON object:
 * a row whose input cannot be read is skipped rather than failing the load.
 */
export function parseJournalInput(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
