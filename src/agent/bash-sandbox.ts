/**
 * The Claude Code sandbox flower runs the agent's Bash in: the credential variables are removed from every
 * sandboxed command's environment, so `env` or `printenv` cannot print the API key into a tool result (and
 * from there into the transcript, the store and the next request). With worktree-isolated workers the
 * session's Bash may also write only inside the given folders.
 *
 * Why not `CLAUDE_CODE_SUBPROCESS_ENV_SCRUB=1`, which scrubs hooks and MCP servers too: the bundled Claude
 * Code (2.1.334) then forces every session to the `default` permission mode and, to pin its sandbox, creates
 * some twenty empty files in the working directory and in HOME (`package.json`, `.env`, lockfiles,
 * `.gitmodules`, `.bashrc` ...) — litter in the user's checkout and a broken `npm` there. flower's hooks and
 * its human channel run inside flower's own process, so the agent's Bash is the subprocess that matters.
 *
 * @module
 */
import { CREDENTIAL_KEYS } from '../config/known-keys.js';
import type { Options } from './claude-sdk.js';

/** The SDK's sandbox settings. */
export type SandboxSettings = NonNullable<Options['sandbox']>;

/** Options of {@link bashSandbox}. */
export interface BashSandboxOptions {
  /**
   * The only folders sandboxed commands may write to (besides Claude Code's own temp folder); null: writes
   * are not restricted (only the environment is scrubbed).
   */
  writeRoots?: readonly string[] | null;
  /** With `writeRoots`: paths sandboxed commands may not write even inside an allowed folder. */
  denyWrite?: readonly string[];
  /** Variables removed from sandboxed commands' environment. Default the credential keys. */
  deniedVariables?: readonly string[];
}

/**
 * Sandbox settings for a session. Network stays open to every domain (through the sandbox's proxy), and a
 * command may not ask to run outside the sandbox: that would hand it the unscrubbed environment.
 *
 * On Linux each sandboxed call gets a network namespace of its own, so a server the agent starts in one
 * call cannot be reached from the next, nor the host's `localhost` directly. No setting here changes that
 * (`network.allowLocalBinding` is macOS-only; without `allowedDomains` the proxy blocks every domain);
 * `FLOWER_SANDBOX=off` is the way out, at the price of the scrubbed environment.
 */
export function bashSandbox(options: BashSandboxOptions = {}): SandboxSettings {
  const writeRoots = options.writeRoots ?? null;
  const denied = options.deniedVariables ?? CREDENTIAL_KEYS;
  return {
    enabled: true,
    // flower's permission hooks decide what runs; being sandboxed is not a reason to approve a command.
    autoAllowBashIfSandboxed: false,
    allowUnsandboxedCommands: false,
    network: { allowedDomains: ['*'] },
    filesystem:
      writeRoots === null
        ? { disabled: true }
        : { allowWrite: [...writeRoots], denyWrite: [...(options.denyWrite ?? [])] },
    credentials: { envVars: denied.map((name) => ({ name, mode: 'deny' as const })) },
  };
}
