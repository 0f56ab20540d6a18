/**
 * A value of unknown type as text: `String(value)` for a primitive, but JSON for an object, so a stray
 * object reads as its content rather than as "[object Object]".
 *
 * @module
 */

/** '' for `undefined` and `null`; the string itself; `String()` of another primitive; JSON of an object. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint' ||
    typeof value === 'symbol' ||
    typeof value === 'function'
  ) {
    return String(value);
  }
  return JSON.stringify(value);
}
