/**
 * What `flower setup` does to `CFG/.env`, without any terminal: turn four answers into a plan, merge the plan
 * into the file (only the keys setup manages are replaced; other lines stay as written), write it with mode
 * 0600, and work out the environment for the rest of this run plus the warnings for later runs
 * (docs/configuration.md, decisions.md D211, D14 and D26).
 *
 * The file may be shared with the Python flower, whose parser strips every leading and trailing quote and
 * knows no comments or `export`. So a value is written bare when both parsers read it back unchanged,
 * double-quoted when only quoting makes that true, and refused when neither form would.
 *
 * @module
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { displayPath } from './config-dir.js';
import { classifyToken } from './credentials.js';
import { dotenvLineKey } from './dotenv-parser.js';
import { CREDENTIAL_KEYS } from './known-keys.js';
import { deriveConfig, reloadConfig, type FlowerConfig } from './load-config.js';
import { EN_CATALOG, uiText, type Lang } from './ui-text.js';
import { ZH_CATALOG } from './ui-text-zh.js';

/** Every key setup writes or removes. */
export const SETUP_KEYS: readonly string[] = Object.freeze([
  ...CREDENTIAL_KEYS,
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_MODEL',
  'ANTHROPIC_DEFAULT_OPUS_MODEL',
  'ANTHROPIC_DEFAULT_SONNET_MODEL',
  'FLOWER_WINDOW',
]);

/** The keys one model answer sets together. */
export const MODEL_KEYS: readonly string[] = Object.freeze([
  'ANTHROPIC_MODEL',
  'ANTHROPIC_DEFAULT_OPUS_MODEL',
  'ANTHROPIC_DEFAULT_SONNET_MODEL',
]);

/** One answer: leave the current value alone, remove it, or store a new one. */
export type SetupAnswer = { action: 'keep' } | { action: 'clear' } | { action: 'set'; value: string };

/** The four answers of the dialogue. */
export interface SetupAnswers {
  token: SetupAnswer;
  baseUrl: SetupAnswer;
  model: SetupAnswer;
  window: SetupAnswer;
}

/** Keys to store and keys to remove, in the order they are written. */
export interface SetupPlan {
  set: Record<string, string>;
  remove: string[];
}

/** Why a value cannot be stored: it starts or ends with a quote, or holds a control or line-break character. */
export type EnvValueProblem = 'quote' | 'control';

// Control characters, DEL, C1, and the Unicode line and paragraph separators: any of them could split or
// bend the line for one of the two parsers. Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const QUOTE_AT_END = /^["']|["']$/;
// Whitespace either parser might trim (JavaScript's \s plus NEL) or a comment start that flower would cut.
const NEEDS_QUOTES = /^[\s\u0085]|[\s\u0085]$|[\s\u0085]#/;

/** `null` when `value` can be stored so that flower and the Python flower read it back unchanged. */
export function envValueProblem(value: string): EnvValueProblem | null {
  if (CONTROL.test(value)) return 'control';
  if (QUOTE_AT_END.test(value)) return 'quote';
  return null;
}

/** `KEY=value`, or `KEY="value"` when the bare form would be read differently. Throws for unstorable values. */
export function formatEnvLine(key: string, value: string): string {
  const problem = envValueProblem(value);
  if (problem !== null) throw new Error(`${key}: value cannot be stored in a .env file (${problem})`);
  return NEEDS_QUOTES.test(value) ? `${key}="${value}"` : `${key}=${value}`;
}

/**
 * Turn the answers (already trimmed) into keys to set and keys to remove. Storing one kind of token removes
 * the other two (decisions.md D14).
 */
export function planSetup(answers: SetupAnswers): SetupPlan {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  const apply = (answer: SetupAnswer, keys: readonly string[]) => {
    if (answer.action === 'set') for (const key of keys) set[key] = answer.value;
    else if (answer.action === 'clear') remove.push(...keys);
  };
  if (answers.token.action === 'set') {
    const key = classifyToken(answers.token.value);
    set[key] = answers.token.value;
    remove.push(...CREDENTIAL_KEYS.filter((other) => other !== key));
  } else apply(answers.token, CREDENTIAL_KEYS);
  apply(answers.baseUrl, ['ANTHROPIC_BASE_URL']);
  apply(answers.model, MODEL_KEYS);
  apply(answers.window, ['FLOWER_WINDOW']);
  return { set, remove };
}

