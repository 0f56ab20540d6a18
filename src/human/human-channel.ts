/**
 * The human channel (docs/human-channel.md): how an agent asks a person a question
 * and how a person's words reach a running agent. Questions block the asking tool call until someone
 * answers, declines, the timeout passes or the call is cancelled; every way out returns text that tells the
 * model what to do next, so an absent human never stalls a run. Words typed unasked ("mail") are queued for
 * the `inbox` tool and appended to the brief at once, because the brief is the one thing that survives a
 * step boundary.
 *
 * Counting is the channel's job, not the prompt's: a quota in a prompt is a hint, a quota here is a
 * guarantee. Only asks that were really asked count (the reference also counted empty ones,
 * decisions.md D316).
 *
 * Node has no shared-memory threads, so `answer`, `decline` and `send` are called on the main thread; a UI
 * in a worker posts messages to it.
 *
 * @module
 */
import type { McpServerConfig } from '../agent/claude-sdk.js';
import type { EventSink, FlowerEvent } from '../events/flower-event.js';
import { errorMessage } from '../internal/error-text.js';
import {
  AMEND_LABELS,
  appendAmendment,
  appendQaLog,
  askLogLines,
  mailLogLines,
  recordedAnswers,
  recordedKey,
  type RecordedAnswer,
} from './channel-files.js';
import { DECLINED_TEXT, INVALID_TEXT, OVER_BUDGET_TEXT, TIMEOUT_TEXT } from './channel-texts.js';
import { ASK_TOOL, INBOX_TOOL } from '../guards/human-tool-names.js';
import type { Ask, AskState } from './ask.js';
import type { HumanChannelOptions } from './human-channel-options.js';
import { humanMcpServers } from './human-tools.js';
import type { Mail } from './mail.js';

export { AMEND_LABELS } from './channel-files.js';
export { DECLINED_TEXT, INVALID_TEXT, OVER_BUDGET_TEXT, TIMEOUT_TEXT } from './channel-texts.js';

/** setTimeout's largest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Waiting {
  ask: Ask;
  resolve: (ask: Ask) => void;
  release: () => void;
}

/** A question-and-mail channel between agents and one human. */
export class HumanChannel {
  /** The ask tool's name as the model sees it. */
  readonly toolName = ASK_TOOL;
  /** The inbox tool's name as the model sees it. */
  readonly inboxName = INBOX_TOOL;
  /** Receives the channel's events; may be replaced at any time (a UI attaches after construction). */
  onEvent: EventSink | null;
  readonly maxAsks: number | null;
  readonly timeoutS: number | null;
  readonly logPath: string | null;
  readonly amendPath: string | null;
  /** Every question, in order, including those that never reached the human. */
  asks: Ask[] = [];
  /** Every message, in order. */
  mail: Mail[] = [];
  /** Failures of the event sink and of file writes; never thrown. */
  uiErrors: string[] = [];

  readonly #overBudgetText: string;
  readonly #timeoutText: string;
  readonly #declinedText: string;
  readonly #waiting = new Map<string, Waiting>();
  readonly #amended = new Set<string>();
  /** Asks not yet handed to a puller; settled ones are skipped when pulled (decisions.md D316). */
  #queue: Ask[] = [];
  #pullers: Array<(ask: Ask) => void> = [];
  #counter = 0;
  /** What the Q&A log held when this channel was made: questions earlier processes settled. */
  readonly #recorded: RecordedAnswer[];

  constructor(options: HumanChannelOptions = {}) {
    this.onEvent = options.onEvent ?? null;
    this.maxAsks = options.maxAsks ?? null;
    this.timeoutS = options.timeoutS === undefined ? 1800 : options.timeoutS;
    this.logPath = options.logPath ?? null;
    this.amendPath = options.amendPath ?? null;
    this.#overBudgetText = options.overBudgetText ?? OVER_BUDGET_TEXT;
    this.#timeoutText = options.timeoutText ?? TIMEOUT_TEXT;
    this.#declinedText = options.declinedText ?? DECLINED_TEXT;
    this.#recorded = this.logPath === null ? [] : recordedAnswers(this.logPath);
  }

  /**
   * The in-process MCP server `human` with the `ask` and `inbox` tools, for `AgentSpec.mcpServers`. Each call
   * builds a new server: one server serves one query at a time, so concurrent queries each need their own.
   */
  mcpServers(): Record<string, McpServerConfig> {
    return humanMcpServers(this);
  }

