/**
 * `clarifyStep`: question the human until the request is clear, then freeze the four-section brief
 * (docs/go-path.md). The brief is what every later step starts from, so a rerun must never
 * question the human again: when a complete brief is frozen the step is skipped and the context filled from
 * the file. Only a complete brief is frozen; the clarifier's questions and answers stay in its own disposable
 * session and in the Q&A log, never in the coordinator's context. Cost for scale: in the reference's HT001
 * run the clarification was $0.3704 in 5 turns against $171.25 of work.
 *
 * @module
 */
import { dirname, join } from 'node:path';
import { uiText } from '../config/ui-text.js';
import { isOversized, readInPartsInstructions, saveForReading } from '../runtime/oversized-prompt.js';
import type { HumanChannel } from '../human/human-channel.js';
import { Brief, readDocument } from '../roles/brief.js';
import { clarify, maxTurnsLimitsQuestions, type ClarifierOptions } from '../roles/clarifier.js';
import { amendmentsMarkdown, briefAmendments } from './brief-amendments.js';
import { freezeDocument } from './freeze-document.js';
import type { StepBuild } from './step-build.js';
import { STEP_NAMES } from './step-names.js';
import { contextLang, step, type Ctx, type Step } from './step.js';
import { warningEvent } from './workflow-events.js';

/** Options of {@link clarifyStep}. */
export interface ClarifyStepOptions extends StepBuild, ClarifierOptions {
  /** Where the brief is frozen; inside the workbench (`notes/brief.md`), or nothing reads it back. */
  briefPath: string;
  /** The human's request. */
  prompt: string;
  /** Clarify even when a complete brief is frozen. */
  alwaysAsk?: boolean;
}

/**
 * The resume prompt: a clarification cut off (a crash, an interrupt, a handoff) goes on where it stopped.
 * Without it the request would be sent again as a new task and the human asked everything twice.
 */
export const CLARIFY_RESUME_PROMPT =
  'The clarification above was interrupted; why does not matter. Continue it: do not start over and do not ask again what has been answered above. Ask only what the still-open sections need, then reply with the full brief — all four sections.';

/** The clarify step for `channel` (the human it questions). */
export function clarifyStep(channel: HumanChannel, options: ClarifyStepOptions): Step {
  const name = options.name ?? STEP_NAMES.clarify;
  const briefPath = options.briefPath;
  const spec =
    options.spec ??
    clarify('clarifier', channel, {
      ...(options.canRead === undefined ? {} : { canRead: options.canRead }),
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.effort === undefined ? {} : { effort: options.effort }),
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    });
  // A request too long for one message is saved beside the brief and read from there in parts.
  const requestPath = join(dirname(briefPath), REQUEST_FILE);
  const oversized = isOversized(options.prompt.trim());
  return step(name, spec, () => clarifyPrompt(options.prompt, oversized ? requestPath : null), {
    verbatim: true,
    retries: options.retries ?? 0,
    onFail: options.onFail ?? 'stop',
    resumePrompt: CLARIFY_RESUME_PROMPT,
    when: (ctx) => {
      if (options.alwaysAsk !== true) {
        const frozen = Brief.load(briefPath);
        if (frozen?.complete() === true) {
          hydrateBrief(ctx, name, frozen);
          return false;
        }
      }
      // Kept so that running the same command again resumes rather than adds the request to the brief
      // (decisions.md D332).
      ctx._lineage?.recordRequest(options.prompt);
      // decisions.md D116: each question is a turn, so a turn cap silently caps the questions.
      if (maxTurnsLimitsQuestions(spec.maxTurns, channel.maxAsks)) {
        const text = uiText('clarify.maxTurns', { n: spec.maxTurns ?? 0 }, contextLang(ctx));
        ctx._onEvent?.(warningEvent('clarifier_max_turns', text, name));
      }
      return true;
    },
    gate: (result, ctx) => {
      const parsed = Brief.parse(result.text);
      if (!parsed.complete()) {
        // Nothing is written: a half brief frozen now would pass for the requirement on the next run.
        ctx._briefMissing = parsed.missing();
        return false;
      }
      const brief = oversized ? withRequestPointer(parsed, requestPath) : parsed;
      const text = withEarlierAmendments(brief.toMarkdown(), readDocument(briefPath));
      freezeDocument(briefPath, text);
      hydrateBrief(ctx, name, Brief.parse(text));
      return true;
    },
    reduce: (result, ctx) => (ctx._brief ?? Brief.parse(result.text)).promptBlock(),
  });
}

/** Puts `brief` where later steps read it: `ctx._brief` and, as its prompt block, `ctx[name]`. */
export function hydrateBrief(ctx: Ctx, name: string, brief: Brief): void {
  ctx._brief = brief;
  ctx[name] = brief.promptBlock();
  delete ctx._briefMissing;
}

/** The first message of the clarifier: the request, marked as something to clarify rather than to do. */
/** The file beside the brief that holds a request too long for one message. */
export const REQUEST_FILE = 'request.md';

function clarifyPrompt(request: string, savedAt: string | null): string {
  const task =
    'Clarify this request; do not carry it out. Ask the human what you need to, then reply with the brief.';
  if (savedAt === null) return `${task}\n\nThe request:\n\n${request.trim()}`;
  // Saved when the step runs, not when the workflow is built: a workflow that never clarifies writes nothing.
  const text = request.trim();
  const lines = saveForReading(savedAt, text);
  return (
    `${task}\n\nThe request is too long for one message. ${readInPartsInstructions(savedAt, text.length, lines)} ` +
    `Read it before you ask anything. In the brief's Goal section, say that the full request is in ${savedAt}.`
  );
}

/** The brief with the saved request named in its goal, so every later step knows where the details are. */
function withRequestPointer(brief: Brief, requestPath: string): Brief {
  if (brief.goal.includes(requestPath)) return brief;
  const pointer = `The full request (too long for one message) is kept in ${requestPath}; read it for the details.`;
  return new Brief({
    goal: `${brief.goal}\n\n${pointer}`,
    accept: brief.accept,
    bounds: brief.bounds,
    unknowns: brief.unknowns,
  });
}

/**
 * The new brief followed by what a human already appended to the old file (words typed while the clarifier
 * was still asking land there too): freezing must never drop a person's words.
 */
function withEarlierAmendments(brief: string, previous: string | null): string {
  if (previous === null) return brief;
  const amendments = briefAmendments(previous);
  if (amendments.length === 0) return brief;
  return `${brief}\n${amendmentsMarkdown(amendments)}\n`;
}
