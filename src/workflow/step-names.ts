/**
 * Step names and attempt labels (decisions.md D1, docs/go-path.md). A step's base name is what lineage stores
 * and what `ctx` is keyed by; labels name one attempt in the manifest and in events. Keeping both rules here
 * means the workflow, the goal guard and `flower analyze` agree on how a rerun is spelled.
 *
 * @module
 */

/** The built-in step names (English on disk, decisions.md D1). */
export const STEP_NAMES = Object.freeze({
  clarify: 'clarify',
  goal: 'goal',
  work: 'work',
  bequest: 'bequest',
  once: 'ad-hoc',
  aside: 'aside',
} as const);

/** The label of a judge round: `work/verdict#2`. Never stored in lineage (the judge is always fresh). */
export function verdictLabel(step: string, round: number): string {
  return `${step}/verdict#${round}`;
}

/**
 * The label of attempt `attempt` (0-based) of step `name`: the name itself first, then `name#round<N>`
 * (N ≥ 2) for a step whose reruns carry a rejection's feedback (`onReject`), else `name#retry<N>` (N ≥ 1).
 * Rounds count from the first attempt because each one is a round of the same piece of work; retries count
 * only the reruns.
 */
export function attemptLabel(name: string, attempt: number, rounds: boolean): string {
  if (attempt <= 0) return name;
  return rounds ? `${name}#round${attempt + 1}` : `${name}#retry${attempt}`;
}
