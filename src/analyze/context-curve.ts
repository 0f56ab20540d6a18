/**
 * The main thread's context curve: `input + cache_read + cache_creation` of each response, session by
 * session in the order they ran, with the handoff threshold each session logged, the session a handoff
 * retired, an even sample of about twenty points and the significant drops.
 *
 * @module
 */
import type { ContextCurve, ContextPoint, SessionCurve } from './run-analysis.js';
import type { RunEvents } from './run-events.js';
import type { SessionPlace } from './session-order.js';
import { stepRole } from './step-role.js';
import type { TranscriptStats } from './transcript-stats.js';

/** How many points the context curve's sample table keeps. */
const CURVE_SAMPLES = 20;
/** A point below this share of the one before is a significant drop. */
const DROP_RATIO = 0.7;
/** How many drop turns are listed. */
const LISTED_DROPS = 6;

/** The curve of the `main` transcripts (already in run order). */
export function contextCurve(
  main: readonly TranscriptStats[],
  order: Map<string, SessionPlace>,
  events: RunEvents,
  stepAt: (at: number | null) => string | null,
): ContextCurve {
  let turn = 0;
  const sessions: SessionCurve[] = main.map((transcript) => {
    const place = order.get(transcript.sessionId);
    const logged = events.thresholds.get(transcript.sessionId);
    const points: ContextPoint[] = [];
    for (const response of transcript.responses) {
      // A response with no context at all is a synthetic record (an API error written locally), not a turn.
      if (response.context === 0) continue;
      turn += 1;
      points.push({ turn, tokens: response.context, at: response.at, step: stepAt(response.at) });
    }
    return {
      sessionId: transcript.sessionId,
      step: place?.step ?? null,
      role: place === undefined ? null : stepRole(place.step),
      points,
      threshold: logged?.threshold ?? null,
      window: logged?.window ?? null,
      retiredBy: place?.retiredBy ?? null,
    };
  });
  const points = sessions.flatMap((session) => session.points);
  const every = Math.max(1, Math.floor(points.length / CURVE_SAMPLES));
  const samples = points.filter((_, index) => index % every === 0);
  const last = points.at(-1);
  if (last !== undefined && samples.at(-1) !== last) samples.push(last);
  const drops: number[] = [];
  for (let index = 1; index < points.length; index += 1) {
    const previous = points[index - 1];
    const point = points[index];
    if (previous !== undefined && point !== undefined && point.tokens < previous.tokens * DROP_RATIO) {
      drops.push(point.turn);
    }
  }
  const values = points.map((point) => point.tokens);
  return {
    sessions,
    turns: points.length,
    first: points[0]?.tokens ?? null,
    min: values.length === 0 ? null : values.reduce((a, b) => Math.min(a, b)),
    max: values.length === 0 ? null : values.reduce((a, b) => Math.max(a, b)),
    last: last?.tokens ?? null,
    samples,
    drops: { count: drops.length, firstTurns: drops.slice(0, LISTED_DROPS) },
    handoffs: events.handoffs,
  };
}
