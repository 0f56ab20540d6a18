/**
 * `bequestStep`: the last step of the go path (docs/go-path.md). A read-only
 * finishing turn writes a short note for the person who continues with Claude Code or Codex — what was built,
 * which criteria are unmet, which files are generated from what, the dead ends, where to read first — and
 * flower puts it into `CLAUDE.md` and `AGENTS.md`, which those tools load in every session.
 *
 * It never fails the run: the work is done by the time it runs. A mechanical, degraded bequest is written
 * before the turn starts and replaced only by a complete one, so a turn that errs, runs out of budget or is
 * killed still leaves a pointer to the workbench behind.
 *
 * @module
 */
import { join } from 'node:path';
import { agentSpec } from '../agent/agent-spec.js';
import { Bequest, bequestPrompt } from '../roles/bequest.js';
import { writeBequest } from '../roles/write-bequest.js';
import type { StepBuild } from './step-build.js';
import { STEP_NAMES } from './step-names.js';
import { step, type Ctx, type Step } from './step.js';

/** Options of {@link bequestStep}. */
export interface BequestStepOptions extends StepBuild {
  /** The workspace whose `CLAUDE.md` and `AGENTS.md` receive the bequest. */
  workspace: string;
  /** The workbench root as the model and the reader should see it; `.flower` by default. */
  workbench?: string;
  /** The step whose final reply and verdict the finishing turn is shown; `work` by default. */
  workStep?: string;
}

/**
 * The finishing turn's rules. It gets only reading tools: writing the files is flower's job, and a turn that
 * could edit would "tidy up" the workspace it is meant to describe.
 */
const BEQUEST_RULES =
  'You write the bequest of a finished run: a short note for the next person who works on this project with Claude Code or Codex. You can only read (Read, Glob, Grep); flower writes the note into the files from your reply.';

/** The finishing step. `onFail` is `'continue'` unless given: a failed bequest must not fail the run. */
export function bequestStep(options: BequestStepOptions): Step {
  const name = options.name ?? STEP_NAMES.bequest;
  const workbench = options.workbench ?? '.flower';
  const workStep = options.workStep ?? STEP_NAMES.work;
  const instructions = options.instructions?.trim() ?? '';
  const spec =
    options.spec ??
    agentSpec({
      name: 'bequest',
      instructions: instructions === '' ? BEQUEST_RULES : `${BEQUEST_RULES}\n\n${instructions}`,
      allowedTools: ['Read', 'Glob', 'Grep'],
      permissionMode: 'dontAsk',
      workbench: false,
      delegateOnly: false,
    });
  return step(name, spec, (ctx) => prompt(ctx, workbench, workStep), {
    verbatim: true,
    // Its prompt carries the brief, goal, verdict and report; an old bequest session has nothing to add.
    fresh: true,
    // A run that stopped short (rounds used up, UNREACHABLE unanswered) needs its note the most.
    always: true,
    retries: options.retries ?? 0,
    onFail: options.onFail ?? 'continue',
    when: (ctx) => {
      // Written first, replaced on success: whatever becomes of the turn, a pointer is left behind. A complete
      // bequest of an earlier run is kept instead: a failed turn must not replace a good note by a stub.
      const earlier = Bequest.load(join(options.workspace, 'CLAUDE.md'));
      if (earlier === null || earlier.degraded || !earlier.complete()) {
        record(options.workspace, Bequest.degraded(requirement(ctx), workbench));
      }
      return true;
    },
    gate: (result) => {
      const bequest = Bequest.parse(result.text);
      if (bequest.complete()) record(options.workspace, bequest);
      return true;
    },
    reduce: (result) => {
      const bequest = Bequest.parse(result.text);
      return bequest.complete() ? bequest.toMarkdown() : '';
    },
  });
}

/** The bequest prompt, followed by what the run knows: the brief, the goal, the last verdict, the last reply. */
function prompt(ctx: Ctx, workbench: string, workStep: string): string {
  const parts = [bequestPrompt({ workbench })];
  if (ctx._brief !== undefined) parts.push(`The brief of this run:\n\n${ctx._brief.promptBlock()}`);
  if (ctx._goal !== undefined) parts.push(`The goal the judge checked:\n\n${ctx._goal.promptBlock()}`);
  if (ctx._verdict !== undefined) {
    const failed = ctx._verdict.failed.map((item) => `- ${item}`).join('\n');
    parts.push(
      `The judge's last verdict: ${ctx._verdict.state || 'none'} — ${ctx._verdict.reason || 'no reason given'}${failed === '' ? '' : `\nFailed:\n${failed}`}`,
    );
  }
  const reply = ctx._results?.[workStep]?.text.trim() ?? '';
  if (reply !== '')
    parts.push(`The final report of the work step (a claim; check it in the workbench):\n\n${reply}`);
  return parts.join('\n\n---\n\n');
}

/** The one-line requirement of a degraded bequest: the brief's goal, when there is one. */
function requirement(ctx: Ctx): string {
  return ctx._brief?.goal ?? '';
}

function record(workspace: string, bequest: Bequest): void {
  try {
    writeBequest(workspace, bequest);
  } catch {
    // A read-only or full disk must not fail a run whose work is done; the workbench still holds everything.
  }
}
