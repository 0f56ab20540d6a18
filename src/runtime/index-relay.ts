/**
 * How the workbench index reaches a session (decisions.md D20, docs/workbench.md): it goes into the
 * first user message of every new session rather than the system prompt, because it changes with every
 * file written and would break the cached prefix (the reference's HT001 ran on 96.1% cache hits). A resume
 * prompt (interrupt, retry, wake) carries it again only when it changed since it was last sent to that
 * session, so a long session still sees new scripts without paying for an unchanged block every time.
 *
 * @module
 */
import type { AttemptPlan } from './attempt.js';

/** What the relay needs of a workbench. */
export interface IndexSource {
  refresh(): void;
  promptBlock(): string;
}

/** Prepends the workbench block to the prompts of one step's attempts. */
export class IndexRelay {
  readonly #source: IndexSource;
  /** Block last sent per session id, in this process. An unknown session counts as "changed". */
  readonly #sent: Map<string, string>;
  #pending: string | null = null;

  /** `sent` is shared by the steps of one runtime, so a wake in the same process does not repeat it. */
  constructor(source: IndexSource, sent: Map<string, string>) {
    this.#source = source;
    this.#sent = sent;
  }

  /** The plan with the block in front of its prompt when this attempt's session should see it. */
  prepare<Plan extends Pick<AttemptPlan, 'prompt' | 'resume' | 'fork' | 'indexLast'>>(plan: Plan): Plan {
    this.#source.refresh();
    const block = this.#source.promptBlock().trim();
    this.#pending = null;
    if (block === '') return plan;
    const fresh = plan.resume === null || plan.fork;
    if (!fresh && this.#sent.get(plan.resume ?? '') === block) return plan;
    this.#pending = block;
    const prompt = plan.indexLast === true ? `${plan.prompt}\n\n${block}` : `${block}\n\n${plan.prompt}`;
    return { ...plan, prompt };
  }

  /** Records that the last prepared block reached `sessionId`. */
  confirm(sessionId: string | null): void {
    if (this.#pending !== null && sessionId !== null) this.#sent.set(sessionId, this.#pending);
    this.#pending = null;
  }
}
