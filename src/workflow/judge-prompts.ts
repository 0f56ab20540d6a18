/**
 * The prompts of the judge's two jobs on the go path (docs/roles.md, docs/go-path.md): A, set the
 * goal from the brief; B, judge one round of work against it. The judge's rule text holds the formats; these
 * prompts open with the job line from `judge.ts` and carry the material. They are sent verbatim (decision
 * 11): a brief may begin with `/` or contain `@path`.
 *
 * @module
 */
import type { Goal } from '../roles/goal.js';
import { setGoalInstructions, verdictInstructions } from '../roles/judge.js';
import { amendmentsMarkdown, type BriefAmendment } from './brief-amendments.js';

const SEPARATOR = '\n\n---\n\n';

/** Stands in for the brief when the workflow has no clarify step. */
export const NO_BRIEF =
  '(No brief was written: this workflow has no clarify step. Set the goal from the request as the workspace shows it, keep the checklist short, and mark what cannot be known here as unverifiable.)';

/** What job A needs. */
export interface SetGoalMaterial {
  /** The brief's prompt block, or null when there is none. */
  brief: string | null;
  /** The environment fact sheet (decisions.md D102). */
  facts: string;
  /**
   * A goal the human amended after the judge found the old one unreachable (decisions.md D110): it prevails.
   */
  amended?: { goal: Goal; words: string } | null;
}

/** Job A: turn the brief (and, after an amendment, the human's new words) into a goal and checklist. */
export function setGoalPrompt(material: SetGoalMaterial): string {
  const parts = [setGoalInstructions(), material.facts];
  const brief = material.brief === null || material.brief.trim() === '' ? NO_BRIEF : material.brief;
  parts.push(`The brief:\n\n${brief}`);
  const amended = material.amended ?? null;
  if (amended !== null) {
    parts.push(
      [
        `The judge found the previous goal unreachable and the human amended it: "${amended.words}"`,
        'Set the goal again. Where the amendment and the brief disagree, the amendment prevails. The previous goal, for reference:',
        '',
        amended.goal.promptBlock(),
      ].join('\n'),
    );
  }
  return parts.join(SEPARATOR);
}

/** What job B needs. */
export interface VerifyMaterial {
  /** The goal to judge against; may be empty when none was ever set. */
  goal: Goal;
  /** Where the goal is frozen, as shown to the model. */
  goalPath: string;
  /** The worker's (coordinator's) final reply of this round. */
  reply: string;
  /** What the human added to the brief after it was frozen (decisions.md D111). */
  amendments: readonly BriefAmendment[];
  /** flower's own run of the goal's machine checks this round (docs/goal-checks.md), as text; none without. */
  checks?: string;
}

/**
 * Job B: judge the round. The worker's reply is given as a claim to check, never as evidence, and requirements
 * the human added to the brief during the run count as part of the goal (decisions.md D111: the reference's
 * judge saw only goal and report, so it graded against a requirement the human had already changed).
 */
export function verifyPrompt(material: VerifyMaterial): string {
  const goal = material.goal.promptBlock();
  const parts = [
    verdictInstructions(),
    `The goal (frozen in ${material.goalPath}):\n\n${goal === '' ? '(No goal was set. Judge against what the reply claims was asked, and say NOT_YET if you cannot tell.)' : goal}`,
    `The worker's final reply — a claim to check, not evidence:\n\n${material.reply.trim() === '' ? '(empty)' : material.reply.trim()}`,
  ];
  if (material.checks !== undefined && material.checks !== '') parts.push(material.checks);
  if (material.amendments.length > 0) {
    parts.push(
      `The human added these requirements to the brief during the run. They are part of the goal; an item they change is judged by the new words:\n\n${amendmentsMarkdown(material.amendments)}`,
    );
  }
  parts.push(
    'Now inspect the scene item by item. Do not trust the reply: an item without evidence you saw yourself has failed. Reply with the three sections Conclusion, Reason and Failed.',
  );
  return parts.join(SEPARATOR);
}

/** One check the judge must rewrite, and why. */
export interface CheckToRepair {
  readonly item: string;
  readonly problem: string;
}

/**
 * Job A again, to repair the goal's machine checks (docs/goal-checks.md): a malformed block, an item without
 * one, or a check that passed on the tree before the work began — it tests nothing, so it cannot count. The
 * judge rewrites the whole goal; the rest of it should stay as it is.
 */
export function repairChecksPrompt(material: {
  goal: Goal;
  problems: readonly CheckToRepair[];
  facts: string;
}): string {
  const problems = material.problems.map((entry) => `- ${entry.item}: ${entry.problem}`).join('\n');
  return [
    setGoalInstructions(),
    material.facts,
    `Some machine checks of the goal below do not work:\n\n${problems}`,
    'Rewrite the goal with the two sections Goal and Checklist, keeping the goal and every other item and check as they are. Replace each check above with one that fails on the tree before the work began and passes only once the item is delivered, or mark the item `manual: <reason>` (with `needs: <environment>` when it needs one flower is not in).',
    `The goal now:\n\n${material.goal.promptBlock()}`,
  ].join(SEPARATOR);
}
