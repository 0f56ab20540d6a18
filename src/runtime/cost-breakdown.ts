/**
 * Where the money went: every priced API response of a run attributed to its session, its step and role,
 * and — for a subagent's response — the dispatch that started the subagent (the worker's type, the
 * dispatch's description and its task line, the first line of its prompt). `flower status`, `flower analyze`
 * and the manifest's `cost_by` all use it (docs/runtime.md, "Cost attribution").
 *
 * Read from the session store's transcripts, the same entries {@link CostLedger} prices: one API response is
 * stored as several assistant entries carrying the same `message.id` and `usage`, and a resumed or forked
 * session stores copies of responses it was given back. A response therefore counts once, at the first
 * entry with its id, over the whole run — so a crash and resume never counts a replayed response twice.
 * Prices are list prices unless the caller passes the user's table.
 *
 * A subagent's transcript lives under its parent session's key (`project/session/subagents/agent-<id>`).
 * It is tied to its dispatch by the `agentId` the parent's tool result names, and — when the parent never
 * got that result (the process was killed while the subagent worked) — by its first message, which is the
 * dispatch's prompt.
 *
 * @module
 */
import { isRecord } from '../internal/is-record.js';
import { PriceTable } from './price-table.js';
import type { StepCostBy } from './step-result.js';

/** One transcript: its store key (`projectKey/sessionId[/subpath]`) and its entries in store order. */
export interface CostTranscript {
  key: string;
  entries: readonly unknown[];
}

/** One step as the manifest records it: its label and the sessions it ran in (retired ones included). */
export interface CostStep {
  step: string;
  sessionIds: readonly string[];
}

/** Options of {@link costBreakdown} and {@link CostAttribution}. */
export interface CostBreakdownOptions {
  /** The prices to use: the list alone by default. */
  prices?: PriceTable;
  /** The role of a step label; by default the label before its first `#` or `/`. */
  roleOf?: (step: string) => string;
}

/** The spend of one subagent: the dispatch that started it and what its responses cost. */
export interface SubagentCost {
  /** The subagent's id (`agent-…` of its transcript key). */
  agent: string;
  /** The session that dispatched it. */
  sessionId: string;
  step: string | null;
  role: string | null;
  /** The worker's name: the dispatch's `subagent_type` (`general-purpose` when it named none). */
  type: string;
  /** The dispatch's short description; '' when the dispatch is not in the store. */
  description: string;
  /** The first non-empty line of the dispatch's prompt; '' when the dispatch is not in the store. */
  task: string;
  usd: number;
  responses: number;
}

/** The spend of one session: its main thread and its subagents. */
export interface SessionCost {
  sessionId: string;
  step: string | null;
  role: string | null;
  /** Main thread and subagents together. */
  usd: number;
  mainUsd: number;
  subagentUsd: number;
}

/** Every response of a run, attributed. Lists are sorted by spend, largest first. */
export interface CostBreakdown {
  totalUsd: number;
  mainUsd: number;
  subagentUsd: number;
  /** Distinct responses priced. */
  responses: number;
  roles: Array<{ role: string; usd: number }>;
  steps: Array<{ step: string; role: string; usd: number }>;
  sessions: SessionCost[];
  subagents: SubagentCost[];
}

/** A dispatch of the `Agent` tool seen in a main transcript. */
interface Dispatch {
  sessionId: string;
  type: string;
  description: string;
  prompt: string;
  /** The subagent it started, once known. */
  agent: string | null;
}

interface Spend {
  usd: number;
  responses: number;
}

/** The subagent id of a subpath `subagents/agent-<id>`: its last segment. */
function agentOf(subpath: string): string {
  return subpath.split('/').at(-1) ?? subpath;
}

/** The session id and subpath of a store key; a project key never holds a `/`. */
function splitKey(key: string): { sessionId: string; subpath: string | null } {
  const parts = key.split('/');
  return { sessionId: parts[1] ?? '', subpath: parts.length > 2 ? parts.slice(2).join('/') : null };
}

/** The first non-empty line of `text`, trimmed. */
export function taskLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? ''
  );
}

function blocksOf(content: unknown): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

function stringField(record: Record<string, unknown>, name: string): string {
  const value = record[name];
  return typeof value === 'string' ? value : '';
}

/**
 * Attribution kept current as entries arrive: the runtime feeds it what the store receives during a step
 * (for the manifest's `cost_by`), {@link costBreakdown} feeds it a whole store.
 */
