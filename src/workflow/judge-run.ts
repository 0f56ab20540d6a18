/**
 * Running a judge on the workflow's runtime without it entering lineage (docs/continuity.md: "the judge never
 * touches lineage, so it is always a fresh session").
 *
 * @module
 */
import type { AgentSpec } from '../agent/agent-spec.js';
import type { EventSink } from '../events/flower-event.js';
import type { StepResult } from '../runtime/step-result.js';
import type { RuntimeLike } from './runtime-like.js';

/**
 * One judge run: always a fresh session (never resumed), and with no session hook for this run (not even the
 * runtime's own) so the judge never enters lineage — a resumed judge would remember the work it is meant not
 * to excuse.
 */
export async function runOutsideLineage(
  rt: RuntimeLike,
  spec: AgentSpec,
  prompt: string,
  options: { label: string; sink: EventSink | null; signal?: AbortSignal | undefined },
): Promise<StepResult> {
  return await rt.run(spec, prompt, {
    stepName: options.label,
    onEvent: options.sink,
    verbatim: true,
    onSession: null,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}
