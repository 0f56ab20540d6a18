/**
 * `defaultWindow`: the context window the handoff threshold is computed from (docs/handoff.md).
 * Priority: an explicit value (`--window`) → `FLOWER_WINDOW` → the learned value in `CFG/.windows` → a guess
 * from the model name. Guessing high is safe: a real overflow is caught, handed off in degraded form and
 * learned, so the next run uses the measured size.
 *
 * @module
 */
import { processEnvironment, type Env } from '../config/process-environment.js';
import { uiText, type Lang } from '../config/ui-text.js';
import { FlowerError } from '../errors.js';
import type { WarningCode } from '../events/flower-event.js';
import { configuredModel, learnedWindow, readCalibration, type Calibration } from './window-calibration.js';

/** The window of a model whose name says `1m`, and the guess when nothing is known. */
export const LARGE_WINDOW = 1_000_000;
/** The window of a Haiku model. */
export const HAIKU_WINDOW = 200_000;

/** Where a window came from. */
export type WindowSource = 'explicit' | 'env' | 'calibration' | 'model';

/** Options of {@link defaultWindow} and {@link resolveWindow}. */
export interface DefaultWindowOptions {
  /** `--window` or a library caller's value: a positive whole number, or null/absent for none. */
  explicit?: number | null;
  /** Read for `FLOWER_WINDOW`, `CFG` (`XDG_CONFIG_HOME`/`HOME`), the endpoint and the model. */
  env?: Env;
  /** The calibration entries to use instead of reading `CFG/.windows` (a caller that already read them). */
  calibration?: Calibration;
  /** Language of the notice texts. */
  lang?: Lang;
}

/** A window and where it came from, with a notice for an ignored `FLOWER_WINDOW`. */
export interface ResolvedWindow {
  window: number;
  source: WindowSource;
  /** `window_env_invalid` when `FLOWER_WINDOW` is set but not a positive whole number (it is then ignored). */
  notices: { code: WarningCode; text: string }[];
}

/** The context window in tokens: see {@link resolveWindow}. */
export function defaultWindow(options: DefaultWindowOptions = {}): number {
  return resolveWindow(options).window;
}

/**
 * The context window and its source. An explicit value wins; then `FLOWER_WINDOW` when it is a positive
 * whole number (anything else is ignored and reported as `window_env_invalid`); then the learned value for
 * this endpoint and model; then {@link windowFromModelName}.
 *
 * @throws FlowerError `CONFIG_INVALID` when `explicit` is given but is not a positive whole number.
 */
export function resolveWindow(options: DefaultWindowOptions = {}): ResolvedWindow {
  const env = options.env ?? processEnvironment();
  const notices: ResolvedWindow['notices'] = [];
  const explicit = options.explicit ?? null;
  if (explicit !== null) {
    if (!Number.isSafeInteger(explicit) || explicit <= 0) {
      throw new FlowerError(
        'CONFIG_INVALID',
        `The context window must be a positive whole number of tokens, such as 200000; got ${String(explicit)}.`,
      );
    }
    return { window: explicit, source: 'explicit', notices };
  }
  const raw = env['FLOWER_WINDOW'];
  if (raw !== undefined && raw.trim() !== '') {
    const fromEnv = positiveInteger(raw);
    if (fromEnv !== null) return { window: fromEnv, source: 'env', notices };
    notices.push({ code: 'window_env_invalid', text: uiText('cfg.badWindow', { value: raw }, options.lang) });
  }
  const learned = learnedWindow(env, options.calibration ?? readCalibration(env));
  if (learned !== null) return { window: learned, source: 'calibration', notices };
  return { window: windowFromModelName(configuredModel(env)), source: 'model', notices };
}

/**
 * The window a model name suggests: a standalone `1m` token (`claude-opus-4-5[1m]`, `…-1m`) means
 * 1,000,000 and is checked first (a `haiku-…-1m` is a 1M model); a name containing `haiku` means 200,000;
 * anything else, or no name, 1,000,000.
 */
export function windowFromModelName(model: string): number {
  const name = model.toLowerCase();
  if (/(?<![a-z0-9])1m(?![a-z0-9])/.test(name)) return LARGE_WINDOW;
  if (name.includes('haiku')) return HAIKU_WINDOW;
  return LARGE_WINDOW;
}

function positiveInteger(value: string): number | null {
  const text = value.trim();
  if (!/^\d+$/.test(text)) return null;
  const number = Number(text);
  return number > 0 && Number.isSafeInteger(number) ? number : null;
}
