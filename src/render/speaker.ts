/**
 * Who speaks in an event: the role behind the session that produced it, read from the step label the runtime
 * puts on every event. A judge round runs inside its work step's header, so without a name its verdict would
 * read as the coordinator's words; the renderer prints a speaker line whenever the speaker changes.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';

/** The roles flower names on screen. */
export type SpeakerRole = 'judge' | 'coordinator' | 'clarifier' | 'goal' | 'bequest' | 'oracle';

/** The speaker of an event: a role, and the judge's round. */
export interface Speaker {
  role: SpeakerRole;
  /** The judge's round (1-based); null for the other roles. */
  round: number | null;
}

// A judge round is labelled `<step>/verdict#<n>` (and `<step>·判定#<n>` by the Python flower).
const JUDGE_ROUND = /(?:\/verdict|·判定)#(\d+)$/u;
// Reruns of a step keep its speaker: `work#round2`, `work#retry1`.
const ATTEMPT = /#(?:round|retry)\d+$/u;

// The go path's built-in step names (the workflow layer's `STEP_NAMES`, kept here as data so the renderer
// does not load the workflow layer) and the side questions' aside runtime. A step of a user's own workflow is
// named by its step header already and gets no speaker line of its own; only its judge does.
const ROLE_OF_STEP: Readonly<Record<string, SpeakerRole>> = {
  clarify: 'clarifier',
  goal: 'goal',
  work: 'coordinator',
  bequest: 'bequest',
  aside: 'oracle',
};

/** The speaker of an event of step `step`, or null when the step header already says who it is. */
export function speakerOf(step: string | null): Speaker | null {
  if (step === null) return null;
  const judge = JUDGE_ROUND.exec(step);
  if (judge !== null) return { role: 'judge', round: Number(judge[1]) };
  const role = ROLE_OF_STEP[step.replace(ATTEMPT, '')];
  return role === undefined ? null : { role, round: null };
}

/** The speaker's name as shown: `judge · round 2`, `coordinator`, `oracle` (translated). */
export function speakerName(speaker: Speaker, lang: Lang = 'en'): string {
  const name = uiText(`who.${speaker.role}`, {}, lang);
  return speaker.round === null ? name : uiText('who.round', { who: name, n: speaker.round }, lang);
}

/** Whether two speakers are the same (same role and round), null included. */
export function sameSpeaker(left: Speaker | null, right: Speaker | null): boolean {
  return left?.role === right?.role && left?.round === right?.round;
}
