/**
 * `ActivityLine`: what a run is doing right now, as one screen line — the signs of life under a run's
 * output on a terminal: how long the current model call has been going, how many tokens its reply has so
 * far, which tool and which worker are running and since when, and the run's cost. It only keeps state
 * from events and formats; drawing it (and keeping it out of the scrollback) is the status footer's job.
 *
 * @module
 */
import { clockTime } from '../config/format-elapsed.js';
import { humanDuration, uiText, type Lang } from '../config/ui-text.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { displayWidth, fitLine } from './display-width.js';
import { formatContext, formatElapsed, formatUsd } from './format-numbers.js';

interface Running {
  name: string;
  since: number;
}

/** A wait for the network in progress: where, since when, and when the next check comes (epoch ms). */
interface NetworkWait {
  host: string;
  port: number;
  since: number;
  nextCheck: number | null;
}

/** Keeps the state of the line from events; `text(now)` formats it. Times are epoch milliseconds. */
export class ActivityLine {
  readonly #lang: Lang;
  /** Something runs: from the first event of a step until its result. */
  #active = false;
  #callSince = 0;
  #tokens = 0;
  #runUsd = 0;
  /** Tools running, by tool-use id, in the order they started. */
  readonly #tools = new Map<string, Running>();
  /** Workers (subagents) running, by task id or the Agent call's tool-use id. */
  readonly #workers = new Map<string, Running>();
  /**
   * The network wait, while one lasts. The log gets a countdown line per check (every 15 s); the footer is
   * redrawn every second, so it is where the countdown really counts.
   */
  #wait: NetworkWait | null = null;
  /** While the run is parked at a usage limit: when it resets (epoch seconds); the footer counts down. */
  #parkedUntil: number | null = null;

  constructor(lang: Lang = 'en') {
    this.#lang = lang;
  }

  /** True while a step is running (the line has something to say). */
  get active(): boolean {
    return this.#active;
  }

  /** Takes in one event; `now` is when it arrived (epoch ms). */
  observe(event: FlowerEvent, now: number): void {
    if (event.kind === 'cost') {
      this.#runUsd = Math.max(this.#runUsd, event.runUsd);
      return;
    }
    if (event.kind === 'result' || event.kind === 'step_end') {
      this.#active = false;
      this.#tools.clear();
      this.#workers.clear();
      this.#wait = null;
      return;
    }
    if (event.kind === 'usage_limit' && event.phase === 'parked') this.#parkedUntil = event.resetsAt;
    else if (event.kind !== 'stream') this.#parkedUntil = null;
    if (event.kind === 'wait') {
      this.#wait = { host: event.host, port: event.port, since: now, nextCheck: null };
    } else if (event.kind === 'waiting') {
      this.#wait = {
        host: event.host,
        port: event.port,
        since: now - event.waitedS * 1000,
        nextCheck: now + event.nextCheckS * 1000,
      };
    } else if (event.kind !== 'stream') {
      this.#wait = null;
    }
    if (!this.#active || event.kind === 'step') {
      this.#active = true;
      this.#newCall(now);
    }
    switch (event.kind) {
      case 'stream':
        if (!event.subagent) this.#tokens = event.tokens;
        return;
      case 'tool_call':
        if (event.tool === 'Agent' || event.tool === 'Task') {
          const type = event.input['subagent_type'];
          this.#workers.set(event.id, {
            name: typeof type === 'string' ? type : 'general-purpose',
            since: now,
          });
        } else {
          this.#tools.set(event.id, { name: event.tool, since: now });
        }
        return;
      case 'tool_result':
        this.#tools.delete(event.toolUseId);
        this.#workers.delete(event.toolUseId);
        // The main thread's model call that follows a tool result starts now.
        if (!event.subagent) this.#newCall(now);
        return;
      case 'subagent_start':
        if (event.toolUseId !== null) this.#workers.delete(event.toolUseId);
        this.#workers.set(event.taskId, { name: event.agentType ?? event.description, since: now });
        return;
      case 'subagent_stop':
        this.#workers.delete(event.taskId);
        if (event.toolUseId !== null) this.#workers.delete(event.toolUseId);
        return;
      default:
        return;
    }
  }

  /** The line at `now` fitted to `columns` (never wider, so it never wraps); '' when nothing runs. */
  text(now: number, columns: number): string {
    if (!this.#active) return '';
    const say = (key: Parameters<typeof uiText>[0], vars: Record<string, string | number>): string =>
      uiText(key, vars, this.#lang);
    const since = (from: number): string => formatElapsed((now - from) / 1000);
    if (this.#parkedUntil !== null) {
      const left = formatElapsed(Math.ceil(this.#parkedUntil - now / 1000));
      return fitWait(say('rt.parked', { at: clockTime(this.#parkedUntil), left }), Math.max(10, columns - 1));
    }
    if (this.#wait !== null) return fitWait(this.#waitText(now), Math.max(10, columns - 1));
    const fields = [say('act.call', { t: since(this.#callSince) })];
    if (this.#tokens > 0) fields.push(say('act.tokens', { n: formatContext(this.#tokens) }));
    const tool = [...this.#tools.values()].at(-1);
    if (tool !== undefined) fields.push(say('act.tool', { name: tool.name, t: since(tool.since) }));
    const worker = [...this.#workers.values()].at(-1);
    if (worker !== undefined) {
      const more = this.#workers.size > 1 ? ` +${this.#workers.size - 1}` : '';
      fields.push(say('act.worker', { name: `${worker.name}${more}`, t: since(worker.since) }));
    }
    fields.push(`$${formatUsd(this.#runUsd, 2)}`);
    const line = `  ~ ${fields.join(' · ')}`;
    // One column short of the width: a line that fills its last column leaves the cursor on the next row.
    return fitLine(line, Math.max(10, columns - 1));
  }

  #waitText(now: number): string {
    const wait = this.#wait;
    if (wait === null) return '';
    const next = wait.nextCheck === null ? 0 : Math.max(0, Math.ceil((wait.nextCheck - now) / 1000));
    return uiText(
      'net.waiting',
      {
        host: wait.host,
        port: wait.port,
        waited: formatElapsed((now - wait.since) / 1000),
        next: humanDuration(next, this.#lang),
      },
      this.#lang,
    );
  }

  #newCall(now: number): void {
    this.#callSince = now;
    this.#tokens = 0;
  }
}

/**
 * The wait line fitted to `width`: a narrow terminal loses the Ctrl-C hint first, then the time waited, so the
 * endpoint and the next check (what a person waits for) stay whole rather than cut to `next c…`.
 */
function fitWait(text: string, width: number): string {
  const fields = text.split(' · ');
  const line = (): string => `  ~ ${fields.join(' · ')}`;
  for (const drop of [3, 1]) {
    if (displayWidth(line()) <= width || fields.length <= drop) break;
    fields.splice(drop, 1);
  }
  return fitLine(line(), width);
}
