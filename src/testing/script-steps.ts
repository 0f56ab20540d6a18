/**
 * A script for a workflow: answers by step, told apart by the step's prompt. Every step opens a new main
 * session at turn 0, so a script by thread and turn ({@link scriptTurns}) cannot tell the second step's
 * first call from the first step's; the prompt the step sent can (docs/testing.md, "Test a workflow").
 *
 * @module
 */
import type { FakeResponse } from './fake-response.js';
import type { FakeScript } from './fake-script.js';
import { UnscriptedCallError } from './fake-script.js';
import { describeTurn, lastUserText, MAIN_THREAD, messagesOf, type FakeRequest } from './request-matching.js';
import type { ScriptedTurn } from './script-turns.js';

/** The script of one step (or of one prompt a step sends, such as a gate's feedback). */
export interface StepScript {
  /**
   * Which requests are this step's: a text the step's prompt contains, or a pattern it matches. The prompt
   * is the latest user message that carries text — the step's own prompt, not the tool results that follow.
   */
  prompt: string | RegExp;
  /** `main[i]` answers the i-th call after that prompt: 0 is the first call, 1 the call after one tool round. */
  main: readonly ScriptedTurn[];
  /** `subagent[i]` answers turn i of every subagent this step starts, each agent id counting from 0. */
  subagent?: readonly ScriptedTurn[];
}

/** The steps of {@link scriptSteps}, by step name (the name appears in the message of an unscripted call). */
export type ScriptedSteps = Readonly<Record<string, StepScript>>;

/**
 * A script that answers each main-thread call by the step whose `prompt` matches the call's latest prompt
 * (the first match in the order given), at the turn counted from that prompt; a subagent's call by the step
 * whose main thread was answered last (steps run one at a time). As in {@link scriptTurns}, a list of
 * answers serves successive attempts at one turn, and a call nothing answers (or a compaction request)
 * throws {@link UnscriptedCallError}, which a strict server answers with a 500 naming the call.
 */
export function scriptSteps(steps: ScriptedSteps): FakeScript {
  const entries = Object.entries(steps);
  const attempts = new Map<string, number>();
  let current: [string, StepScript] | null = null;
  return (request) => {
    if (request.compaction) {
      throw new UnscriptedCallError(`fake API: no scripted answer for ${describeTurn(request)}`);
    }
    let list: readonly ScriptedTurn[];
    let turn: number;
    let where: string;
    if (request.thread === MAIN_THREAD) {
      const prompt = latestPrompt(request);
      const found = entries.find(([, script]) => matches(script.prompt, prompt.text));
      if (found === undefined) {
        throw new UnscriptedCallError(
          `fake API: no step's prompt matches ${describeTurn(request)} (its prompt begins ${JSON.stringify(prompt.text.slice(0, 60))})`,
        );
      }
      current = found;
      [where, { main: list }] = found;
      turn = prompt.turn;
    } else {
      if (current === null) {
        throw new UnscriptedCallError(`fake API: ${describeTurn(request)} came before any step's call`);
      }
      where = current[0];
      list = current[1].subagent ?? [];
      turn = request.turn;
    }
    const scripted = list[turn];
    const label = `step '${where}' ${request.thread === MAIN_THREAD ? 'main' : 'subagent'} turn ${turn}`;
    if (scripted === undefined) throw new UnscriptedCallError(`fake API: no scripted answer for ${label}`);
    if (!Array.isArray(scripted)) return scripted as FakeResponse;
    const key = `${where}\u0000${request.thread}\u0000${turn}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    const answer = scripted[Math.min(attempt, scripted.length - 1)] as FakeResponse | undefined;
    if (answer === undefined)
      throw new UnscriptedCallError(`fake API: the script for ${label} is an empty list`);
    return answer;
  };
}

function matches(pattern: string | RegExp, text: string): boolean {
  return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
}

/** The latest user message with text in it, and how many assistant messages came after it. */
function latestPrompt(request: FakeRequest): { text: string; turn: number } {
  const messages = messagesOf(request.body);
  let turn = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.['role'] === 'assistant') turn += 1;
    if (message?.['role'] !== 'user') continue;
    const text = lastUserText({ body: { messages: [message] } });
    if (text !== '') return { text, turn };
  }
  return { text: '', turn };
}