/** True when the plan changes nothing. */
export function isEmptyPlan(plan: SetupPlan): boolean {
  return Object.keys(plan.set).length === 0 && plan.remove.length === 0;
}

const HEADERS = new Set([EN_CATALOG['setup.fileHeader'], ZH_CATALOG['setup.fileHeader']]);

/**
 * The new file text: lines for planned keys are replaced in place (the first one) or dropped (the rest, and
 * every line of a removed key); keys not in the file yet are appended; every other line is kept byte for
 * byte. A file without setup's header line gets it on top.
 */
export function mergeEnvText(existing: string | null, plan: SetupPlan, header: string): string {
  const newline = existing?.includes('\r\n') ? '\r\n' : '\n';
  const lines = existing ? existing.split(/\r\n|\n/) : [];
  if (lines.at(-1) === '') lines.pop();
  const touched = new Set([...Object.keys(plan.set), ...plan.remove]);
  const placed = new Set<string>();
  const output: string[] = [];
  for (const line of lines) {
    const key = dotenvLineKey(line);
    if (key === null || !touched.has(key)) {
      output.push(line);
      continue;
    }
    const value = plan.set[key];
    if (value !== undefined && !placed.has(key)) {
      output.push(formatEnvLine(key, value));
      placed.add(key);
    }
  }
  for (const [key, value] of Object.entries(plan.set)) {
    if (!placed.has(key)) output.push(formatEnvLine(key, value));
  }
  if (!lines.some((line) => HEADERS.has(line.trim()))) output.unshift(header, '');
  return output.join(newline) + newline;
}

/**
 * Merge `plan` into `file` and leave it readable only by its owner. The text goes to a temporary file
 * created with mode 0600 and renamed over the old one, so the secret is never world-readable, not even for
 * a moment, and a crash leaves either the old or the new file.
 */
export function writeSetupFile(file: string, plan: SetupPlan, header: string): void {
  let existing: string | null = null;
  try {
    existing = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const text = mergeEnvText(existing, plan, header);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  try {
    chmodSync(temporary, 0o600); // the umask or an odd filesystem may have widened it
  } catch {
    // Some filesystems (and Windows) have no such modes; the file is still written.
  }
  renameSync(temporary, file);
}

/** The environment for the rest of this run after setup saved, and what to tell the user about later runs. */
export interface SetupOutcome {
  config: FlowerConfig;
  warnings: string[];
}

/**
 * After saving: reload the configuration as the next run will see it, then make the saved values win for
 * this run (as the reference's reload "with override" did) and drop removed keys that came from a file.
 * Whenever the next run will see something else — the shell exports the key, or a file read before
 * `CFG/.env` sets it — say so (decisions.md D26).
 */
export function settleAfterSetup(
  config: FlowerConfig,
  plan: SetupPlan,
  file: string,
  lang: Lang,
): SetupOutcome {
  const later = reloadConfig(config);
  const env: Record<string, string | undefined> = { ...later.env };
  const sources: Record<string, string> = { ...later.sources };
  const warnings: string[] = [];
  const where = (key: string) => {
    const source = later.sources[key];
    return source === undefined ? null : displayPath(source, later.env);
  };

  for (const [key, value] of Object.entries(plan.set)) {
    if (later.env[key] !== value) {
      const source = where(key);
      warnings.push(
        source === null
          ? uiText('setup.shadow.shell', { key }, lang)
          : uiText('setup.shadow.file', { key, source }, lang),
      );
    }
    env[key] = value;
    sources[key] = file;
  }
  for (const key of plan.remove) {
    if (!later.env[key]) continue;
    const source = where(key);
    warnings.push(
      uiText('setup.shadow.cleared', { key, source: source ?? uiText('cfg.shell', {}, lang) }, lang),
    );
    // A value exported in the shell stays for this run, as the reference kept it; one from a file goes.
    if (source !== null) {
      delete env[key];
      delete sources[key];
    }
  }
  return { config: deriveConfig({ env, sources, problems: later.problems }, config), warnings };
}