  /** Questions left: −1 when unlimited, else `max(0, maxAsks − asked so far)`. */
  get remaining(): number {
    if (this.maxAsks === null) return -1;
    return Math.max(0, this.maxAsks - this.#counted());
  }

  /**
   * Puts `question` to the human and settles with the ask once it is answered, declined, timed out, over
   * quota or invalid; `ask.answer` is what the model should read. Rejects only when `signal` aborts (the
   * question is then withdrawn).
   */
  async ask(
    question: string,
    options: { options?: readonly string[]; signal?: AbortSignal } = {},
  ): Promise<Ask> {
    options.signal?.throwIfAborted();
    const asked = {
      question: question.trim(),
      options: (options.options ?? []).map((option) => option.trim()).filter((option) => option !== ''),
    };
    // The same question settled by an earlier process (one killed before its answer reached the transcript),
    // or earlier by this one, gets that answer again: the person is not asked twice (decisions.md D334 and
    // decisions.md D343). Not logged again, not counted.
    const key = recordedKey(asked);
    const recorded = this.#recorded.findLast((entry) => entry.key === key);
    if (asked.question !== '' && recorded !== undefined) {
      const { state, answer } = recorded;
      return { id: this.#nextId('q'), ...asked, askedAt: Date.now() / 1000, state, answer };
    }
    const ask: Ask = {
      id: this.#nextId('q'),
      ...asked,
      askedAt: Date.now() / 1000,
      state: 'asked',
      answer: '',
    };
    this.asks.push(ask);
    if (ask.question === '') return this.#finish(ask, 'invalid', INVALID_TEXT);
    if (this.maxAsks !== null && this.#counted() > this.maxAsks) {
      return this.#finish(ask, 'over_budget', this.#overBudgetText);
    }
    // Nobody is there to see it: no `ask` event, nothing queued, the model gets the fall-through at once.
    if (this.timeoutS !== null && this.timeoutS <= 0) return this.#finish(ask, 'timeout', this.#timeoutText);
    return this.#wait(ask, options.signal);
  }

  /**
   * Queues `text` for the inbox tool and appends it to `amendPath` under {@link AMEND_LABELS}.run. Never
   * interrupts the agent. Null for blank text.
   */
  send(text: string): Mail | null {
    const words = text.trim();
    if (words === '') return null;
    const mail: Mail = { id: this.#nextId('m'), text: words, sentAt: Date.now() / 1000, taken: false };
    this.mail.push(mail);
    const amended = this.amend(words);
    if (amended) this.#amended.add(mail.id);
    this.#emit({
      kind: 'mail',
      text: words,
      at: mail.sentAt,
      step: null,
      id: mail.id,
      state: 'queued',
      amended,
    });
    return mail;
  }

  /**
   * Appends `text` to `amendPath` under `## <label> (HH:MM:SS)`; a new file starts with a title line. Never
   * overwrites. False when there is no amend file, the text is blank or the write failed.
   */
  amend(text: string, options: { label?: string } = {}): boolean {
    const words = text.trim();
    if (this.amendPath === null || words === '') return false;
    const error = appendAmendment(this.amendPath, words, options.label ?? AMEND_LABELS.run, new Date());
    if (error !== null) this.uiErrors.push(error);
    return error === null;
  }

  /** Messages not yet delivered. */
  pendingMail(): Mail[] {
    return this.mail.filter((mail) => !mail.taken);
  }

  /**
   * Marks every undelivered message taken, emits a `delivered` event and logs each, and returns them in
   * order. The inbox tool's work.
   */
  takeMail(): Mail[] {
    const taken = this.pendingMail();
    for (const mail of taken) {
      mail.taken = true;
      this.#emit({
        kind: 'mail',
        text: mail.text,
        at: Date.now() / 1000,
        step: null,
        id: mail.id,
        state: 'delivered',
        amended: this.#amended.has(mail.id),
      });
      this.#log(mailLogLines(mail));
    }
    return taken;
  }

  /** Whether `mail` was written to the amend file when it was sent. */
  wasAmended(mail: Mail): boolean {
    return this.#amended.has(mail.id);
  }

  /** Questions waiting for the human, oldest first. */
  pending(): Ask[] {
    return [...this.#waiting.values()].map((waiting) => waiting.ask);
  }

  /**
   * The next question not yet pulled that is still waiting, or null after `timeoutS` seconds (`null` or
   * omitted = wait forever). Each question is handed to one puller.
   */
  nextAsk(timeoutS: number | null = null): Promise<Ask | null> {
    this.#queue = this.#queue.filter((ask) => ask.state === 'asked');
    const next = this.#queue.shift();
    if (next !== undefined) return Promise.resolve(next);
    if (timeoutS !== null && timeoutS <= 0) return Promise.resolve(null);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const puller = (ask: Ask): void => {
        if (timer !== null) clearTimeout(timer);
        resolve(ask);
      };
      this.#pullers.push(puller);
      if (timeoutS !== null) {
        timer = setTimeout(
          () => {
            this.#pullers = this.#pullers.filter((candidate) => candidate !== puller);
            resolve(null);
          },
          Math.min(timeoutS * 1000, MAX_TIMER_MS),
        );
      }
    });
  }

  /** Every question as it is asked, for a UI that shows them; never ends on its own (break out of it). */
  async *pullAsks(): AsyncIterable<Ask> {
    for (;;) {
      const ask = await this.nextAsk();
      if (ask !== null) yield ask;
    }
  }

  /** Answers the waiting question `askId` with `text` (blank text declines). False when it is not waiting. */
  answer(askId: string, text: string): boolean {
    const words = text.trim();
    if (words === '') return this.decline(askId);
    return this.#settle(askId, 'answered', words);
  }

  /** Skips the waiting question `askId`; `reason` reaches the model. False when it is not waiting. */
  decline(askId: string, reason = ''): boolean {
    const said = reason.trim();
    return this.#settle(
      askId,
      'declined',
      said === '' ? this.#declinedText : `${this.#declinedText} (they said: ${said})`,
    );
  }

  /** Everything said on the channel, in order: questions with their outcome, and messages. */
  transcript(): string {
    const entries: Array<{ id: string; lines: string[] }> = [
      ...this.asks
        .filter((ask) => ask.state !== 'invalid')
        .map((ask) => ({ id: ask.id, lines: askLogLines(ask) })),
      ...this.mail.map((mail) => ({ id: mail.id, lines: mailLogLines(mail) })),
    ];
    const order = (id: string): number => Number(id.slice(1));
    return entries
      .sort((left, right) => order(left.id) - order(right.id))
      .flatMap((entry) => entry.lines)
      .join('\n');
  }

  #nextId(prefix: 'q' | 'm'): string {
    this.#counter += 1;
    return `${prefix}${this.#counter}`;
  }

  /** Questions that count toward the quota: every one that was not empty. */
  #counted(): number {
    return this.asks.filter((ask) => ask.state !== 'invalid').length;
  }

  #wait(ask: Ask, signal: AbortSignal | undefined): Promise<Ask> {
    return new Promise<Ask>((resolve, reject) => {
      let timer: NodeJS.Timeout | null = null;
      const onAbort = (): void => {
        release();
        this.#queue = this.#queue.filter((queued) => queued !== ask);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- like fetch and timers, an aborted wait rejects with the signal's reason as the caller gave it
        reject(signal?.reason ?? new Error('The question was withdrawn.'));
      };
      const release = (): void => {
        this.#waiting.delete(ask.id);
        if (timer !== null) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.#waiting.set(ask.id, { ask, resolve, release });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.timeoutS !== null) {
        timer = setTimeout(
          () => this.#settle(ask.id, 'timeout', this.#timeoutText),
          Math.min(this.timeoutS * 1000, MAX_TIMER_MS),
        );
      }
      this.#emit({
        kind: 'ask',
        text: ask.question,
        at: ask.askedAt,
        step: null,
        id: ask.id,
        question: ask.question,
        options: [...ask.options],
        remaining: this.remaining,
        askedAt: ask.askedAt,
      });
      const puller = this.#pullers.shift();
      if (puller !== undefined) puller(ask);
      else this.#queue.push(ask);
    });
  }

  #settle(askId: string, state: AskState, answer: string): boolean {
    const waiting = this.#waiting.get(askId);
    if (waiting === undefined) return false;
    waiting.release();
    waiting.resolve(this.#finish(waiting.ask, state, answer));
    return true;
  }

  /** Records the outcome: one `answer` event and one log entry per question. */
  #finish(ask: Ask, state: AskState, answer: string): Ask {
    ask.state = state;
    ask.answer = answer;
    this.#emit({
      kind: 'answer',
      text: answer,
      at: Date.now() / 1000,
      step: null,
      id: ask.id,
      state,
      answer,
    });
    this.#log(askLogLines(ask));
    // Settled here, it is answered again like one settled by an earlier process: a step retried after a
    // stall asks its question again (decisions.md D343).
    if (this.logPath !== null && (state === 'answered' || state === 'timeout' || state === 'declined')) {
      this.#recorded.push({
        key: recordedKey({ question: ask.question, options: ask.options }),
        state,
        answer,
      });
    }
    return ask;
  }

  #log(lines: string[]): void {
    if (this.logPath === null) return;
    const error = appendQaLog(this.logPath, lines);
    if (error !== null) this.uiErrors.push(error);
  }

  #emit(event: FlowerEvent): void {
    try {
      this.onEvent?.(event);
    } catch (error) {
      this.uiErrors.push(`event sink (${event.kind}): ${errorMessage(error)}`);
    }
  }
}