export class CostAttribution {
  readonly #prices: PriceTable;
  readonly #roleOf: (step: string) => string;
  /** Message ids already priced or loaded: a copy of one is never counted again. */
  readonly #counted = new Set<string>();
  /** Dispatches by tool-use id, in the order seen. */
  readonly #dispatches = new Map<string, Dispatch>();
  /** Subagent id → the dispatch's tool-use id, from the parent's tool results. */
  readonly #agentDispatch = new Map<string, string>();
  /** Subagent key → the text of its first user message (its prompt). */
  readonly #agentPrompt = new Map<string, string>();
  /** Spend of main threads by session id. */
  readonly #main = new Map<string, Spend>();
  /** Spend of subagents by `sessionId/agent`. */
  readonly #agents = new Map<string, Spend & { sessionId: string; agent: string }>();
  #total = 0;

  constructor(options: CostBreakdownOptions = {}) {
    this.#prices = options.prices ?? new PriceTable();
    this.#roleOf = options.roleOf ?? ((step) => step.split(/[#/]/)[0] ?? step);
  }

  /** Dollars counted so far. */
  get usd(): number {
    return this.#total;
  }

  /** Entries stored under `key`: dispatches are learnt and new responses priced. */
  add(key: string, entries: readonly unknown[]): void {
    for (const entry of entries) this.#entry(key, entry, true);
  }

  /**
   * Entries of a transcript loaded to resume it: paid for before (by an earlier process or step), so their
   * responses are marked as counted, not counted; their dispatches are still learnt, so a subagent
   * dispatched before the resume keeps its name.
   */
  load(key: string, entries: readonly unknown[]): void {
    for (const entry of entries) this.#entry(key, entry, false);
  }

