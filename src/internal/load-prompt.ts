/**
 * Reads a text the model reads from `src/roles/prompts/` and fills its `{{name}}` placeholders: role rules,
 * the `human` tools' texts, the starter's prompts, the coordinator wall's denials. It lives here, beneath
 * every layer, because the guards that word those denials sit beneath `roles`; the texts stay in one folder.
 *
 * The texts live in Markdown files rather than string literals so that they read as prose and diff cleanly;
 * `scripts/copy-assets.mjs` copies them into `dist/roles/prompts/`, so the same relative lookup works from
 * `src/` under vitest and from `dist/` when installed. Placeholders carry what depends on the run, such as
 * the workbench paths (decisions.md D113: never a hard-coded `.flower/`).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The folder of the texts, relative to this module in `src/` and in `dist/` alike. */
const PROMPTS = '../roles/prompts/';
const PROMPT_NAME = /^[a-z][a-z0-9-]*$/;
const PLACEHOLDER = /\{\{\s*([A-Za-z][\w-]*)\s*\}\}/g;

// The files never change while a process runs; read each once.
const cache = new Map<string, string>();

/**
 * The text of `prompts/<name>.md` with every `{{key}}` replaced by `values[key]`, trailing whitespace
 * trimmed. Throws when the file is missing or names a placeholder that `values` does not fill, so a typo
 * in a rule text fails loudly at build time instead of reaching the model as `{{artifcats}}`.
 */
export function loadPrompt(name: string, values: Readonly<Record<string, string>> = {}): string {
  return fillPlaceholders(readPrompt(name), values, `prompts/${name}.md`);
}

/**
 * `text` with every `{{key}}` replaced by `values[key]`. Throws for a placeholder that `values` lacks;
 * `source` names the text in that error.
 */
export function fillPlaceholders(
  text: string,
  values: Readonly<Record<string, string>>,
  source = 'prompt',
): string {
  return text.replace(PLACEHOLDER, (_match, key: string) => {
    const value = Object.hasOwn(values, key) ? values[key] : undefined;
    if (value === undefined) {
      const known = Object.keys(values);
      throw new Error(
        `${source}: unknown placeholder {{${key}}} (known: ${known.length > 0 ? known.join(', ') : 'none'}).`,
      );
    }
    return value;
  });
}

function readPrompt(name: string): string {
  if (!PROMPT_NAME.test(name)) {
    throw new Error(`Prompt name '${name}' is invalid: use lower-case letters, digits and dashes.`);
  }
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const url = new URL(`${PROMPTS}${name}.md`, import.meta.url);
  let text: string;
  try {
    text = readFileSync(url, 'utf8');
  } catch (error) {
    throw new Error(
      `Rule text prompts/${name}.md is missing in ${fileURLToPath(new URL(PROMPTS, import.meta.url))}.`,
      {
        cause: error,
      },
    );
  }
  text = text.trimEnd();
  cache.set(name, text);
  return text;
}
