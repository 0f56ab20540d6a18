/**
 * `loadConfig()`: the process environment plus the `.env` chain, read once into a frozen {@link FlowerConfig}.
 * The process environment itself is left untouched; the rest of the program passes `config.env` around, and
 * the agent subprocess gets an environment built from it (decisions.md D4 and D17).
 *
 * @module
 */
import { configDir } from './config-dir.js';
import type { DotenvProblem } from './dotenv-parser.js';
import { loadDotenv } from './load-dotenv.js';
import { processEnvironment, type Env } from './process-environment.js';
import { readPriceOverrides, type PriceOverrides } from './price-overrides.js';
import { languageOf, uiText, type Lang } from './ui-text.js';

/** Everything flower reads from its environment, resolved once. */
export interface FlowerConfig {
  /** The merged environment: the process environment first, then the `.env` chain filling gaps per key. */
  env: Env;
  /** UI language from `FLOWER_LANG`. */
  lang: Lang;
  /** `CFG`, the per-user folder holding `.env`, `.windows` and the update state. */
  configDir: string;
  /** `FLOWER_WINDOW` when it is a positive integer, else `null`. */
  window: number | null;
  /** `FLOWER_STALL_TIMEOUT` in seconds when it is a positive number, else `null`. */
  stallTimeoutS: number | null;
  /** `FLOWER_UNREACHABLE_WAIT` in seconds when it is a number of 0 or more, else `null` (the default, 60). */
  unreachableWaitS: number | null;
  /** `FLOWER_NO_UPDATE` is non-empty. */
  noUpdate: boolean;
  /** `FLOWER_NO_PROBE` is non-empty. */
  noProbe: boolean;
  /** False when `FLOWER_SANDBOX` is `off`: the agent's Bash then runs outside Claude Code's sandbox. */
  sandbox: boolean;
  /** Odd lines met while reading `.env` files (shown under `-v`, never with values). */
  problems: readonly DotenvProblem[];
  /** Key → absolute path of the file that supplied it; keys absent here came from the process environment. */
  sources: Readonly<Record<string, string>>;
  /** One-line warnings to show once at startup (an invalid `FLOWER_WINDOW`, say). */
  warnings: readonly string[];
  /** The user's prices from `FLOWER_PRICES` (docs/configuration.md); absent or null = the built-in table. */
  prices?: PriceOverrides | null;
}

/** Options for {@link loadConfig}. */
export interface LoadConfigOptions {
  /** Directory whose `.env` is read; `process.cwd()` by default. */
  cwd?: string;
  /** Read only this `.env` file (over the base environment) instead of the chain. */
  envFile?: string;
  /** The base environment; the process environment by default. Tests pass a scratch one. */
  env?: Env;
  /** Package root for the source-checkout `.env`; `null` skips it. Defaults to the installed package. */
  packageRoot?: string | null;
}

// How each config was loaded, so reloadConfig() can repeat it without widening the public type.
const origins = new WeakMap<FlowerConfig, LoadConfigOptions>();

function positiveInteger(value: string | undefined): number | null {
  const text = (value ?? '').trim();
  if (!/^\d+$/.test(text)) return null;
  const number = Number(text);
  return number > 0 && Number.isSafeInteger(number) ? number : null;
}

/** `FLOWER_SANDBOX`: `off` turns the sandbox off; empty or `on` leaves it on; null for any other value. */
function sandboxSwitch(value: string | undefined): boolean | null {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'on') return true;
  return text === 'off' ? false : null;
}

function positiveSeconds(value: string | undefined): number | null {
  const text = (value ?? '').trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const number = Number(text);
  return number > 0 ? number : null;
}

/** Seconds from a setting, 0 allowed; null when unset or not a plain number. */
function secondsOrZero(value: string | undefined): number | null {
  const text = (value ?? '').trim();
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : null;
}

