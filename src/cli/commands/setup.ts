/**
 * `flower setup` and the setup dialogue other commands fall back to (docs/configuration.md): four
 * questions — token, gateway URL, model, context window — merged into `CFG/.env`. The dialogue is thin:
 * validation rules live here, everything about the file lives in `src/config/setup-file.ts`.
 *
 * @module
 */
import { createColors } from 'picocolors';
import { userEnvFile } from '../../config/config-dir.js';
import { checkCredentials, presentCredential } from '../../config/credentials.js';
import { maskSecret } from '../../config/describe-config.js';
import type { FlowerConfig } from '../../config/load-config.js';
import { probeCredentials, type ProbeResult } from '../../config/probe-credentials.js';
import {
  envValueProblem,
  isEmptyPlan,
  planSetup,
  settleAfterSetup,
  writeSetupFile,
  type SetupAnswer,
} from '../../config/setup-file.js';
import { uiText, type CatalogKey, type Lang } from '../../config/ui-text.js';
import { FlowerError } from '../../errors.js';

/** The catalog keys that explain why the dialogue opens. */
export type SetupReason =
  | 'setup.reason.first'
  | 'setup.reason.probe'
  | 'setup.reason.afterFail'
  | 'setup.reason.reconfig'
  | 'setup.reason.none';

/** A validator: `undefined` accepts the answer, a string is shown and the question is asked again. */
export type AnswerCheck = (answer: string) => string | undefined;

/** How the dialogue asks; the default uses `@clack/prompts`. Each call resolves `null` when the user cancels. */
export interface SetupPrompter {
  /** Ask for a secret; the typed characters are masked. */
  secret(message: string, check: AnswerCheck): Promise<string | null>;
  /** Ask for plain text. */
  text(message: string, check: AnswerCheck): Promise<string | null>;
}

/** Options for {@link runSetup}. */
export interface RunSetupOptions {
  config: FlowerConfig;
  reason: SetupReason;
  /** Whether standard input is a terminal; without one the dialogue refuses (`NO_TTY`). */
  isTty: boolean;
  /** Prints one screen line. */
  write: (line: string) => void;
  /** Colour the lines (SGR); off by default. */
  color?: boolean;
  prompter?: SetupPrompter;
}

/** Whether the dialogue completed; when it did, `config` is the configuration for the rest of this run. */
export type SetupResult =
  { completed: true; config: FlowerConfig; file: string } | { completed: false; config: FlowerConfig };

function valueCheck(answer: string, lang: Lang): string | undefined {
  return envValueProblem(answer.trim()) === null ? undefined : uiText('setup.badValue', {}, lang);
}

/** Question 1: a token; `-` is refused because a run needs one. */
export function checkToken(lang: Lang): AnswerCheck {
  return (answer) =>
    answer.trim() === '-' ? uiText('setup.tokenRequired', {}, lang) : valueCheck(answer, lang);
}

/** Question 2: empty, `-`, or an http(s) URL without the trailing `/v1`. */
export function checkBaseUrl(lang: Lang): AnswerCheck {
  return (answer) => {
    const value = answer.trim();
    if (value === '' || value === '-') return undefined;
    if (!/^https?:\/\/[^\s/]/i.test(value) || !URL.canParse(value)) return uiText('setup.badUrl', {}, lang);
    if (/\/v1\/?$/.test(value)) return uiText('setup.urlV1', {}, lang);
    return valueCheck(value, lang);
  };
}

/** Question 3: any storable model name. */
export function checkModel(lang: Lang): AnswerCheck {
  return (answer) => valueCheck(answer, lang);
}

/** Question 4: empty, `-`, or a positive whole number (re-asked until it is one — decisions.md D205). */
export function checkWindow(lang: Lang): AnswerCheck {
  return (answer) => {
    const value = answer.trim();
    if (value === '' || value === '-') return undefined;
    return /^\d+$/.test(value) && Number(value) > 0 ? undefined : uiText('setup.badWindow', {}, lang);
  };
}

/** `''` keeps the current value, `-` clears it, anything else is stored. */
function toAnswer(answer: string): SetupAnswer {
  const value = answer.trim();
  if (value === '') return { action: 'keep' };
  if (value === '-') return { action: 'clear' };
  return { action: 'set', value };
}

/** The default prompter: `@clack/prompts`, loaded only when setup actually runs (keeps startup fast). */
export async function clackPrompter(): Promise<SetupPrompter> {
  const clack = await import('@clack/prompts');
  const ask = async (kind: 'secret' | 'text', message: string, check: AnswerCheck) => {
    const validate = (value: string | undefined) => check(value ?? '');
    const answer =
      kind === 'secret'
        ? await clack.password({ message, validate, mask: '*' })
        : await clack.text({ message, validate });
    return clack.isCancel(answer) ? null : (answer ?? '');
  };
  return {
    secret: (message, check) => ask('secret', message, check),
    text: (message, check) => ask('text', message, check),
  };
}

