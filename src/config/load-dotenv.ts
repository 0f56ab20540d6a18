/**
 * The `.env` chain (docs/configuration.md, decisions.md D18). Sources, per key first-wins: the target
 * environment itself (an empty value does not block), `$FLOWER_ENV`, `./.env` in the working directory,
 * `CFG/.env`, `.env` at the package root (source checkouts only), then the `env` blocks of
 * `~/.claude/settings.json` and `settings.local.json` (known keys only). An explicit path reads only that
 * file and overrides what the target holds.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { borrowClaudeSettings } from './claude-settings.js';
import { homeDirectory, userEnvFile } from './config-dir.js';
import { parseDotenv, type DotenvProblem } from './dotenv-parser.js';
import { isSourceCheckout, PACKAGE_ROOT } from './package-info.js';
import type { Env } from './process-environment.js';
import { languageOf, uiText } from './ui-text.js';
import { FlowerError } from '../errors.js';

/** Options for {@link loadDotenv}. */
export interface LoadDotenvOptions {
  /**
   * Read only this file, overriding values already in the target; no chain, no fallback. A file that cannot
   * be read throws a `FlowerError` (`CONFIG_INVALID`).
   */
  path?: string;
  /** The environment to fill; `process.env` by default. Its `HOME`, `XDG_CONFIG_HOME` and `FLOWER_ENV` locate the chain. */
  target?: Record<string, string | undefined>;
  /** Directory whose `.env` is the third source; `process.cwd()` by default. */
  cwd?: string;
  /** Package root whose `.env` is read when it holds `.git`; `null` skips that source. Defaults to the real one. */
  packageRoot?: string | null;
}

/** What {@link loadDotenv} did: which source filled each key, and the odd lines it met. */
export interface LoadDotenvResult {
  /** Key → absolute path of the file that supplied its value. */
  filled: Record<string, string>;
  problems: DotenvProblem[];
}

/** One source of values in the chain. */
export interface DotenvSource {
  /** Absolute path of the file. */
  file: string;
  values: Record<string, string>;
  problems: DotenvProblem[];
}

function readDotenvFile(file: string, env: Env): DotenvSource | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A missing file is the normal case; anything else (a directory, no permission) is worth a -v line.
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { file, values: {}, problems: [{ file, line: 0, problem: 'unreadable' }] };
  }
  return refuseNulBytes({ file, ...parseDotenv(text, file) }, env);
}

/**
 * A NUL byte cannot be passed in an environment variable: Claude Code would fail to start with it, and the
 * runtime would retry that for minutes. So a file holding one stops flower at once, naming the line (never
 * the value, which may be a secret).
 */
function refuseNulBytes(source: DotenvSource, env: Env): DotenvSource {
  const bad = source.problems.find((problem) => problem.problem === 'nul-byte');
  if (bad === undefined) return source;
  throw new FlowerError(
    'CONFIG_INVALID',
    uiText('err.envNul', { path: source.file, line: bad.line }, languageOf(env)),
  );
}

// A file named explicitly must exist: silently reading nothing would hide a typo in the path.
function readExplicitFile(file: string, env: Env): DotenvSource {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new FlowerError('CONFIG_INVALID', uiText('err.envFile', { path: file, reason }, languageOf(env)), {
      cause: error,
    });
  }
  return refuseNulBytes({ file, ...parseDotenv(text, file) }, env);
}

/** The `.env` files of the chain, in lookup order, without duplicates (the first mention of a file stays). */
export function dotenvChainFiles(options: { env: Env; cwd: string; packageRoot: string | null }): string[] {
  const { env, cwd, packageRoot } = options;
  const files: string[] = [];
  const flowerEnv = env['FLOWER_ENV'];
  if (flowerEnv) files.push(resolve(cwd, flowerEnv));
  files.push(resolve(cwd, '.env'));
  files.push(userEnvFile(env));
  if (packageRoot !== null && isSourceCheckout(packageRoot)) files.push(resolve(packageRoot, '.env'));
  return [...new Set(files)];
}

/**
 * Every source of the chain that exists, in lookup order: the `.env` files, then the two Claude Code
 * settings files (known keys only).
 */
export function dotenvChain(options: { env: Env; cwd: string; packageRoot: string | null }): DotenvSource[] {
  const sources: DotenvSource[] = [];
  for (const file of dotenvChainFiles(options)) {
    const source = readDotenvFile(file, options.env);
    if (source) sources.push(source);
  }
  for (const borrowed of borrowClaudeSettings(homeDirectory(options.env))) {
    sources.push({ ...borrowed, problems: [] });
  }
  return sources;
}

/**
 * Fill `target` (default `process.env`) from the chain: a key is filled only while it is missing or empty,
 * so earlier sources win per key. With `path`, read only that file and override the target. Idempotent.
 */
export function loadDotenv(options: LoadDotenvOptions = {}): LoadDotenvResult {
  const target = options.target ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const filled: Record<string, string> = {};
  const problems: DotenvProblem[] = [];

  if (options.path !== undefined) {
    const source = readExplicitFile(resolve(cwd, options.path), target);
    problems.push(...source.problems);
    for (const [key, value] of Object.entries(source.values)) {
      target[key] = value;
      filled[key] = source.file;
    }
    return { filled, problems };
  }

  const packageRoot = options.packageRoot === undefined ? PACKAGE_ROOT : options.packageRoot;
  // The chain is located from the environment as it was before filling: a `.env` cannot move the chain.
  for (const source of dotenvChain({ env: { ...target }, cwd, packageRoot })) {
    problems.push(...source.problems);
    for (const [key, value] of Object.entries(source.values)) {
      if (target[key]) continue;
      target[key] = value;
      filled[key] = source.file;
    }
  }
  return { filled, problems };
}
