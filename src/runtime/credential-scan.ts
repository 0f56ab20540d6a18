/**
 * Finding credentials in what `flower export` is about to pack: the exact values of the user's own
 * credential variables, and any text shaped like a well-known key or token (Anthropic, OpenAI, AWS,
 * GitHub, Slack, Google, a PEM private key, or a long value assigned to a variable named like a secret).
 * An archive travels (another machine, a colleague, a ticket), so a run holding one is refused rather
 * than packed; the finding names the file and the kind of key, never the value.
 *
 * @module
 */

/** What was found: where (a path inside the archive, plus a line or a session) and what it looks like. */
export interface CredentialFinding {
  /** Path inside the archive, e.g. `workspace/.flower/scripts/deploy.sh` or `run/sessions.db`. */
  path: string;
  /** `line 12`, or `session <id>` for a transcript. */
  where: string;
  /** What the value looks like, e.g. `an Anthropic API key`. */
  kind: string;
}

/** Values shorter than this are never matched exactly: a short test key would match ordinary words. */
const MIN_EXACT_LENGTH = 8;

/** Shapes of real keys; each is specific enough not to match ordinary prose or code. */
const KEY_SHAPES: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: 'an Anthropic API key', pattern: /sk-ant-[A-Za-z0-9_-]{20,}/ },
  { kind: 'an OpenAI-style secret key', pattern: /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}/ },
  { kind: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})/ },
  { kind: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'a private key', pattern: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/ },
  {
    kind: 'a value assigned to a secret variable',
    // `API_KEY=…`, `"auth_token": "…"`; not a reference to another variable (`$X`, `${X}`, `<your key>`).
    pattern:
      /\b[A-Za-z0-9_]*(?:API_KEY|AUTH_TOKEN|OAUTH_TOKEN|SECRET_KEY|ACCESS_KEY|CLIENT_SECRET|PASSWORD)["']?\s*[=:]\s*["']?(?![$<{%])[^\s"'#,;)}\]\\]{16,}/i,
  },
];

/** Looks for credentials in text. */
export class CredentialScanner {
  readonly #exact: string[];

  /** @param knownValues the user's own credential values (exact matches, whatever their shape). */
  constructor(knownValues: readonly string[]) {
    this.#exact = [...new Set(knownValues.filter((value) => value.length >= MIN_EXACT_LENGTH))];
  }

  /** The kind of the first credential in `text`, or null. */
  kindIn(text: string): string | null {
    if (this.#exact.some((value) => text.includes(value)))
      return 'the value of one of your credential variables';
    for (const shape of KEY_SHAPES) if (shape.pattern.test(text)) return shape.kind;
    return null;
  }

  /** The first credential in a text file, with its line, or null. */
  scanText(path: string, text: string): CredentialFinding | null {
    if (this.kindIn(text) === null) return null;
    const lines = text.split('\n');
    for (const [index, line] of lines.entries()) {
      const kind = this.kindIn(line);
      if (kind !== null) return { path, where: `line ${index + 1}`, kind };
    }
    // Only a multi-line match (none of the shapes spans lines today); the file as a whole is named.
    return { path, where: 'the file', kind: this.kindIn(text) ?? '' };
  }
}