/**
 * Run the dialogue. Without a terminal it throws `FlowerError('NO_TTY')`. Cancelling, or giving no token when
 * none is configured, returns `completed: false` and writes nothing.
 */
export async function runSetup(options: RunSetupOptions): Promise<SetupResult> {
  const { config, write } = options;
  const lang = config.lang;
  const file = userEnvFile(config.env);
  if (!options.isTty) throw new FlowerError('NO_TTY', uiText('setup.noTty', { path: file }, lang));
  const colors = createColors(options.color ?? false);
  const text = (key: CatalogKey, vars: Record<string, string | number> = {}) => uiText(key, vars, lang);
  const prompter = options.prompter ?? (await clackPrompter());

  write('');
  write(colors.bold(colors.cyan(`== ${text('setup.title')} ${'='.repeat(40)}`)));
  write(colors.yellow(text(options.reason)));
  write(colors.dim(text('setup.where', { path: file })));

  const question = (key: CatalogKey, current: string | null, hint: 'setup.current' | 'setup.currentToken') =>
    current ? `${text(key)}\n${colors.dim(text(hint, { value: current }))}` : text(key);
  const cancelled = (): SetupResult => {
    write(text('cancelled'));
    return { completed: false, config };
  };

  const currentKey = presentCredential(config.env);
  const currentToken = currentKey ? (config.env[currentKey] ?? '') : '';
  const token = await prompter.secret(
    question('setup.q1', currentToken ? maskSecret(currentToken, lang) : null, 'setup.currentToken'),
    checkToken(lang),
  );
  if (token === null) return cancelled();
  if (token.trim() === '' && !currentToken) {
    write(colors.red(text('setup.noToken')));
    return { completed: false, config };
  }

  const baseUrl = await prompter.text(
    question('setup.q2', config.env['ANTHROPIC_BASE_URL'] || null, 'setup.current'),
    checkBaseUrl(lang),
  );
  if (baseUrl === null) return cancelled();
  const model = await prompter.text(
    question('setup.q3', config.env['ANTHROPIC_MODEL'] || null, 'setup.current'),
    checkModel(lang),
  );
  if (model === null) return cancelled();
  const window = await prompter.text(
    question('setup.q4', config.env['FLOWER_WINDOW'] || null, 'setup.current'),
    checkWindow(lang),
  );
  if (window === null) return cancelled();

  const plan = planSetup({
    token: toAnswer(token),
    baseUrl: toAnswer(baseUrl),
    model: toAnswer(model),
    window: toAnswer(window),
  });
  if (isEmptyPlan(plan)) return { completed: true, config, file };
  try {
    writeSetupFile(file, plan, text('setup.fileHeader'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new FlowerError('CONFIG_INVALID', text('setup.writeFailed', { path: file, reason }), {
      cause: error,
    });
  }
  const outcome = settleAfterSetup(config, plan, file, lang);
  write(colors.green(`+ ${text('setup.saved', { path: file })}`));
  for (const warning of outcome.warnings) write(colors.yellow(warning));
  return { completed: true, config: outcome.config, file };
}

/** One screen line for a probe result, shared by `flower setup` and the credential gate. */
export function probeLine(result: ProbeResult, lang: Lang, color = false): string {
  const colors = createColors(color);
  switch (result.verdict) {
    case 'ok':
      return result.verified
        ? colors.green(`+ ${uiText('probe.ok', {}, lang)}`)
        : colors.dim(`  ${result.reason}`);
    case 'net':
      return colors.dim(`  (${uiText('probe.net', { w: result.reason.slice(0, 80) }, lang)})`);
    case 'auth':
    case 'config':
      return colors.red(
        `! ${uiText(`probe.bad.${result.verdict}`, {}, lang)}: ${result.reason.slice(0, 160)}`,
      );
  }
}

/** What `flower setup` did: whether the dialogue completed, and the probe's verdict afterwards. */
export interface SetupCommandResult {
  completed: boolean;
  config: FlowerConfig;
  probe: ProbeResult | null;
}

/**
 * `flower setup`: the dialogue (reason "reconfiguring" when credentials exist, else "none yet"), then one
 * probe whose verdict is reported — no loop. Throws `NO_TTY` without a terminal.
 */
export async function runSetupCommand(
  options: Omit<RunSetupOptions, 'reason'> & { probeTimeoutMs?: number; signal?: AbortSignal },
): Promise<SetupCommandResult> {
  const reason: SetupReason =
    checkCredentials(options.config.env) === null ? 'setup.reason.reconfig' : 'setup.reason.none';
  const result = await runSetup({ ...options, reason });
  if (!result.completed) return { completed: false, config: result.config, probe: null };
  const colors = createColors(options.color ?? false);
  const lang = result.config.lang;
  options.write(colors.dim(`- ${uiText('probe.checking', {}, lang)}`));
  const probe = await probeCredentials({
    env: result.config.env,
    ...(options.probeTimeoutMs !== undefined ? { timeoutMs: options.probeTimeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  options.write(probeLine(probe, lang, options.color ?? false));
  return { completed: true, config: result.config, probe };
}