  #entry(key: string, entry: unknown, count: boolean): void {
    if (!isRecord(entry)) return;
    const { sessionId, subpath } = splitKey(key);
    const message = entry['message'];
    if (!isRecord(message)) return;
    const blocks = blocksOf(message['content']);
    if (subpath === null) this.#learn(sessionId, entry, blocks);
    else if (entry['type'] === 'user' && !this.#agentPrompt.has(key)) {
      const prompt = blocks
        .filter((block) => block['type'] === 'text')
        .map((block) => stringField(block, 'text'));
      this.#agentPrompt.set(key, prompt.join('\n'));
    }
    if (entry['type'] !== 'assistant') return;
    const id = message['id'];
    const usage = message['usage'];
    if (typeof id !== 'string' || id === '' || !isRecord(usage)) return;
    // The child's own stand-in for a turn it never got (an interruption, an API error) is no response.
    if (message['model'] === '<synthetic>') return;
    if (this.#counted.has(id)) return;
    this.#counted.add(id);
    if (!count) return;
    const usd = this.#prices.cost(stringField(message, 'model'), usage);
    this.#total += usd;
    const spend =
      subpath === null
        ? this.#spendOf(this.#main, sessionId, () => ({ usd: 0, responses: 0 }))
        : this.#spendOf(this.#agents, `${sessionId}/${agentOf(subpath)}`, () => ({
            usd: 0,
            responses: 0,
            sessionId,
            agent: agentOf(subpath),
          }));
    spend.usd += usd;
    spend.responses += 1;
  }

  #spendOf<T>(map: Map<string, T>, key: string, create: () => T): T {
    let spend = map.get(key);
    if (spend === undefined) {
      spend = create();
      map.set(key, spend);
    }
    return spend;
  }

  /** A main transcript's `Agent` dispatches and the tool results that name the subagent they started. */
  #learn(
    sessionId: string,
    entry: Record<string, unknown>,
    blocks: readonly Record<string, unknown>[],
  ): void {
    for (const block of blocks) {
      if (block['type'] === 'tool_use' && block['name'] === 'Agent' && typeof block['id'] === 'string') {
        if (this.#dispatches.has(block['id'])) continue;
        const input = isRecord(block['input']) ? block['input'] : {};
        this.#dispatches.set(block['id'], {
          sessionId,
          type: stringField(input, 'subagent_type') || 'general-purpose',
          description: stringField(input, 'description'),
          prompt: stringField(input, 'prompt'),
          agent: null,
        });
      }
      if (block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string') {
        const result = entry['toolUseResult'];
        const agentId = isRecord(result) ? result['agentId'] : undefined;
        if (typeof agentId === 'string' && agentId !== '') {
          this.#agentDispatch.set(`agent-${agentId}`, block['tool_use_id']);
        }
      }
    }
  }

  /** The dispatch of subagent `agent` of `sessionId`: by the parent's tool result, else by its prompt. */
  #dispatchOf(sessionId: string, agent: string, claimed: Set<string>): Dispatch | null {
    const byResult = this.#agentDispatch.get(agent);
    const known = byResult === undefined ? undefined : this.#dispatches.get(byResult);
    if (known !== undefined && byResult !== undefined) {
      claimed.add(byResult);
      return known;
    }
    const prompt = [...this.#agentPrompt].find(([key]) =>
      key.endsWith(`/${sessionId}/subagents/${agent}`),
    )?.[1];
    if (prompt === undefined) return null;
    for (const [toolUseId, dispatch] of this.#dispatches) {
      if (claimed.has(toolUseId) || dispatch.sessionId !== sessionId) continue;
      if ([...this.#agentDispatch.values()].includes(toolUseId)) continue;
      if (dispatch.prompt.trim() !== prompt.trim()) continue;
      claimed.add(toolUseId);
      return dispatch;
    }
    return null;
  }

  /** The attribution of everything counted, with `steps` (the manifest's rows) naming each session's step. */
  breakdown(steps: readonly CostStep[] = []): CostBreakdown {
    const stepOf = new Map<string, string>();
    for (const row of steps) for (const sessionId of row.sessionIds) stepOf.set(sessionId, row.step);
    const place = (sessionId: string): { step: string | null; role: string | null } => {
      const step = stepOf.get(sessionId) ?? null;
      return { step, role: step === null ? null : this.#roleOf(step) };
    };
    const sessions = new Map<string, SessionCost>();
    const session = (sessionId: string): SessionCost =>
      this.#spendOf(sessions, sessionId, () => ({
        sessionId,
        ...place(sessionId),
        usd: 0,
        mainUsd: 0,
        subagentUsd: 0,
      }));
    for (const [sessionId, spend] of this.#main) {
      const entry = session(sessionId);
      entry.mainUsd += spend.usd;
      entry.usd += spend.usd;
    }
    const claimed = new Set<string>();
    const subagents: SubagentCost[] = [];
    for (const spend of this.#agents.values()) {
      const entry = session(spend.sessionId);
      entry.subagentUsd += spend.usd;
      entry.usd += spend.usd;
      const dispatch = this.#dispatchOf(spend.sessionId, spend.agent, claimed);
      subagents.push({
        agent: spend.agent,
        sessionId: spend.sessionId,
        ...place(spend.sessionId),
        type: dispatch?.type ?? 'general-purpose',
        description: dispatch?.description ?? '',
        task: taskLine(dispatch?.prompt ?? ''),
        usd: spend.usd,
        responses: spend.responses,
      });
    }
    const roles = new Map<string, number>();
    const stepTotals = new Map<string, number>();
    for (const cost of sessions.values()) {
      roles.set(cost.role ?? '-', (roles.get(cost.role ?? '-') ?? 0) + cost.usd);
      stepTotals.set(cost.step ?? '-', (stepTotals.get(cost.step ?? '-') ?? 0) + cost.usd);
    }
    const byUsd = (a: { usd: number }, b: { usd: number }): number => b.usd - a.usd;
    const mainUsd = [...this.#main.values()].reduce((sum, spend) => sum + spend.usd, 0);
    return {
      totalUsd: this.#total,
      mainUsd,
      subagentUsd: this.#total - mainUsd,
      responses: this.#responses(),
      roles: [...roles].map(([role, usd]) => ({ role, usd })).sort(byUsd),
      steps: [...stepTotals]
        .map(([step, usd]) => ({ step, role: step === '-' ? '-' : this.#roleOf(step), usd }))
        .sort(byUsd),
      sessions: [...sessions.values()].sort(byUsd),
      subagents: subagents.sort(byUsd),
    };
  }

  #responses(): number {
    let total = 0;
    for (const spend of this.#main.values()) total += spend.responses;
    for (const spend of this.#agents.values()) total += spend.responses;
    return total;
  }
}

/**
 * Attributes every priced response in `transcripts` (a whole store, in store order) to its session, step,
 * role and subagent dispatch; `steps` are the manifest's rows. Pure: reads nothing but its arguments.
 */
export function costBreakdown(
  transcripts: readonly CostTranscript[],
  steps: readonly CostStep[] = [],
  options: CostBreakdownOptions = {},
): CostBreakdown {
  const attribution = new CostAttribution(options);
  // Main transcripts first: a dispatch is learnt before the subagent it started is matched to it.
  const ordered = [...transcripts].sort(
    (a, b) => Number(splitKey(a.key).subpath !== null) - Number(splitKey(b.key).subpath !== null),
  );
  for (const transcript of ordered) attribution.add(transcript.key, transcript.entries);
  return attribution.breakdown(steps);
}

/** A store key as text, `projectKey/sessionId[/subpath]` (the form the store's `store_key` column holds). */
export function storeKeyText(key: { projectKey: string; sessionId: string; subpath?: string }): string {
  return key.subpath === undefined || key.subpath === ''
    ? `${key.projectKey}/${key.sessionId}`
    : `${key.projectKey}/${key.sessionId}/${key.subpath}`;
}

/** One step's attribution for its manifest row: its main threads and its subagents, costliest first. */
export function stepCostBy(breakdown: CostBreakdown): StepCostBy {
  return {
    mainUsd: breakdown.mainUsd,
    subagents: breakdown.subagents.map(({ agent, type, description, task, usd }) => ({
      agent,
      type,
      description,
      task,
      usd,
    })),
  };
}
