/**
 * Window self-calibration, `CFG/.windows` (docs/handoff.md, docs/configuration.md): the smallest
 * main-thread context at which a real overflow happened, per endpoint and model. A gateway may serve a
 * model with a smaller window than its name suggests (a `…[1m]` name served as 200K overflowed at ~174K),
 * and the name guess cannot know that; after one overflow the next run hands off in time.
 *
 * The file is shared with the Python flower: JSON `{"<ANTHROPIC_BASE_URL or 'default'>|<model>": tokens}`.
 * Entries are only ever lowered, written under a lock through a temporary file and a rename; a file that
 * cannot be parsed is quarantined (`.windows.corrupt-<runId>`), never overwritten — the same protocol as
 * `manifest.json` and `lineage.json`.
 *
 * @module
 */
import { join } from 'node:path';
import { configDir } from '../config/config-dir.js';
import type { Env } from '../config/process-environment.js';
import { errorMessage } from '../internal/error-text.js';
import { isRecord } from '../internal/is-record.js';
import { LockedJsonFile } from '../internal/locked-json-file.js';
import { newRunId } from './run-id.js';

/** The calibration file's name inside `CFG`. */
export const WINDOWS_FILE = '.windows';

/** Learned windows by {@link calibrationKey}: only the usable entries (positive numbers) of the file. */
export type Calibration = Readonly<Record<string, number>>;

/** What {@link rememberOverflow} did. */
export interface OverflowRecord {
  /** The entry's key, `<base URL or 'default'>|<model or 'default'>`. */
  key: string;
  /** The entry's value after the call (`null` when nothing could be read or written). */
  window: number | null;
  /** True when the file now holds a smaller value for `key` than before. */
  lowered: boolean;
  /** Where an unreadable file was moved, and why it was unreadable; or `null`. */
  quarantined: { path: string; reason: string } | null;
  /** The file-system error that stopped the write, or `null`. The run goes on either way. */
  error: string | null;
}

/** Options of {@link rememberOverflow}. */
export interface RememberOverflowOptions {
  /**
   * The environment that names `CFG`, the endpoint and the model. Required (no process-environment
   * default) so a test can never write into the real user's configuration by forgetting it.
   */
  env: Env;
  /** Names the quarantine copy `.windows.corrupt-<runId>`; a fresh run id by default. */
  runId?: string;
}

/** `CFG/.windows`. */
export function calibrationPath(env: Env): string {
  return join(configDir(env), WINDOWS_FILE);
}

/** The model flower assumes the child uses: `ANTHROPIC_MODEL`, else `ANTHROPIC_DEFAULT_OPUS_MODEL`, else `''`. */
export function configuredModel(env: Env): string {
  const model = (env['ANTHROPIC_MODEL'] ?? '').trim();
  return model !== '' ? model : (env['ANTHROPIC_DEFAULT_OPUS_MODEL'] ?? '').trim();
}

/** The calibration key of `env`: `<ANTHROPIC_BASE_URL or 'default'>|<configured model or 'default'>`. */
export function calibrationKey(env: Env): string {
  const base = (env['ANTHROPIC_BASE_URL'] ?? '').trim();
  const model = configuredModel(env);
  return `${base !== '' ? base : 'default'}|${model !== '' ? model : 'default'}`;
}

/**
 * The usable entries of `CFG/.windows`. A missing or unreadable file reads as empty and is left as it is
 * (reading never changes anything; the next {@link rememberOverflow} quarantines it).
 */
export function readCalibration(env: Env): Calibration {
  const state = calibrationFile(env).read();
  return state.kind === 'parsed' ? usableEntries(state.value) : {};
}

/** The learned window for `env`'s endpoint and model, or `null` when none was recorded. */
export function learnedWindow(env: Env, calibration: Calibration = readCalibration(env)): number | null {
  const key = calibrationKey(env);
  return Object.hasOwn(calibration, key) ? (calibration[key] ?? null) : null;
}

/**
 * Records that the main thread overflowed at `context` tokens: the entry of `env`'s endpoint and model
 * becomes `context` unless it is already smaller. Other entries — the Python flower's too — are kept as they
 * are. Never throws: calibration must not end a run, so a failed write is reported in `error`.
 */
export function rememberOverflow(context: number, options: RememberOverflowOptions): OverflowRecord {
  const key = calibrationKey(options.env);
  const tokens = Math.floor(context);
  const record: OverflowRecord = { key, window: null, lowered: false, quarantined: null, error: null };
  const file = calibrationFile(options.env);
  try {
    if (!Number.isFinite(context) || tokens <= 0) {
      // Nothing was measured; keep what the file says.
      const state = file.read();
      record.window = state.kind === 'parsed' ? (usableEntries(state.value)[key] ?? null) : null;
      return record;
    }
    const outcome = file.update(options.runId ?? newRunId(), (current) => {
      const entries: Record<string, unknown> = isRecord(current) ? { ...current } : {};
      const known = usableEntries(entries)[key];
      if (known !== undefined && known <= tokens) {
        record.window = known;
        return undefined;
      }
      entries[key] = tokens;
      record.window = tokens;
      record.lowered = true;
      return entries;
    });
    record.quarantined = outcome.quarantined;
  } catch (error) {
    record.error = errorMessage(error);
    record.window = null;
    record.lowered = false;
  }
  return record;
}

function calibrationFile(env: Env): LockedJsonFile {
  return new LockedJsonFile(calibrationPath(env), { accepts: isRecord });
}

// Only positive finite numbers count; anything else a hand or another tool wrote is kept on disk but unused.
function usableEntries(value: unknown): Record<string, number> {
  if (!isRecord(value)) return {};
  const entries: Record<string, number> = {};
  for (const [key, tokens] of Object.entries(value)) {
    if (typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 1)
      entries[key] = Math.floor(tokens);
  }
  return entries;
}
