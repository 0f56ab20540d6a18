/**
 * Failures the library only records (`runtime.uiErrors`, `workflow.uiErrors`: a manifest that could not be
 * written, a throwing callback) reach the person: each one as a warning line as soon as the CLI next gets
 * control (after every event, and once more at the end), and their number in the closing line. Before,
 * a manifest that could not be written was silent and the run ended with exit 0 and a stale record.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';

/** Watches lists of recorded failures and reports each new entry once. */
export class RecordedFailures {
  readonly #lists: ReadonlyArray<readonly string[]>;
  readonly #baseline: readonly number[];
  readonly #seen: number[];
  readonly #warn: (failure: string) => void;

  /** `lists` are read, never changed; `warn` prints one failure. */
  constructor(lists: ReadonlyArray<readonly string[]>, warn: (failure: string) => void) {
    this.#lists = lists;
    // Entries already there belong to an earlier run of the same object; they were reported then.
    this.#baseline = lists.map((list) => list.length);
    this.#seen = [...this.#baseline];
    this.#warn = warn;
  }

  /** Reports the failures recorded since the last call. */
  flush(): void {
    this.#lists.forEach((list, index) => {
      for (const failure of list.slice(this.#seen[index] ?? 0)) this.#warn(failure);
      this.#seen[index] = list.length;
    });
  }

  /** How many failures were recorded since this object was made. */
  get count(): number {
    return this.#lists.reduce((sum, list, index) => sum + list.length - (this.#baseline[index] ?? 0), 0);
  }
}

/** What the closing line adds when failures were recorded: ` · record incomplete: …`, or nothing. */
export function incompleteNote(failures: RecordedFailures, lang: Lang): string {
  return failures.count === 0 ? '' : ` · ${uiText('close.incomplete', { n: failures.count }, lang)}`;
}
