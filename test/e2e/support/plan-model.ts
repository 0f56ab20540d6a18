/**
 * A scripted "model" for end-to-end runs that, like a real one, decides from the conversation it is sent:
 * it works through a numbered plan of Bash steps and calls the next one whose result it has not seen
 * (an interrupted call counts as not done), then answers with a final text. A fresh session would make it
 * start the plan again, so a run that silently lost its session repeats tools — which the tests check.
 *
 * @module
 */
import {
  message,
  text,
  toolUse,
  type ContentBlock,
  type FakeRequest,
  type FakeResponse,
  type Usage,
} from '../../../src/testing/index.js';
import { usageCost } from '../../../src/runtime/price-table.js';

const STEP_ID = /^toolu_s(\d+)_(\d+)$/;
const INTERRUPTED = /interrupted/i;

type Block = Record<string, unknown>;

function blocks(content: unknown): Block[] {
  return Array.isArray(content) ? (content as Block[]) : [];
}

/** What the conversation in `request` shows of the plan. */
export interface Progress {
  /** Steps whose tool call returned a result that was not an interruption. */
  done: Set<number>;
  /** Tool calls issued per step (interrupted ones included). */
  issued: Map<number, number>;
  /** Tool-use ids whose results arrived, with whether they completed. */
  results: Map<string, boolean>;
}

/** Reads the plan's progress from the request's messages. */
export function progressOf(request: Pick<FakeRequest, 'body'>): Progress {
  const progress: Progress = { done: new Set(), issued: new Map(), results: new Map() };
  const messages = (request.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const stepOf = new Map<string, number>();
  for (const item of messages) {
    for (const block of blocks(item.content)) {
      if (block['type'] === 'tool_use' && typeof block['id'] === 'string') {
        const match = STEP_ID.exec(block['id']);
        if (match === null) continue;
        const step = Number(match[1]);
        stepOf.set(block['id'], step);
        progress.issued.set(step, (progress.issued.get(step) ?? 0) + 1);
      }
      if (block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string') {
        const body = JSON.stringify(block['content'] ?? '');
        const completed = block['is_error'] !== true && !INTERRUPTED.test(body);
        progress.results.set(block['tool_use_id'], completed);
        const step = stepOf.get(block['tool_use_id']);
        if (completed && step !== undefined) progress.done.add(step);
      }
    }
  }
  return progress;
}

/** The first plan step (1…`steps`) not done, or `steps + 1` when all are. */
export function nextStep(progress: Progress, steps: number): number {
  for (let step = 1; step <= steps; step++) if (!progress.done.has(step)) return step;
  return steps + 1;
}

/** The tool-use id of `step`'s next call. */
export function stepToolId(step: number, progress: Progress): string {
  return `toolu_s${step}_${(progress.issued.get(step) ?? 0) + 1}`;
}

/** The Bash call of a plain plan step: appends `step-NN` to `ran.log` in the workspace. */
export function bashStep(step: number, progress: Progress): ContentBlock {
  const label = `step-${String(step).padStart(2, '0')}`;
  return toolUse(
    'Bash',
    { command: `echo ${label} >> ran.log`, description: label },
    stepToolId(step, progress),
  );
}

/** Answers with known usage and keeps the list-price cost of every answer sent, to compare with flower. */
export class UsageMeter {
  #count = 0;
  /** Dollars of every message answer sent, at the list price the child uses. */
  totalUsd = 0;
  readonly sent: Usage[] = [];

  /** A message answer with usage unique to it, counted as sent. */
  answer(content: ContentBlock[]): FakeResponse {
    this.#count++;
    const usage: Usage = {
      input_tokens: 1000 + this.#count,
      output_tokens: 20 + (this.#count % 7),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 300,
    };
    this.sent.push(usage);
    this.totalUsd += usageCost('claude-opus-5-5', usage);
    return message(content, { usage });
  }

  /** A final text answer. */
  say(value: string): FakeResponse {
    return this.answer([text(value)]);
  }
}
