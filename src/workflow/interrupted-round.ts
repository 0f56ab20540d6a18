/**
 * Where a step with rounds stood when the process running it was killed (docs/decisions.md D333), read from
 * the manifest: a round or its judge cut off is picked up at that round, under that round's labels, rather
 * than started over as a wake's round 1 — so the resumed session is told what it would have been told had
 * nothing happened, and the verdict it is given lands in the row the clean run would have written.
 *
 * @module
 */
import { readManifest, type ManifestRow } from '../runtime/manifest.js';
import { KILLED } from '../runtime/step-outcome.js';
import { Verdict } from '../roles/verdict.js';
import { newStepResult, type StepResult } from '../runtime/step-result.js';

/** The round a killed run of a step stopped in. */
export interface InterruptedRound {
  /** The round, 1-based (`work` is 1, `work#round2` is 2). */
  round: number;
  /**
   * When the round itself had finished and its gate (the judge) was cut off: that round's row, to be judged
   * again instead of running the round once more. Null when the round was cut off.
   */
  finished: ManifestRow | null;
}

/**
 * The round `name` was in when the last run of it was killed, or null when its last row was not cut off
 * (the step ended, or never ran): then the step starts as a wake does. Read before this process writes a
 * row of the step. `rounds` is the step's number of rounds: a rejecting verdict of an earlier round is the
 * step's last row when the process was killed before the next round wrote its own, and that next round is
 * then the one picked up.
 */
export function interruptedRound(runDir: string, name: string, rounds: number): InterruptedRound | null {
  const rows = readManifest(runDir).filter((row) => roundOf(row.step, name) !== null);
  const last = rows.at(-1);
  if (last === undefined) return null;
  // Killed after a verdict rejected round N but before round N+1 wrote its row (its query had not started):
  // the verdict row is the durable record that round N is over, so the wake goes on at N+1, not at 1.
  const judged = roundOf(last.step, name) as number;
  if (last.step === `${name}/verdict#${judged}` && rejected(last) && judged < rounds) {
    return { round: judged + 1, finished: null };
  }
  if (!cutOff(last)) return null;
  const round = roundOf(last.step, name) as number;
  if (!last.step.startsWith(`${name}/`)) return { round, finished: null };
  // The gate of `round` was cut off: the round's own row, when it finished, is what the gate judges.
  const worked = rows.findLast((row) => !row.step.startsWith(`${name}/`));
  return worked !== undefined && worked.ok && roundOf(worked.step, name) === round
    ? { round, finished: worked }
    : null;
}

/**
 * The result of a round an earlier process finished before its gate was cut off, from its manifest row: what
 * the gate judges. Its cost was that process's, so none is counted here.
 */
export function finishedRound(row: ManifestRow): StepResult {
  return {
    ...newStepResult(row.step, row.started_at),
    sessionId: row.session_id,
    ok: true,
    outcome: { kind: 'ok' },
    text: row.text,
    numTurns: row.num_turns,
    endedAt: row.ended_at,
    attempts: row.attempts,
    context: row.context,
  };
}

/**
 * The judged step `name`'s last round and its ACHIEVED verdict, when the step passed and the step after it
 * (`next`) was then cut off — a run killed in its bequest, or before the bequest's row was written
 * (`nextFollows`: the workflow runs `next` after the step): the step is done and is not woken for another
 * round (decisions.md D333). Null otherwise.
 */
export function passedBeforeCutOff(
  runDir: string,
  name: string,
  next: string,
  nextFollows = true,
): { round: ManifestRow; verdict: ManifestRow } | null {
  const rows = readManifest(runDir);
  const last = rows.at(-1);
  if (last === undefined) return null;
  // The bequest cut off, or killed before its row was written (the row appears only once Claude Code names
  // its session): then the step's ACHIEVED verdict is the last row, and the run is as far as the bequest.
  const nextCutOff = last.step === next && cutOff(last);
  const beforeNext = roundOf(last.step, name) !== null && last.step.startsWith(`${name}/verdict#`);
  if (!nextCutOff && !(nextFollows && beforeNext)) return null;
  const mine = rows.filter((row) => roundOf(row.step, name) !== null);
  const verdict = mine.at(-1);
  const round = mine.findLast((row) => !row.step.startsWith(`${name}/`));
  if (verdict === undefined || round === undefined || !verdict.step.startsWith(`${name}/verdict#`))
    return null;
  const achieved =
    verdict.ok &&
    Verdict.parse(verdict.text).state === 'ACHIEVED' &&
    (verdict.checks === undefined || verdict.checks.result === 'ACHIEVED');
  return achieved && round.ok ? { round, verdict } : null;
}

/** A verdict row that finished and sent the work back for another round (not ACHIEVED, not UNREACHABLE). */
function rejected(row: ManifestRow): boolean {
  if (!row.ok || row.ended_at === 0) return false;
  const state = Verdict.parse(row.text ?? '').state;
  if (state === 'UNREACHABLE') return false;
  return state !== 'ACHIEVED' || (row.checks !== undefined && row.checks.result !== 'ACHIEVED');
}

/**
 * A row whose process died while it ran: still unfinished (`ended_at` 0: a SIGKILL leaves it so until a
 * later process resumes its session, which a judge's session never is), or completed as killed.
 */
function cutOff(row: ManifestRow): boolean {
  return !row.ok && (row.ended_at === 0 || row.error === KILLED);
}

/**
 * The round a manifest label of step `name` belongs to: `name` 1, `name#roundN` N, and a gate's row
 * `name/<what>#N` (the verdict, a goal or checks revision) N; null for another step's label.
 */
export function roundOf(label: string, name: string): number | null {
  if (label === name) return 1;
  const round = new RegExp(`^${escaped(name)}#round(\\d+)$`).exec(label);
  if (round !== null) return Number(round[1]);
  const gate = new RegExp(`^${escaped(name)}/[a-z]+#(\\d+)$`).exec(label);
  return gate === null ? null : Number(gate[1]);
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
