/**
 * The SDK's project key: the directory name under which Claude Code files a session's transcript
 * (`<config dir>/projects/<key>/<session>.jsonl`) and the `projectKey` of a session store (decisions.md D19).
 *
 * @module
 */

/** Keys longer than this are cut and given a hash suffix, exactly as the bundled CLI does. */
const MAX_KEY_LENGTH = 200;

/**
 * The project key the SDK derives from a working directory: every character outside `[a-zA-Z0-9]` becomes
 * `-` (per UTF-16 code unit, so a character outside the BMP yields two dashes); a key over 200 characters
 * keeps its first 200 and gains `-<base-36 hash>` of the original path, the hash being the 32-bit
 * `h * 31 + charCode` over UTF-16 code units. Pass the same (real) path that is given as `cwd`.
 */
export function projectKey(cwd: string): string {
  const key = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (key.length <= MAX_KEY_LENGTH) return key;
  return `${key.slice(0, MAX_KEY_LENGTH)}-${Math.abs(pathHash(cwd)).toString(36)}`;
}

function pathHash(text: string): number {
  let hash = 0;
  for (let index = 0; index < text.length; index++) {
    hash = ((hash << 5) - hash + text.charCodeAt(index)) | 0;
  }
  return hash;
}
