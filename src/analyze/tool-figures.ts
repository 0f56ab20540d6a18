/**
 * Tool use: calls, the top tools, denials by the kind the transcript recorded (never by wording), the main
 * thread's Bash verbs, calls per role, and subagent calls per dispatch.
 *
 * @module
 */
import { isRecord } from '../internal/is-record.js';
import { ranked, ratio } from './figure-math.js';
import type { ToolUse, Tools } from './run-analysis.js';
import type { SessionPlace } from './session-order.js';
import { stepRole } from './step-role.js';
import type { ToolCall, TranscriptStats } from './transcript-stats.js';

function toolUse(transcripts: readonly TranscriptStats[]): ToolUse {
  const byTool = new Map<string, number>();
  const byKind = new Map<string, number>();
  let calls = 0;
  for (const transcript of transcripts) {
    for (const call of transcript.calls) {
      calls += 1;
      byTool.set(call.tool, (byTool.get(call.tool) ?? 0) + 1);
    }
    for (const [kind, count] of transcript.denials) byKind.set(kind, (byKind.get(kind) ?? 0) + count);
  }
  const denials = [...byKind.values()].reduce((total, count) => total + count, 0);
  return {
    calls,
    top: ranked(byTool, 10).map(([tool, count]) => ({ tool, calls: count })),
    denials,
    denialsByKind: ranked(byKind).map(([kind, count]) => ({ kind, count })),
    denialRate: ratio(denials, calls),
  };
}

/** Tool use of the main thread, the subagents and the aside. */
export function toolsOf(
  main: readonly TranscriptStats[],
  subagents: readonly TranscriptStats[],
  aside: readonly TranscriptStats[],
  order: Map<string, SessionPlace>,
): Tools {
  const verbs = new Map<string, number>();
  let dispatches = 0;
  const perRole = new Map<string, number>();
  const count = (role: string, calls: number): void => {
    if (calls > 0) perRole.set(role, (perRole.get(role) ?? 0) + calls);
  };
  for (const transcript of main) {
    const place = order.get(transcript.sessionId);
    count(place === undefined ? 'unknown' : stepRole(place.step), transcript.calls.length);
    for (const call of transcript.calls) {
      if (call.tool === 'Agent' || call.tool === 'Task') dispatches += 1;
      const verb = bashVerb(call);
      if (verb !== null) verbs.set(verb, (verbs.get(verb) ?? 0) + 1);
    }
  }
  for (const transcript of subagents) count('worker', transcript.calls.length);
  for (const transcript of aside) count('oracle', transcript.calls.length);
  const subagent = toolUse(subagents);
  return {
    main: toolUse(main),
    subagent,
    mainBashVerbs: ranked(verbs, 8).map(([verb, calls]) => ({ verb, count: calls })),
    perRole: ranked(perRole).map(([role, calls]) => ({ role, calls })),
    dispatches,
    callsPerDispatch: ratio(subagent.calls, dispatches),
  };
}

function bashVerb(call: ToolCall): string | null {
  if (call.tool !== 'Bash' || !isRecord(call.input)) return null;
  const command = call.input['command'];
  if (typeof command !== 'string') return null;
  const word = command.trim().split(/\s+/)[0];
  return word === undefined || word === '' ? null : word;
}
