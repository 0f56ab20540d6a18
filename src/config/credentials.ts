/**
 * The credential presence check (docs/configuration.md, decisions.md D27) and the token classification used
 * by setup (decisions.md D14).
 *
 * @module
 */
import { userEnvFile } from './config-dir.js';
import { CREDENTIAL_KEYS, type CredentialKey } from './known-keys.js';
import { processEnvironment, type Env } from './process-environment.js';
import { languageOf, uiText } from './ui-text.js';

/** The credential key with a non-empty value, in {@link CREDENTIAL_KEYS} order, or `null` when none is set. */
export function presentCredential(env: Env): CredentialKey | null {
  return CREDENTIAL_KEYS.find((key) => Boolean(env[key])) ?? null;
}

/** The four-line "missing credentials" message, with the absolute `CFG/.env` path on line two. */
export function missingCredentialsMessage(env: Env = processEnvironment()): string {
  const lang = languageOf(env);
  return [
    uiText('cred.missing.1', {}, lang),
    uiText('cred.missing.2', { path: userEnvFile(env) }, lang),
    uiText('cred.missing.3', {}, lang),
    uiText('cred.missing.4', {}, lang),
  ].join('\n');
}

/**
 * `null` when credentials are present (`ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN` or
 * `CLAUDE_CODE_OAUTH_TOKEN` non-empty); otherwise the four-line message to show.
 */
export function checkCredentials(env: Env = processEnvironment()): string | null {
  return presentCredential(env) === null ? missingCredentialsMessage(env) : null;
}

/**
 * The variable a pasted token belongs in: `sk-ant-api…` is an Anthropic API key, `sk-ant-oat…` a Claude Code
 * OAuth token, anything else a gateway token sent as a bearer token.
 */
export function classifyToken(token: string): CredentialKey {
  const trimmed = token.trim();
  if (trimmed.startsWith('sk-ant-api')) return 'ANTHROPIC_API_KEY';
  if (trimmed.startsWith('sk-ant-oat')) return 'CLAUDE_CODE_OAUTH_TOKEN';
  return 'ANTHROPIC_AUTH_TOKEN';
}

/**
 * The credential values set in `env` (each of {@link CREDENTIAL_KEYS} that is non-empty, whitespace trimmed),
 * for the store to keep out of transcripts.
 */
export function credentialValues(env: Env): string[] {
  return CREDENTIAL_KEYS.map((key) => (env[key] ?? '').trim()).filter((value) => value !== '');
}
