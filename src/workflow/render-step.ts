/**
 * `renderStep`: the prompt a step sends, from its `prompt` (or, when it resumes its own session from an
 * earlier run, its `resumePrompt`) and the context.
 *
 * @module
 */
import type { Ctx, Step } from './step.js';

/**
 * The prompt for `s` in `ctx`. With `resuming` and a `resumePrompt`, that one is used: without it a step
 * resumed after a wake would receive its original request again and take it as a new task. A function
 * prompt is called (and awaited) with the context; it must return a string.
 */
export async function renderStep(s: Step, ctx: Ctx, options: { resuming?: boolean } = {}): Promise<string> {
  const source =
    options.resuming === true && s.resumePrompt !== null && s.resumePrompt !== undefined
      ? s.resumePrompt
      : s.prompt;
  const prompt: unknown = typeof source === 'function' ? await source(ctx) : source;
  if (typeof prompt !== 'string') {
    throw new TypeError(`Step '${s.name}': its prompt function returned ${typeof prompt}, not a string.`);
  }
  return prompt;
}
