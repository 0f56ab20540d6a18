/**
 * One transcript's figures, gathered in a single pass over its entries as they come out of `sessions.db`.
 * The entries are the SDK's opaque JSON; only the fields named here are read, and anything of another shape
 * is passed over.
 *
 * One API response is stored as several assistant entries (one per content block) that all carry the
 * response's `usage`: a response counts once, at its first entry, keyed by `message.id` (and `requestId`).
 *
 * @module
 */
import { isRecord } from '../internal/is-record.js';
import { usageCost } from '../runtime/price-table.js';

/** One API response of the transcript. */
export interface ResponseFigures {
  /** `input + cache_read + cache_creation`. */
  context: number;
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
  thinking: number;
  pricedUsd: number;
  /** Epoch seconds, or `null`. */
  at: number | null;
}

/** One tool call. */
export interface ToolCall {
  tool: string;
  input: unknown;
  at: number | null;
}

/** Everything analyze needs from one transcript. */
export interface TranscriptStats {
  key: string;
  sessionId: string;
  /** `null` for a main transcript. */
  subpath: string | null;
  entries: number;
  bodyChars: number;
  responses: ResponseFigures[];
  calls: ToolCall[];
  /** Denied tool results by `toolDenialKind`. */
  denials: Map<string, number>;
  /** Epoch seconds of the first timestamped entry. */
  firstAt: number | null;
}

/**
 * The session id and subpath of a store key, by depth: `projectKey/sessionId` is a main transcript, anything
 * deeper (`projectKey/sessionId/subagents/agent-…`) a subagent's. A project key never holds a `/` (the SDK
 * replaces every non-alphanumeric character), so the depth cannot be fooled by a path that contains the
 * word "subagent" — the reference's substring test was.
 */
export function splitStoreKey(key: string): { sessionId: string; subpath: string | null } {
  const parts = key.split('/');
  return {
    sessionId: parts[1] ?? '',
    subpath: parts.length > 2 ? parts.slice(2).join('/') : null,
  };
}

/** Collects one transcript; feed it entries in `seq` order with {@link add}, then read {@link stats}. */
export class TranscriptCollector {
  readonly stats: TranscriptStats;
  readonly #seen = new Set<string>();
  readonly #callIds = new Set<string>();

  constructor(key: string) {
    const { sessionId, subpath } = splitStoreKey(key);
    this.stats = {
      key,
      sessionId,
      subpath,
      entries: 0,
      bodyChars: 0,
      responses: [],
      calls: [],
      denials: new Map(),
      firstAt: null,
    };
  }

  /** Adds one parsed entry. */
  add(entry: unknown): void {
    if (!isRecord(entry)) return;
    const stats = this.stats;
    stats.entries += 1;
    const at = timestampOf(entry['timestamp']);
    if (stats.firstAt === null && at !== null) stats.firstAt = at;
    const message = entry['message'];
    if (!isRecord(message)) return;
    const blocks = blocksOf(message['content']);
    for (const block of blocks) stats.bodyChars += blockChars(block);
    if (entry['type'] === 'assistant') this.#assistant(entry, message, blocks, at);
    const kind = entry['toolDenialKind'];
    if (typeof kind === 'string') {
      const results = blocks.filter((block) => block['type'] === 'tool_result').length;
      stats.denials.set(kind, (stats.denials.get(kind) ?? 0) + Math.max(1, results));
    }
  }

  #assistant(
    entry: Record<string, unknown>,
    message: Record<string, unknown>,
    blocks: readonly Record<string, unknown>[],
    at: number | null,
  ): void {
    for (const block of blocks) {
      if (block['type'] !== 'tool_use' || typeof block['name'] !== 'string') continue;
      const id = typeof block['id'] === 'string' ? block['id'] : null;
      if (id !== null) {
        if (this.#callIds.has(id)) continue;
        this.#callIds.add(id);
      }
      this.stats.calls.push({ tool: block['name'], input: block['input'], at });
    }
    const usage = message['usage'];
    if (!isRecord(usage) || Object.keys(usage).length === 0) return;
    const id = typeof message['id'] === 'string' ? message['id'] : null;
    if (id !== null) {
      const requestId = typeof entry['requestId'] === 'string' ? entry['requestId'] : '';
      const responseKey = `${id}\u0000${requestId}`;
      if (this.#seen.has(responseKey)) return;
      this.#seen.add(responseKey);
    }
    const input = count(usage['input_tokens']);
    const cacheRead = count(usage['cache_read_input_tokens']);
    const cacheCreation = count(usage['cache_creation_input_tokens']);
    const output = count(usage['output_tokens']);
    const details = usage['output_tokens_details'];
    const thinking = isRecord(details) ? count(details['thinking_tokens']) : 0;
    const model = typeof message['model'] === 'string' ? message['model'] : '';
    this.stats.responses.push({
      context: input + cacheRead + cacheCreation,
      input,
      cacheRead,
      cacheCreation,
      output,
      thinking,
      pricedUsd: usageCost(model, {
        input_tokens: input,
        output_tokens: output,
        cache_creation_input_tokens: cacheCreation,
        cache_read_input_tokens: cacheRead,
      }),
      at,
    });
  }
}

/** The blocks of a message's content: the array's objects, or one text block for a string. */
function blocksOf(content: unknown): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord);
}

/** `chars(text) + chars(input) + chars(content)` of one block. */
function blockChars(block: Record<string, unknown>): number {
  return chars(block['text']) + chars(block['input']) + chars(block['content']);
}

/** Code points of a string, or of a value's JSON; 0 for a missing value. */
export function chars(value: unknown): number {
  if (value === undefined || value === null) return 0;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return codePoints(text);
}

/** Code points of `text`: UTF-16 units less one for each surrogate pair. */
export function codePoints(text: string): number {
  let pairs = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs += 1;
        index += 1;
      }
    }
  }
  return text.length - pairs;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function timestampOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms / 1000 : null;
}
