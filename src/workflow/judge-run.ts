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
 * One judge run: always a fresh session (never resumed), and with the runtime's session hook detached so the
 * judge never enters lineage — a resumed judge would remember the work it is meant not to excuse.
 */
export async function runOutsideLineage(
  rt: RuntimeLike,
  spec: AgentSpec,
  prompt: string,
  options: { label: string; sink: EventSink | null; signal?: AbortSignal | undefined },
): Promise<StepResult> {
  const previous = rt.onSession;
  rt.onSession = null;
  try {
    return await rt.run(spec, prompt, {
      stepName: options.label,
      onEvent: options.sink,
      verbatim: true,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } finally {
    rt.onSession = previous;
  }
}
