/**
 * What `prune()` removes or neutralises before a resume: synthetic API errors, old denied calls,
 * interrupted results and orphaned tool calls (docs/context-economy.md).
 *
 * @module
 */
import { PLACEHOLDER_TEXT } from './placeholder-text.js';
import { wholeNumber } from './trim-policy.js';

/** Settings of the prune layer; constructed with any subset, the rest takes the defaults. */
export class PrunePolicy {
  /** Whether `load()` prunes at all. Off leaves the transcript exactly as stored. */
  readonly enabled: boolean;
  /** Drop synthetic "API Error: …" assistant entries (disconnect residue the model would believe). */
  readonly dropApiErrors: boolean;
  /** Replace the text of a tool result cut off by an interrupt, keeping the block. */
  readonly neutralizeInterrupts: boolean;
  /** Answer a tool_use that never got a tool_result with a synthetic one (else every resume fails with 400). */
  readonly healOrphans: boolean;
  /**
   * Denied calls kept, newest first. 1, not 0: the latest denial stops same-turn retries; more cost ~273
   * characters each and teach the model that the tool is always blocked (figures from the reference).
   */
  readonly keepDenials: number;
  /** `toolDenialKind` values that count as a denial (the harness marker; wording is never matched). */
  readonly denialKinds: string[];
  /** Text that replaces an interrupted result. */
  readonly interruptText: string;
  /** Text of the synthetic result that answers an orphaned tool_use. */
  readonly orphanText: string;

  constructor(options: Partial<PrunePolicy> = {}) {
    this.enabled = options.enabled ?? true;
    this.dropApiErrors = options.dropApiErrors ?? true;
    this.neutralizeInterrupts = options.neutralizeInterrupts ?? true;
    this.healOrphans = options.healOrphans ?? true;
    this.keepDenials = wholeNumber('keepDenials', options.keepDenials ?? 1);
    this.denialKinds = [...(options.denialKinds ?? ['permission-rule'])];
    this.interruptText = options.interruptText ?? PLACEHOLDER_TEXT.interrupted;
    this.orphanText = options.orphanText ?? PLACEHOLDER_TEXT.orphan;
  }
}
