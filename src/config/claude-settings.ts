/**
 * The last fallback of the `.env` chain: borrowing the known keys from the `env` block of Claude Code's
 * `~/.claude/settings.json`, then `~/.claude/settings.local.json`. Only "where to find the token" is taken;
 * permissions, hooks and every other setting stay unread (the agent still runs with `settingSources: []`).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_KEYS } from './known-keys.js';

/** The known keys one Claude Code settings file offers. */
export interface BorrowedSettings {
  /** Absolute path of the settings file. */
  file: string;
  /** Known keys with non-empty values, stringified. */
  values: Record<string, string>;
}

function stringify(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return String(value);
  return null;
}

/**
 * Read one settings file's `env` block, keeping only {@link KNOWN_KEYS} with non-empty values. A missing,
 * unreadable or invalid file gives no values: a broken fallback must never stop a run.
 */
export function readSettingsEnv(file: string): Record<string, string> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
  if (typeof data !== 'object' || data === null) return {};
  const env = (data as { env?: unknown }).env;
  if (typeof env !== 'object' || env === null || Array.isArray(env)) return {};
  const values: Record<string, string> = {};
  for (const key of KNOWN_KEYS) {
    const value = stringify((env as Record<string, unknown>)[key]);
    if (value !== null) values[key] = value;
  }
  return values;
}

/** The two Claude Code settings files under `home`, in lookup order, with what each offers. */
export function borrowClaudeSettings(home: string): BorrowedSettings[] {
  return ['settings.json', 'settings.local.json'].map((name) => {
    const file = join(home, '.claude', name);
    return { file, values: readSettingsEnv(file) };
  });
}
