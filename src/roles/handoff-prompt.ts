/**
 * The two prompts around a handoff (docs/handoff.md): the writing turn, sent to the session that
 * is running out of room — only it knows what happened — and the first prompt of the fresh session that takes
 * over with nothing but the document and the disk. Both are model-facing, so they are English literals here.
 *
 * @module
 */
import type { HandoffDocument } from './handoff-document.js';

/**
 * The writing-turn prompt: how full the context is, that a new session takes over, and the five sections to
 * write. Dead ends are called out because they are the costliest thing to forget — the successor pays for
 * every mistake again — yet "none yet" must stay an allowed answer, or the model invents some.
 */
export function handoffPrompt(used: number, window: number): string {
  const share = window > 0 ? ` (${Math.round((used / window) * 100)}%)` : '';
  return `Your context is nearly full: ${tokens(used)} of a ${tokens(window)}-token window are used${share}. \
This session ends after your next reply, and a new session takes over the work. It will not remember any of \
this conversation: it gets only the handoff you write now, and the disk.

Write that handoff now, and nothing else: no new work in this turn. Reply with exactly these five sections, \
each under its own Markdown heading:

## Doing
Where things stand, in one or two sentences.

## Decided
What is settled, each decision with its why.

## Dead ends
What you tried and ruled out, and why. This is the costliest section and the one most often forgotten: \
whatever is missing here, your successor will try again and pay for again. If there truly are none, write \
"none yet". Never invent one.

## Next
The next actions, concrete enough to start on at once: "run X; if Y, change Z".

## Scene
The paths of the key files, outputs and branches.

Rules:
- Self-contained: your successor has no memory of this session. Name things fully; don't write "as above".
- Pointers, not content: give paths, commands and names. Do not paste file contents, output, logs or diffs.
- Do not restate the brief or the goal: they are frozen in notes/ and your successor reads them there.`;
}

/** Where the successor finds what the handoff points at. */
export interface SuccessorPromptOptions {
  /** The handoff file, as the model should see it (relative inside the workspace, else absolute). */
  handoffPath: string;
  /** The workbench's notes directory, where the brief and the goal are frozen. */
  notesDir: string;
}

/**
 * The first prompt of the session that takes over: it is taking over, it has only this document and the disk,
 * the brief and goal are in `notesDir`, continue from "Next" without starting over or asking the human for
 * background — followed by the document itself.
 */
export function successorPrompt(document: HandoffDocument, options: SuccessorPromptOptions): string {
  const degraded = document.degraded
    ? '\nThe previous session could not write its handoff, so flower wrote this one: look at the scene before you act.'
    : '';
  return `You are taking over this work from a session whose context window filled up. You have only the handoff \
below and what is on disk: none of the earlier conversation.
The brief and the goal are frozen in ${options.notesDir} — read them there when you need them. The handoff is \
saved at ${options.handoffPath}.
Continue from "Next". Do not start over, and do not ask the human for background: everything known is in the \
handoff, in the notes and on disk.${degraded}

---

${document.promptBlock()}`;
}

/** `152,000`-style token counts. */
function tokens(count: number): string {
  return Math.round(count).toLocaleString('en-US');
}
