/**
 * `Name: message` for an Error, the value as text otherwise: the form for warnings and failure details,
 * where the error's class (`TypeError`, `FlowerError`) tells the reader what kind of fault it was.
 */
export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The message alone for an Error, the value as text otherwise: the form for lines that already say what
 * failed (`cannot read events.jsonl: …`), where the class name would only add noise.
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