/**
 * Build a frozen config from an already merged environment. Used by {@link loadConfig} and by setup, which
 * adjusts the environment for the current run after saving.
 */
export function deriveConfig(
  parts: { env: Env; sources?: Readonly<Record<string, string>>; problems?: readonly DotenvProblem[] },
  origin?: FlowerConfig,
): FlowerConfig {
  const env = Object.freeze({ ...parts.env });
  const lang = languageOf(env);
  const window = positiveInteger(env['FLOWER_WINDOW']);
  const stallTimeoutS = positiveSeconds(env['FLOWER_STALL_TIMEOUT']);
  const unreachableWaitS = secondsOrZero(env['FLOWER_UNREACHABLE_WAIT']);
  const warnings: string[] = [];
  if (env['FLOWER_WINDOW'] && window === null) {
    warnings.push(uiText('cfg.badWindow', { value: env['FLOWER_WINDOW'] }, lang));
  }
  if (env['FLOWER_STALL_TIMEOUT'] && stallTimeoutS === null) {
    warnings.push(uiText('cfg.badStall', { value: env['FLOWER_STALL_TIMEOUT'] }, lang));
  }
  // A typo must not open the shell up: anything but `off` keeps the sandbox.
  const sandbox = sandboxSwitch(env['FLOWER_SANDBOX']);
  if (sandbox === null) warnings.push(uiText('cfg.badSandbox', { value: env['FLOWER_SANDBOX'] ?? '' }, lang));
  const unreachableSetting = env['FLOWER_UNREACHABLE_WAIT'] ?? '';
  if (unreachableSetting !== '' && unreachableWaitS === null) {
    warnings.push(uiText('cfg.badUnreachable', { value: unreachableSetting }, lang));
  }
  const prices = readPriceOverrides(env['FLOWER_PRICES'], {
    fromFile: parts.sources?.['FLOWER_PRICES'],
    cwd: process.cwd(),
  });
  if (prices.problem !== null) warnings.push(uiText('cfg.badPrices', { why: prices.problem }, lang));
  const config: FlowerConfig = Object.freeze({
    env,
    prices: prices.overrides,
    lang,
    configDir: configDir(env),
    window,
    stallTimeoutS,
    unreachableWaitS,
    noUpdate: Boolean(env['FLOWER_NO_UPDATE']),
    noProbe: Boolean(env['FLOWER_NO_PROBE']),
    sandbox: sandbox ?? true,
    problems: Object.freeze((parts.problems ?? []).map((problem) => Object.freeze({ ...problem }))),
    sources: Object.freeze({ ...parts.sources }),
    warnings: Object.freeze(warnings),
  });
  const from = origin ? origins.get(origin) : undefined;
  if (from) origins.set(config, from);
  return config;
}

/**
 * Read the environment once: the base environment (the process environment unless `env` is given), then
 * the `.env` chain filling each missing or empty key — or, with `envFile`, only that file, overriding.
 */
export function loadConfig(options: LoadConfigOptions = {}): FlowerConfig {
  const base = options.env ?? processEnvironment();
  const target: Record<string, string | undefined> = { ...base };
  const cwd = options.cwd ?? process.cwd();
  const { filled, problems } =
    options.envFile !== undefined
      ? loadDotenv({ path: options.envFile, target, cwd })
      : loadDotenv({
          target,
          cwd,
          ...(options.packageRoot !== undefined ? { packageRoot: options.packageRoot } : {}),
        });
  const config = deriveConfig({ env: target, sources: filled, problems });
  origins.set(config, { ...options, env: base, cwd });
  return config;
}

/**
 * Load again the way `config` was loaded (same base environment, directory and file choice), picking up
 * files changed since — what the next run of flower would see. A config not made by {@link loadConfig} is
 * reloaded from the process environment and the current directory.
 */
export function reloadConfig(config: FlowerConfig): FlowerConfig {
  return loadConfig(origins.get(config) ?? {});
}
