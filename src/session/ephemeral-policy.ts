/**
 * How `expire()` retires stale results of ephemeral (read-only glance) Bash commands
 * (docs/context-economy.md).
 *
 * @module
 */
import { PLACEHOLDER_TEXT } from './placeholder-text.js';
import { wholeNumber } from './trim-policy.js';

/** Settings of the expiry layer; constructed with any subset, the rest takes the defaults. */
export class EphemeralPolicy {
  /** Whether `load()` expires at all. */
  readonly enabled: boolean;
  /** The newest N ephemeral results stay; older ones are replaced by a placeholder. */
  readonly keepRecent: number;
  /** Results longer than this are left to trim (which spills them instead of discarding them). */
  readonly maxChars: number;
  /** Placeholder template; `{cmd}` = backtick-wrapped first line of the command, `{age}` = model turns since. */
  readonly text: string;

  constructor(options: Partial<EphemeralPolicy> = {}) {
    this.enabled = options.enabled ?? true;
    this.keepRecent = wholeNumber('keepRecent', options.keepRecent ?? 6);
    this.maxChars = wholeNumber('maxChars', options.maxChars ?? 2000);
    this.text = options.text ?? PLACEHOLDER_TEXT.expired;
  }
}
