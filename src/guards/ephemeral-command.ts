/**
 * `isEphemeral(command)` — the one predicate behind two decisions that must agree: whether the
 * coordinator may run a main-thread Bash command itself (`delegateGuard({ allowGlance })`), and whether
 * that command's old result may be expired from context (`expire()`). Allowed but never expired, a stale
 * `git status` misleads twenty turns later; expired but not allowed, the coordinator pays a subagent start
 * (≈4.3k tokens, measured in the reference) for one `ls`.
 *
 * A glance is a command bash would run as simple commands joined by `&&` `||` `;` `|` `|&` or a newline,
 * each of them an allowlisted verb whose arguments pass that verb's rule (read-only-commands.ts), with no
 * redirection except to `/dev/null`, between descriptors, or from a file. Compounds are judged per
 * command: the first version of the reference refused every compound and glance failed outright (3 of 3
 * coordinator attempts denied), but a harmless first command never excuses a harmful second one.
 *
 * Fails closed: anything the tokenizer refuses, any unknown verb, option form or expansion is not a
 * glance. Pure, synchronous and linear in the command's length — it runs on every coordinator Bash call
 * and over whole transcripts during expiry.
 *
 * @module
 */
import { posix } from 'node:path';
import { expansionsAllowed } from './command-options.js';
import { ENDLESS_FILES, readOnlyRule } from './read-only-commands.js';
import { parseShellCommand, type Redirection, type ShellWord, type SimpleCommand } from './shell-words.js';

/** Commands longer than this are never glances (and are not worth tokenizing on every expiry pass). */
export const MAX_GLANCE_LENGTH = 8192;

/** Assignment prefixes that only change formatting; `LD_PRELOAD=`, `GIT_EXTERNAL_DIFF=`, `PAGER=` run code. */
const HARMLESS_ASSIGNMENT = /^(?:LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|COLUMNS)=/;

const ASSIGNMENT = /^[A-Za-z_]\w*=/;

/**
 * True when the word, or the value in `--opt=value` / `-fvalue`, names a file that never ends
 * (`/dev/zero`), or is an expansion under `/dev` or `/proc`. Best effort: a symlink to such a file or a
 * FIFO cannot be seen from the command text.
 */
function readsEndlessFile(word: ShellWord): boolean {
  const text = word.text;
  const candidates = [text];
  const equals = text.indexOf('=');
  if (equals >= 0) candidates.push(text.slice(equals + 1));
  if (/^-[^-]/.test(text)) candidates.push(text.slice(2));
  return candidates.some((candidate) => {
    const path = posix.normalize(candidate);
    if (word.expands) return path.startsWith('/dev/') || path.startsWith('/proc/');
    return ENDLESS_FILES.has(path);
  });
}

/** True for a redirection that writes nothing: to `/dev/null`, between descriptors, or reading a file. */
function isHarmlessRedirection(redirection: Redirection): boolean {
  const target = redirection.target;
  if (redirection.operator === '<<<') return true;
  if (target.expands) return false;
  switch (redirection.operator) {
    case '>':
    case '>>':
    case '>|':
    case '&>':
    case '&>>':
      return target.text === '/dev/null';
    case '>&':
      return /^\d+$/.test(target.text) || target.text === '-' || target.text === '/dev/null';
    case '<&':
      return /^\d+$/.test(target.text) || target.text === '-';
    case '<':
      return !readsEndlessFile(target);
    case '<>':
      return false;
  }
}

/** True when one simple command is an allowlisted verb with read-only, terminating arguments. */
function isGlanceCommand(command: SimpleCommand): boolean {
  if (!command.redirections.every(isHarmlessRedirection)) return false;
  const words = command.words;
  let index = 0;
  while (index < words.length && ASSIGNMENT.test((words[index] as ShellWord).text)) {
    const assignment = words[index] as ShellWord;
    if (assignment.expands || !HARMLESS_ASSIGNMENT.test(assignment.text)) return false;
    index += 1;
  }
  const verb = words[index];
  if (verb === undefined) return false;
  const rule = readOnlyRule(verb);
  if (rule === undefined) return false;
  const args = words.slice(index + 1);
  if (args.some(readsEndlessFile)) return false;
  if (!expansionsAllowed(args, rule.expansions)) return false;
  return rule.accepts === undefined || rule.accepts(args);
}

/**
 * True when a Bash command is a side-effect-free, terminating look whose output goes stale: safe for the
 * coordinator to run itself, and its old results may be expired. False for anything that writes, runs
 * arbitrary code, changes directory, never terminates, or cannot be proven read-only.
 */
export function isEphemeral(command: string): boolean {
  if (typeof command !== 'string' || command.trim() === '' || command.length > MAX_GLANCE_LENGTH)
    return false;
  const parsed = parseShellCommand(command);
  if (!parsed.ok) return false;
  // A background job outlives the call and may never end.
  if (parsed.connectors.includes('&')) return false;
  return parsed.commands.every(isGlanceCommand);
}
