/**
 * The variable names flower treats specially: the keys it knows and borrows, the credential keys, and the
 * keys it owns for the agent subprocess.
 *
 * @module
 */

/**
 * The credential variables; any one of them, non-empty, counts as "credentials present" (decisions.md D27).
 */
export const CREDENTIAL_KEYS = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
] as const;

/** One of {@link CREDENTIAL_KEYS}. */
export type CredentialKey = (typeof CREDENTIAL_KEYS)[number];

/**
 * The ten keys flower knows: the only keys borrowed from `~/.claude/settings.json`, and the keys the `-v`
 * dump shows, in this order. The reference had nine; `CLAUDE_CODE_OAUTH_TOKEN` is the tenth
 * (decisions.md D27), listed beside the other credentials so the dump groups them.
 */
export const KNOWN_KEYS: readonly string[] = Object.freeze([
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_MODEL',
  'ANTHROPIC_DEFAULT_OPUS_MODEL',
  'ANTHROPIC_DEFAULT_SONNET_MODEL',
  'ANTHROPIC_DEFAULT_HAIKU_MODEL',
  'CLAUDE_CODE_SUBAGENT_MODEL',
  'CLAUDE_CODE_EFFORT_LEVEL',
]);

/**
 * The eight variables flower sets for the agent subprocess. They are removed from the base environment
 * before flower adds its own values, so exporting them in a shell has no effect (decisions.md D17).
 */
export const FLOWER_OWNED_ENV: readonly string[] = Object.freeze([
  'DISABLE_AUTO_COMPACT',
  'DISABLE_COMPACT',
  'CLAUDE_CODE_AUTO_COMPACT_WINDOW',
  'CLAUDE_CONFIG_DIR',
  'TMPDIR',
  'CLAUDE_CODE_TMPDIR',
  'CLAUDE_CODE_MAX_RETRIES',
  'API_TIMEOUT_MS',
]);

/** The endpoint used when `ANTHROPIC_BASE_URL` is not set. */
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** True for a key whose value is a secret and must be masked on screen (it names a TOKEN or a KEY). */
export function isSecretKey(key: string): boolean {
  return key.includes('TOKEN') || key.includes('KEY');
}
