/**
 * The handoff itself (docs/handoff.md): when a step's main-thread context
 * reaches the threshold, or its request overflowed, the current session writes a handoff document — only it
 * has the context — and a new session takes over with that document instead of a compacted history. A
 * document missing a required section, a failed writing turn or an overflow gives the mechanical degraded
 * document instead; two degraded handoffs in a row, or too many handoffs, stop the step.
 *
 * @module
 */
import { HandoffDocument } from '../roles/handoff-document.js';
import { handoffPrompt, successorPrompt } from '../roles/handoff-prompt.js';
import type { Workbench } from '../workbench/workbench.js';
import { runAttempt, type AttemptDeps, type AttemptPlan } from './attempt.js';
import { saveHandoff } from './handoff-files.js';
import { diagnosedOutcome, errorOutcome, type ErrorOutcome } from './step-outcome.js';
import type { StepRun } from './step-run.js';

/** What the attempt loop does after a handoff: start the successor with `prompt`, or stop with `outcome`. */
export type HandoffOutcome = { kind: 'successor'; prompt: string } | { kind: 'stop'; outcome: ErrorOutcome };

/** What a handoff needs besides one attempt's dependencies. */
export interface HandoffDeps extends AttemptDeps {
  workbench: Workbench | null;
}

/**
 * Writes the handoff of `run`'s current session and prepares its successor. `forced` (an overflow: there
 * is no room left for a writing turn) skips straight to the degraded document. `originalPrompt` is the
 * step's first prompt, the scene of a degraded document.
 */
export async function handOff(
  run: StepRun,
  deps: HandoffDeps,
  options: { originalPrompt: string; forced: string | null },
): Promise<HandoffOutcome> {
  const watermark = run.handoff;
  const { result } = run;
  if (watermark === null) {
    return { kind: 'stop', outcome: errorOutcome(options.forced ?? 'handoff without a policy') };
  }
  const { window, at } = watermark.policy;
  const used = watermark.value;
  const retiring = result.sessionId;
  // An overflow has no writing turn: no "writing a handoff" line either.
  if (options.forced === null) {
    run.emit({
      kind: 'handoff',
      phase: 'writing',
      at: Date.now() / 1000,
      step: run.result.step,
      context: used,
      window,
      threshold: at,
    });
  }

  let why = options.forced;
  // What the person is told of a failed writing turn; the document says only that it failed, since the
  // successor reads the document and an API error's text is not for the model (as the resume prompt carries
  // no error detail).
  let failure: string | null = null;
  let document: HandoffDocument | null = null;
  if (why === null && retiring !== null) {
    const textBefore = result.text;
    const plan: AttemptPlan = {
      prompt: handoffPrompt(used, window),
      resume: retiring,
      fork: false,
      resumeAt: null,
      verbatim: true,
      // The writing turn is never cut by a budget: without the document the money spent so far is lost.
      budget: { kind: 'open' },
    };
    await watermark.whileWriting(() => run.muted(() => runAttempt(run, plan, deps)));
    if (result.ok) {
      document = HandoffDocument.parse(result.text);
      if (!document.complete()) why = `missing ${document.missing().join(', ')}`;
    } else {
      why = 'the writing turn failed';
      failure = result.error;
    }
    result.text = textBefore;
  } else if (why === null) {
    why = 'no session to write it';
  }
  if (why !== null || document === null) {
    const reason = why ?? 'no document';
    document = HandoffDocument.degraded(result.step, options.originalPrompt, { why: reason });
    result.errors.push(`handoff degraded (${failure ?? reason})`);
  }

  let path = '';
  if (deps.workbench !== null) {
    try {
      const saved = saveHandoff(deps.workbench.notes, result.step, document.toMarkdown());
      path = saved.path;
      run.noteHandoff(saved.path, saved.sha256);
    } catch (error) {
      run.recordUiError('handoff file', error);
    }
  }
  if (retiring !== null) result.retired.push(retiring);
  result.sessionId = null;
  result.context = 0;
  emitHandoff(run, {
    phase: 'done',
    text: '',
    context: used,
    window,
    threshold: at,
    degraded: document.degraded,
    path,
    sections: {
      doing: document.doing,
      decided: document.decided,
      deadends: document.deadends,
      next: document.next,
    },
  });
  const stop = watermark.noteHandoff(document.degraded);
  if (stop !== null) return { kind: 'stop', outcome: diagnosedOutcome({ kind: 'handoff-stopped', stop }) };
  return {
    kind: 'successor',
    prompt: successorPrompt(document, {
      handoffPath:
        path === '' ? 'nowhere (this run has no workbench)' : (deps.workbench?.display(path) ?? path),
      notesDir:
        deps.workbench === null ? 'the notes of this project' : deps.workbench.display(deps.workbench.notes),
    }),
  };
}

/** Emits the `done` handoff event: its text stays empty, the renderer formats the sections. */
export function emitHandoff(
  run: StepRun,
  fields: {
    phase: 'done';
    text: string;
    context: number;
    window: number;
    threshold: number;
    degraded?: boolean;
    path?: string;
    sections?: { doing: string; decided: string; deadends: string; next: string };
  },
): void {
  run.emit({ kind: 'handoff', at: Date.now() / 1000, step: run.result.step, ...fields });
}
