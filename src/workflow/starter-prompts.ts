/**
 * The texts the go path sends the coordinator (docs/go-path.md): the work prompt of a new session and the
 * wake prompt of a resumed one, plus the starter worker's description and rules. Sent verbatim
 * (decisions.md D11); their wording is in `src/roles/prompts/` (`starter-*.md`, `coder*.md`).
 *
 * @module
 */
import type { Ctx } from './step.js';
import { loadPrompt } from '../internal/load-prompt.js';

const SEPARATOR = '\n\n---\n\n';

/** How the coordinator picks the starter's one worker: say *when* (docs/roles.md). */
export const CODER_DESCRIPTION = loadPrompt('coder-description');

/** The starter worker's own rules, before the shared report discipline. */
export const CODER_PROMPT = loadPrompt('coder');

/**
 * The work prompt: do it per the brief; then, with a goal, the standard an independent judge will check item
 * by item after every round, so the coordinator knows it up front.
 */
export function workPrompt(ctx: Ctx, briefKey: string, fallback: string): string {
  const brief = ctx[briefKey];
  const parts = [
    loadPrompt('starter-work', {
      brief: typeof brief === 'string' && brief.trim() !== '' ? brief : fallback.trim(),
    }),
  ];
  const goal = ctx._goal?.promptBlock() ?? '';
  if (goal !== '') parts.push(loadPrompt('starter-acceptance', { goal }));
  return parts.join(SEPARATOR);
}

/**
 * The wake prompt (the work session resumed in a new process): the human's remark, or a nudge to continue.
 * When the remark re-derived the goal, the new goal follows and is said to prevail — otherwise the coordinator
 * would work to the old goal and be judged by the new one.
 */
export function wakePrompt(ctx: Ctx, said: string, rederived: boolean, lastFeedback = ''): string {
  const opening = said.trim() === '' ? loadPrompt('starter-wake') : said.trim();
  const goal = rederived ? (ctx._goal?.promptBlock() ?? '') : '';
  if (goal !== '') return `${opening}${SEPARATOR}${loadPrompt('starter-goal-rederived', { goal })}`;
  // The run stopped on a rejected round (rounds used up): the session must hear what the judge found again,
  // or it resumes believing its last report.
  return lastFeedback === '' ? opening : `${opening}${SEPARATOR}${lastFeedback}`;
}
