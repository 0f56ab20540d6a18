/**
 * The context size recorded in a stored transcript, for `SqliteSessionStore.lastContext`.
 *
 * @module
 */
import type { StatementCache } from './store-queries.js';

/**
 * Context size in tokens of the newest of the transcript's last `scan` entries whose usage adds up to more
 * than zero ({@link contextTokens}); 0 when none does.
 */
export function newestContext(statements: StatementCache, target: string, scan: number): number {
  const rows = statements.get('newestPayloads').all(target, Math.max(0, Math.floor(scan))) as Array<{
    payload: string;
  }>;
  for (const row of rows) {
    const tokens = contextTokens(row.payload);
    if (tokens > 0) return tokens;
  }
  return 0;
}

/** `input + cache_read + cache_creation` of `message.usage` in one stored payload; 0 when absent or bad. */
export function contextTokens(payload: string): number {
  let entry: unknown;
  try {
    entry = JSON.parse(payload);
  } catch {
    return 0;
  }
  const usage = (entry as { message?: { usage?: Record<string, unknown> } } | null)?.message?.usage;
  if (typeof usage !== 'object' || usage === null) return 0;
  const count = (name: string): number => {
    const value = usage[name];
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
  };
  return count('input_tokens') + count('cache_read_input_tokens') + count('cache_creation_input_tokens');
}
