/**
 * The credential gate at the start of `go`, `run` and `once` (docs/configuration.md): credentials must be
 * present — a first-time user on a terminal gets the setup dialogue — and, on a terminal, one probe checks
 * them. A rejection opens setup once and probes again; a second rejection stops the run (decisions.md D212).
 * Network trouble never forces reconfiguration.
 *
 * @module
 */
import { createColors } from 'picocolors';
import { checkCredentials, missingCredentialsMessage, presentCredential } from '../config/credentials.js';
import type { FlowerConfig } from '../config/load-config.js';
import { probeCredentials } from '../config/probe-credentials.js';
import { uiText } from '../config/ui-text.js';
import { FlowerError } from '../errors.js';
// Only the types: the dialogue (and the prompt library under it) is imported when it opens or a probe line
// is shown, so a run that needs neither — every run without a terminal — does not load it.
import type { SetupReason, SetupResult } from './commands/setup.js';

/** Opens the setup dialogue with a reason; the default runs {@link runSetup} on the terminal. */
export type SetupRunner = (request: { config: FlowerConfig; reason: SetupReason }) => Promise<SetupResult>;

/** Options for {@link ensureCredentials}. */
export interface EnsureCredentialsOptions {
  config: FlowerConfig;
  /** Whether standard input is a terminal: only then can setup run and is the probe worth its cost. */
  isTty: boolean;
  /** Prints one screen line (through the sink). */
  write: (line: string) => void;
  /** Colour the lines (SGR); off by default. */
  color?: boolean;
  /** `false` when the caller turned probing off (besides `FLOWER_NO_PROBE`). */
  probe?: boolean;
  /** Probe time limit; 20 s by default. */
  probeTimeoutMs?: number;
  signal?: AbortSignal;
  /** Replaces the dialogue (tests, or a caller with its own prompts). */
  setup?: SetupRunner;
}

/**
 * Make sure the run has usable credentials and return the configuration to run with (setup may have changed
 * it). Throws `FlowerError` `CREDENTIALS_MISSING` with the four-line message, or `CREDENTIALS_REJECTED`.
 */
export async function ensureCredentials(options: EnsureCredentialsOptions): Promise<FlowerConfig> {
  const { isTty, write } = options;
  const colors = createColors(options.color ?? false);
  const setup: SetupRunner =
    options.setup ??
    (async (request) => {
      const { runSetup } = await import('./commands/setup.js');
      return runSetup({ ...request, isTty, write, ...(options.color ? { color: true } : {}) });
    });
  let config = options.config;

  if (checkCredentials(config.env) !== null) {
    const result = isTty ? await setup({ config, reason: 'setup.reason.first' }) : null;
    if (!result?.completed || checkCredentials(result.config.env) !== null) {
      throw new FlowerError('CREDENTIALS_MISSING', missingCredentialsMessage((result?.config ?? config).env));
    }
    config = result.config;
  }

  // A run without a terminal cannot fix anything, and a misjudged probe would only abort it; real credential
  // failures still surface when the run fails (docs/cli.md).
  if (options.probe === false || config.noProbe || !isTty) return config;

  for (let round = 1; ; round += 1) {
    if (presentCredential(config.env) === 'CLAUDE_CODE_OAUTH_TOKEN') {
      // Not probed (decisions.md D27): counted as "not verified, letting it through", and said so.
      write(colors.dim(`  ${uiText('probe.oauth', {}, config.lang)}`));
      return config;
    }
    write(colors.dim(`- ${uiText('probe.checking', {}, config.lang)}`));
    const result = await probeCredentials({
      env: config.env,
      ...(options.probeTimeoutMs !== undefined ? { timeoutMs: options.probeTimeoutMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (result.verdict === 'ok') {
      // The checking line is answered, so it does not read as still in progress for the rest of the run.
      write(colors.green(`+ ${uiText('probe.passed', {}, config.lang)}`));
      return config;
    }
    const { probeLine } = await import('./commands/setup.js');
    write(probeLine(result, config.lang, options.color ?? false));
    if (result.verdict === 'net') return config;

    const exitMessage = uiText(`probe.exit.${result.verdict}`, {}, config.lang);
    if (round >= 2) throw new FlowerError('CREDENTIALS_REJECTED', exitMessage);
    const reconfigured = await setup({ config, reason: 'setup.reason.probe' });
    if (!reconfigured.completed) throw new FlowerError('CREDENTIALS_REJECTED', exitMessage);
    config = reconfigured.config;
  }
}
