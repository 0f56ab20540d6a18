/**
 * What flower found when it ran the goal's machine checks itself (docs/goal-checks.md): one record per judged
 * round, kept on the verdict's manifest row beside the judge's own reply, so the row shows both the judge's
 * word and flower's result. Plain JSON in snake_case, like the rest of the manifest.
 *
 * @module
 */

/** One checklist item's check and what its runs showed. */
export interface CheckOutcome {
  /** The item as written in the goal. */
  item: string;
  /** The command (or what a manual check needs), in one line. */
  check: string;
  /** `command`: flower ran it; `manual`: the judge looks; `invalid`: the block could not be read. */
  kind: 'command' | 'manual' | 'invalid';
  /** For a manual check: the environment it needs, or null when the judge can look here. */
  needs: string | null;
  /** Whether it passed on this round's tree; null when it was not run. */
  passes_on_round: boolean | null;
  /** Whether it passed on the goal's base tree (the negative control); null when not run. */
  passes_on_base: boolean | null;
  /** The round run's exit code; null when it did not exit (timeout, signal) or was not run. */
  exit: number | null;
  duration_ms: number;
  /** The last part of stdout and stderr of the round run. */
  stdout_tail: string;
  stderr_tail: string;
  /** Why it does not count, in one line ('' when it counts as verified or is manual). */
  why: string;
}

/** The environment the checks ran in. */
export interface HostFacts {
  /** `process.platform`: `linux`, `darwin`, `win32`. */
  os: string;
  /** `process.arch`: `x64`, `arm64`. */
  arch: string;
  /** The kernel release. */
  release: string;
}

/** flower's result for one judged round. */
export interface CheckRecord {
  /** The judge's conclusion, as it said it. */
  judge: string;
  /** The conclusion flower records: the judge's, unless a check overruled it. */
  result: string;
  /** Why flower's result differs from the judge's ('' when it does not). */
  reason: string;
  host: HostFacts;
  /** Where the round's tree was taken: a git ref (`refs/flower/rounds/3`) or a copied folder. */
  tree: string;
  /** The goal's base tree (the negative control), or '' when none could be recorded. */
  base: string;
  items: CheckOutcome[];
  /** Items verified here: a command check that passed on the round and failed on the base. */
  verified: number;
  /** Checklist items in all. */
  total: number;
  /** The closing line: "2 of 5 items verified here; 3 need macOS". */
  summary: string;
  /** Set when a later `flower verify` failed: the ACHIEVED above no longer holds. */
  stale?: StaleMark;
}

/** A later `flower verify` that failed after the verdict. */
export interface StaleMark {
  /** Epoch seconds. */
  at: number;
  /** The items whose checks failed. */
  failed: string[];
}
