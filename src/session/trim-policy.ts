/**
 * How `trim()` moves old large tool results out of the resumed context (docs/context-economy.md).
 *
 * @module
 */
import { isAbsolute, normalize, sep } from 'node:path';
import { FlowerError } from '../errors.js';
import { PLACEHOLDER_TEXT } from './placeholder-text.js';

/** Settings of the trim layer; constructed with any subset, the rest takes the defaults. */
export class TrimPolicy {
  /** Whether `load()` trims at all (the class default; `Runtime` turns it off unless asked). */
  readonly enabled: boolean;
  /** The newest N large results stay in place; only older ones are spilled. */
  readonly keepRecent: number;
  /** A result is large, and so a candidate, when its text has at least this many characters. */
  readonly minChars: number;
  /** Spill directory relative to the workspace, so the agent's `Read` reaches it. */
  readonly spillDirname: string;
  /** Placeholder template; `{n}` = characters, `{path}` = absolute path of the spill file. */
  readonly text: string;

  constructor(options: Partial<TrimPolicy> = {}) {
    this.enabled = options.enabled ?? true;
    this.keepRecent = wholeNumber('keepRecent', options.keepRecent ?? 20);
    this.minChars = Math.max(1, wholeNumber('minChars', options.minChars ?? 2000));
    this.spillDirname = relativeDirectory(options.spillDirname ?? '.flower/spill');
    this.text = options.text ?? PLACEHOLDER_TEXT.trimmed;
  }
}

/** Rejects a non-integer count with a message that says which knob is wrong. */
export function wholeNumber(name: string, value: number): number {
  if (!Number.isInteger(value)) {
    throw new FlowerError('CONFIG_INVALID', `${name} must be a whole number, got ${String(value)}.`);
  }
  return value;
}

function relativeDirectory(directory: string): string {
  const normalized = normalize(directory);
  // An absolute or escaping path would put spill files outside the workspace, where the pointer shown to
  // the model could not be resolved against it (the reference crashed on this, decisions.md D414).
  if (
    directory.trim() === '' ||
    isAbsolute(directory) ||
    normalized === '..' ||
    normalized.startsWith(`..${sep}`)
  ) {
    throw new FlowerError(
      'CONFIG_INVALID',
      `spillDirname must be a directory inside the workspace, such as ".flower/spill"; got "${directory}".`,
    );
  }
  return normalized;
}
