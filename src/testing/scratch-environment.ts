/**
 * A throw-away home for one test's Claude Code child: a temp directory with `home/`, `claude-config/`,
 * `workspace/` and `tmp/`, and the explicit child environment that points at them (decisions.md D4 and D15).
 * `options.env` replaces the child's whole environment, so nothing from the developer's shell leaks in:
 * no real key, no `~/.claude`, no heavy `~/.bashrc` (which costs seconds per Bash call).
 *
 * @module
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { processEnvironment } from '../config/process-environment.js';

/** A scratch environment made by {@link scratchEnvironment}. */
export interface ScratchEnvironment {
  /** The temp directory holding everything below. */
  dir: string;
  /** The child's `HOME`. */
  home: string;
  /** The child's `CLAUDE_CONFIG_DIR` (transcripts, shell snapshots, tool results). */
  configDir: string;
  /** An empty directory to use as the agent's `cwd`. */
  workspace: string;
  /** The child's `TMPDIR` and `CLAUDE_CODE_TMPDIR`. */
  tmp: string;
  /** The complete child environment, for `options.env`. */
  env: Record<string, string>;
  /** Removes the temp directory. */
  cleanup(): Promise<void>;
}

/** Options of {@link scratchEnvironment}. */
export interface ScratchEnvironmentOptions {
  /** `ANTHROPIC_BASE_URL`, usually `FakeAnthropicServer.url`; left unset when absent. */
  baseUrl?: string;
  /** `ANTHROPIC_API_KEY` (default a dummy test key: the fake never checks it). */
  apiKey?: string;
}

/** The dummy key the child sends when no `apiKey` is given. */
export const TEST_API_KEY = 'sk-ant-api-test-key';

/**
 * Creates a scratch directory and the child environment for it. Retries and timeouts are small so fault
 * tests finish in seconds; auto-compaction is off because flower owns handoff (decisions.md D6); experimental
 * betas are off so that a scripted 400 is answered once, not probed beta by beta.
 */
export async function scratchEnvironment(
  options: ScratchEnvironmentOptions = {},
): Promise<ScratchEnvironment> {
  const dir = await mkdtemp(join(tmpdir(), 'flower-scratch-'));
  const home = join(dir, 'home');
  const configDir = join(dir, 'claude-config');
  const workspace = join(dir, 'workspace');
  const tmp = join(dir, 'tmp');
  await Promise.all([home, configDir, workspace, tmp].map((path) => mkdir(path)));
  const env: Record<string, string> = {
    PATH: processEnvironment()['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    TMPDIR: tmp,
    CLAUDE_CODE_TMPDIR: tmp,
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_API_KEY: options.apiKey ?? TEST_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '2',
    API_TIMEOUT_MS: '10000',
    DISABLE_AUTO_COMPACT: '1',
    // Against a base URL that is not Anthropic's, the binary answers an unrecognised 400 by sending the same
    // request again without each experimental beta header in turn (a fallback for gateways that reject
    // betas): six identical requests for one scripted 400. Without the betas the fake is treated like the
    // first-party API, and a 400 is one request, as a test of a fatal error expects.
    CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS: '1',
  };
  if (options.baseUrl !== undefined) env['ANTHROPIC_BASE_URL'] = options.baseUrl;
  return {
    dir,
    home,
    configDir,
    workspace,
    tmp,
    env,
    cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }),
  };
}
