/**
 * Prompts too large for one message. Claude Code refuses a first message it estimates beyond the model's
 * window before anything reaches the API ("Prompt is too long"); with a 1M window a 5 MB request already
 * is, and a 200K window refuses far less. Such text is never dropped: it is saved to a file, and the agent
 * gets a short message that points to it and says how to read it in parts.
 *
 * @module
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The most characters flower puts into one message: about 25 000 tokens, which every window takes with room
 * left to work; anything longer goes to a file the agent reads in parts.
 */
export const PROMPT_LIMIT_CHARS = 100_000;

/**
 * The longest line of a saved file. Claude Code's Read cuts lines after 2 000 characters, and a request from
 * a pipe is a single line; shorter lines also make "100 lines at a time" a part that fits a turn.
 */
export const SAVED_LINE_CHARS = 500;

/** How many lines the pointer message asks the agent to read at a time (about 12 000 tokens at most). */
export const READ_LINES_AT_A_TIME = 100;

/** True when `text` is too long to be sent as one message. */
export function isOversized(text: string): boolean {
  return text.length > PROMPT_LIMIT_CHARS;
}

/**
 * Writes `text` to `path` (atomically, folders made), with lines longer than {@link SAVED_LINE_CHARS} folded
 * at a space (or cut when there is none) so Read shows every character. Returns the number of lines.
 */
export function saveForReading(path: string, text: string): number {
  const lines = text.split(/\r\n|\n|\r/).flatMap(fold);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, `${lines.join('\n')}\n`);
  renameSync(temporary, path);
  return lines.length;
}

function fold(line: string): string[] {
  const parts: string[] = [];
  let rest = line;
  while (rest.length > SAVED_LINE_CHARS) {
    const space = rest.lastIndexOf(' ', SAVED_LINE_CHARS);
    const cut = space > 0 ? space : SAVED_LINE_CHARS;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(space > 0 ? cut + 1 : cut);
  }
  parts.push(rest);
  return parts;
}

/** How to read a saved file in parts, for the message that points to it. */
export function readInPartsInstructions(path: string, characters: number, lines: number): string {
  return (
    `It is ${characters} characters in ${lines} lines, saved in full at ${path}. Read it in parts with the ` +
    `Read tool: offset 1 and limit ${READ_LINES_AT_A_TIME}, then offset ${READ_LINES_AT_A_TIME + 1}, and so on ` +
    'until the end (Grep finds a passage). It may be more than you can hold at once: keep short notes of ' +
    'what each part says as you go.'
  );
}

/**
 * `prompt` when it fits one message; otherwise the prompt is saved as `<folder>/prompt-<name>-<time>.md` and
 * the message says where it is and how to read it.
 */
export function fitPrompt(prompt: string, place: { folder: string; name: string }): string {
  if (!isOversized(prompt)) return prompt;
  const safe = place.name.replace(/[^A-Za-z0-9._-]+/g, '-') || 'step';
  const path = join(place.folder, `prompt-${safe}-${Date.now()}.md`);
  const lines = saveForReading(path, prompt);
  return (
    'Your instructions for this step are too long for one message, so flower saved them to a file. ' +
    `${readInPartsInstructions(path, prompt.length, lines)} Read all of it before you act, then do what it asks.`
  );
}
