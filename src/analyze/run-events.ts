/**
 * What analyze takes from the run's event log (`events.jsonl`): the cost as it grew, the handoffs, each
 * session's handoff threshold, what spill and trim kept out of the context, and the workspace the sessions
 * ran in. Lines that are not events (the log's own `open` markers, a torn last line) are passed over.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { isRecord } from '../internal/is-record.js';
import type { ContextCurve, CostPoint, Savings } from './run-analysis.js';

/** The figures of one event log. */
export interface RunEvents {
  present: boolean;
  costOverTime: CostPoint[];
  handoffs: ContextCurve['handoffs'];
  /** The last threshold and window logged for each session id. */
  thresholds: Map<string, { threshold: number; window: number }>;
  savings: Savings;
  /** The `cwd` of the first session that started, or `null`. */
  workspace: string | null;
}

/** Reads `path`; an absent or unreadable file gives empty figures with `present: false`. */
export function readRunEvents(path: string): RunEvents {
  const events: RunEvents = {
    present: false,
    costOverTime: [],
    handoffs: [],
    thresholds: new Map(),
    savings: {
      spill: { results: 0, chars: 0 },
      trim: {
        loads: 0,
        expired: 0,
        cleared: 0,
        kept: 0,
        charsSaved: 0,
        pruned: 0,
        denialsDropped: 0,
        healed: 0,
      },
    },
    workspace: null,
  };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return events;
  }
  events.present = true;
  let spent = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(event) || typeof event['kind'] !== 'string') continue;
    const at = number(event['at']);
    const step = typeof event['step'] === 'string' ? event['step'] : '';
    switch (event['kind']) {
      case 'cost':
        spent += number(event['usd']);
        events.costOverTime.push({ at, step, costUsd: spent });
        break;
      case 'handoff':
        if (event['phase'] === 'done') {
          events.handoffs.push({
            step,
            at,
            context: number(event['context']),
            threshold: number(event['threshold']),
          });
        }
        break;
      case 'context':
        if (typeof event['sessionId'] === 'string' && typeof event['threshold'] === 'number') {
          events.thresholds.set(event['sessionId'], {
            threshold: number(event['threshold']),
            window: number(event['window']),
          });
        }
        break;
      case 'spill':
        events.savings.spill.results += 1;
        events.savings.spill.chars += number(event['chars']);
        break;
      case 'trim':
        addTrim(events.savings.trim, event['report']);
        break;
      case 'system':
        if (events.workspace === null && isRecord(event['data'])) {
          const cwd = event['data']['cwd'];
          if (event['data']['subtype'] === 'init' && typeof cwd === 'string') events.workspace = cwd;
        }
        break;
      default:
        break;
    }
  }
  return events;
}

function addTrim(trim: Savings['trim'], report: unknown): void {
  if (!isRecord(report)) return;
  trim.loads += 1;
  trim.expired += number(report['expired']);
  trim.cleared += number(report['cleared']);
  trim.kept += number(report['kept']);
  trim.charsSaved += number(report['charsSaved']);
  trim.pruned += number(report['pruned']);
  trim.denialsDropped += number(report['denialsDropped']);
  trim.healed += number(report['healed']);
}

function number(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
