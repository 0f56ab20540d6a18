/**
 * The `-v` configuration dump (docs/configuration.md): one `KEY = value` line per known key that has a
 * value, secrets masked, the default base URL when none is set, `FLOWER_WINDOW`, the plugin directory, and
 * the odd `.env` lines (file:line, never a value).
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { displayPath } from './config-dir.js';
import type { DotenvProblem } from './dotenv-parser.js';
import { DEFAULT_BASE_URL, isSecretKey, KNOWN_KEYS } from './known-keys.js';
import type { FlowerConfig } from './load-config.js';
import { PLUGIN_DIR } from './package-info.js';
import { processEnvironment, type Env } from './process-environment.js';
import { languageOf, uiText, type Lang } from './ui-text.js';

/** Extra facts for {@link describeConfig}; taken from the config when one is passed. */
export interface DescribeConfigOptions {
  /** Key → file that supplied it; with it, each line says where its value came from. */
  sources?: Readonly<Record<string, string>>;
  /** Odd `.env` lines to report. */
  problems?: readonly DotenvProblem[];
  /** The plugin directory whose presence is reported; {@link PLUGIN_DIR} by default. */
  pluginDir?: string;
}

// Switches shown only when set, after the known keys.
const FLOWER_SWITCHES = [
  'FLOWER_LANG',
  'FLOWER_NO_UPDATE',
  'FLOWER_NO_PROBE',
  'FLOWER_STALL_TIMEOUT',
  'FLOWER_UNREACHABLE_WAIT',
  'FLOWER_SANDBOX',
  'FLOWER_PRICES',
];

/**
 * A secret for the screen: its first 4 characters and its length. Values of 8 characters or fewer show no
 * characters at all, since 4 of them would be half the secret.
 */
export function maskSecret(value: string, lang: Lang = 'en'): string {
  const prefix = value.length > 8 ? value.slice(0, 4) : '';
  return prefix + uiText('mask', { n: value.length }, lang);
}

function isConfig(value: Env | FlowerConfig): value is FlowerConfig {
  return typeof (value as { env?: unknown }).env === 'object';
}

/** The dump's lines, without colour; the caller prints them dim through the sink. */
export function describeConfig(
  source: Env | FlowerConfig = processEnvironment(),
  options: DescribeConfigOptions = {},
): string[] {
  const config = isConfig(source) ? source : null;
  const env = config ? config.env : (source as Env);
  const sources = options.sources ?? config?.sources;
  const problems = options.problems ?? config?.problems ?? [];
  const lang = languageOf(env);
  const origin = (key: string): string => {
    if (!sources) return '';
    const file = sources[key];
    return (
      ' ' +
      uiText('cfg.from', { source: file ? displayPath(file, env) : uiText('cfg.shell', {}, lang) }, lang)
    );
  };

  const lines: string[] = [];
  for (const key of KNOWN_KEYS) {
    const value = env[key];
    if (!value) continue;
    lines.push(`${key} = ${isSecretKey(key) ? maskSecret(value, lang) : value}${origin(key)}`);
  }
  if (!env['ANTHROPIC_BASE_URL']) {
    lines.push(`ANTHROPIC_BASE_URL = ${DEFAULT_BASE_URL} ${uiText('mask.default', {}, lang)}`);
  }

  const window = env['FLOWER_WINDOW'];
  if (!window) lines.push(`FLOWER_WINDOW = ${uiText('cfg.window.unset', {}, lang)}`);
  else {
    const valid = /^\s*\d+\s*$/.test(window) && Number(window) > 0;
    lines.push(
      `FLOWER_WINDOW = ${window}${valid ? '' : ' ' + uiText('cfg.ignored', {}, lang)}${origin('FLOWER_WINDOW')}`,
    );
  }
  const flowerEnv = env['FLOWER_ENV'];
  if (flowerEnv) {
    lines.push(
      `FLOWER_ENV = ${flowerEnv}${existsSync(flowerEnv) ? '' : ' ' + uiText('cfg.fileMissing', {}, lang)}`,
    );
  }
  for (const key of FLOWER_SWITCHES) {
    const value = env[key];
    if (value) lines.push(`${key} = ${value}${origin(key)}`);
  }

  const pluginDir = options.pluginDir ?? PLUGIN_DIR;
  lines.push(
    uiText(existsSync(pluginDir) ? 'cfg.plugin.present' : 'cfg.plugin.absent', { path: pluginDir }, lang),
  );
  for (const problem of problems) {
    lines.push(
      uiText(
        `cfg.problem.${problem.problem}`,
        { file: displayPath(problem.file, env), line: problem.line },
        lang,
      ),
    );
  }
  return lines;
}
