/**
 * What `flower chaos` checks after a faulted run and its rerun, against the clean run: each check returns
 * null when it holds, or the reason it does not (one line, shown in the table).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isRecord } from '../internal/is-record.js';
import { readManifest } from '../runtime/manifest.js';
import { usageCost } from '../runtime/price-table.js';
import type { ServedMessage } from '../testing/fake-anthropic-server.js';
import { openSqlite } from '../session/sqlite-driver.js';
import { messagesOf, type FakeRequest } from '../testing/request-matching.js';

/** Folders of the workspace that are flower's own state, not the run's result. */
const STATE_FOLDERS = new Set(['runs', '.flower', '.claude']);

/** `relative path → sha256` of every file the run left in the workspace, flower's state folders excluded. */
export function finalFiles(workspace: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (dir === workspace && STATE_FOLDERS.has(name)) continue;
      if (statSync(path).isDirectory()) walk(path);
      else
        files.set(relative(workspace, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(workspace);
  return files;
}

/** Null when `actual` holds the same files with the same contents as `expected`. */
export function sameFiles(expected: Map<string, string>, actual: Map<string, string>): string | null {
  const missing = [...expected.keys()].filter((path) => !actual.has(path));
  const extra = [...actual.keys()].filter((path) => !expected.has(path));
  const changed = [...expected.keys()].filter(
    (path) => actual.has(path) && actual.get(path) !== expected.get(path),
  );
  if (missing.length + extra.length + changed.length === 0) return null;
  const parts = [
    missing.length > 0 ? `missing ${missing.join(', ')}` : '',
    extra.length > 0 ? `extra ${extra.join(', ')}` : '',
    changed.length > 0 ? `differs ${changed.join(', ')}` : '',
  ];
  return `final files: ${parts.filter((part) => part !== '').join('; ')}`;
}

/** The content blocks of every message of a request. */
function blocksOf(request: FakeRequest): Record<string, unknown>[] {
  return messagesOf(request.body).flatMap((item) =>
    Array.isArray(item['content']) ? (item['content'] as unknown[]).filter(isRecord) : [],
  );
}

/** The text a tool result carries, flattened. */
function resultText(block: Record<string, unknown>): string {
  const content = block['content'];
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
}

/**
 * The scripted call a tool-call id stands for: scripts number each issue of a call (`…__2`, `…_2`), so a
 * redone call keeps its base and a repeated effect shows as two completed calls with one base.
 */
function callBase(id: string): string {
  return id.replace(/_+\d+$/, '');
}

/**
 * Null when no scripted call with an effect completed twice: over every request the fake received (both
 * runs), each call base of `effects` has at most one `tool_use` id whose result was clean (not an error,
 * not an interruption).
 */
export function noRepeatedEffect(
  requests: readonly FakeRequest[],
  effects: readonly string[],
): string | null {
  const completed = new Map<string, Set<string>>();
  for (const request of requests) {
    for (const block of blocksOf(request)) {
      if (block['type'] !== 'tool_result' || typeof block['tool_use_id'] !== 'string') continue;
      if (block['is_error'] === true || /interrupted/i.test(resultText(block))) continue;
      // Each subagent thread has its own ids; the base joins them, which is what "the same effect" means.
      const base = callBase(block['tool_use_id']);
      const ids = completed.get(base) ?? new Set<string>();
      ids.add(block['tool_use_id']);
      completed.set(base, ids);
    }
  }
  const repeated = [...completed]
    .filter(([base, ids]) => ids.size > 1 && effects.includes(base))
    .map(([base]) => base);
  return repeated.length === 0 ? null : `tool effect repeated: ${repeated.join(', ')}`;
}

/** How many questions the Q&A log at `path` records (0 when there is none). */
export function questionsAsked(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => /^- \*\*Q\*\* \(q\d+\) /.test(line)).length;
}

/** Null when the person was asked as many questions as in the clean run (none asked twice). */
export function noQuestionRepeated(expected: number, actual: number): string | null {
  return actual === expected
    ? null
    : `questions to the person: ${actual} in the Q&A log, the clean run asked ${expected}`;
}

/** Phrases of API failures that must never reach the model as conversation text. */
const API_ERROR_TEXT =
  /API Error|overloaded_error|rate_limit_error|authentication_error|invalid_api_key|"type":"api_error"|Connection error|Request timed out/;

/** Null when no request the fake received carries API-error text in its messages. */
export function noApiErrorFedBack(requests: readonly FakeRequest[]): string | null {
  for (const [index, request] of requests.entries()) {
    const match = API_ERROR_TEXT.exec(JSON.stringify(messagesOf(request.body)));
    if (match !== null) return `API-error text fed to the model in request ${index + 1}: "${match[0]}"`;
  }
  return null;
}

/**
 * Null when every tool call the model was shown (any `tool_use` id in any request received) is in the
 * session store after the rerun: a call the client sent back is one the store must keep — in a stored
 * transcript, or in the tool journal beside them (`tool_calls`), from which every load puts a call the
 * transcript lost back in its place.
 */
export function noEntryLost(requests: readonly FakeRequest[], runDir: string): string | null {
  const ids = new Set<string>();
  for (const request of requests) {
    for (const block of blocksOf(request)) {
      if (block['type'] === 'tool_use' && typeof block['id'] === 'string') ids.add(block['id']);
    }
  }
  const database = join(runDir, 'sessions.db');
  if (!existsSync(database)) return 'transcript lost: no sessions.db';
  const connection = openSqlite(database, { readonly: true });
  try {
    const payloads = connection
      .prepare('SELECT payload FROM entries')
      .all()
      .map((row) => (row as { payload: string }).payload)
      .join('\n');
    const journalled = new Set(
      connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'tool_calls'").all()
        .length === 0
        ? []
        : connection
            .prepare('SELECT tool_use_id FROM tool_calls')
            .all()
            .map((row) => (row as { tool_use_id: string }).tool_use_id),
    );
    const lost = [...ids].filter((id) => !payloads.includes(`"${id}"`) && !journalled.has(id));
    return lost.length === 0 ? null : `transcript entries lost: ${lost.join(', ')}`;
  } finally {
    connection.close();
  }
}

/**
 * Null when the manifest parses, holds the clean run's steps, and the latest row of each is ok.
 */
export function manifestValid(runDir: string, steps: readonly string[]): string | null {
  const rows = readManifest(runDir);
  if (rows.length === 0) return 'manifest missing or unreadable';
  const latest = new Map(rows.map((row) => [row.step, row]));
  const missing = steps.filter((step) => !latest.has(step));
  if (missing.length > 0) return `manifest lacks step(s) ${missing.join(', ')}`;
  const failed = steps.filter((step) => latest.get(step)?.ok !== true);
  if (failed.length > 0) return `manifest: step(s) not ok ${failed.join(', ')}`;
  const badCost = rows.filter((row) => !Number.isFinite(row.cost_usd) || row.cost_usd < 0);
  return badCost.length === 0
    ? null
    : `manifest: invalid cost on ${badCost.map((row) => row.step).join(', ')}`;
}

/** Dollars of the whole manifest: every row of every run. */
export function manifestCost(runDir: string): number {
  return readManifest(runDir).reduce(
    (sum, row) => sum + (Number.isFinite(row.cost_usd) ? row.cost_usd : 0),
    0,
  );
}

/** Dollars of what the fake served, at flower's list prices. */
export function servedCost(served: readonly ServedMessage[]): number {
  return served.reduce((sum, message) => sum + usageCost(message.model, message.usage), 0);
}

/**
 * The text of every `.jsonl` file under `dir` (Claude Code's own transcripts), joined: only whole lines. A
 * line a full disk cut short may name an answer's id, but holds nothing any process could read or price.
 */
function jsonlText(dir: string): string {
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .map((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return jsonlText(path);
      return name.endsWith('.jsonl')
        ? readFileSync(path, 'utf8').split('\n').filter(isWholeLine).join('\n')
        : '';
    })
    .join('\n');
}

function isWholeLine(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/**
 * The served answers that no record of the run holds: their message id is neither in `sessions.db` nor in
 * Claude Code's own transcripts (`<run dir>/claude/projects/`). Claude Code writes its transcript through a
 * buffer and may send the next request before the answer it just used is written, so a SIGKILL of the
 * whole process group at that request leaves an answer that was served, and used, in no file at all
 * (docs/decisions.md D339). Nothing can price it afterwards.
 */
export function unrecordedServed(runDir: string, served: readonly ServedMessage[]): ServedMessage[] {
  const database = join(runDir, 'sessions.db');
  let text = jsonlText(join(runDir, 'claude', 'projects'));
  if (existsSync(database)) {
    const connection = openSqlite(database, { readonly: true });
    try {
      text += connection
        .prepare('SELECT payload FROM entries')
        .all()
        .map((row) => (row as { payload: string }).payload)
        .join('\n');
    } finally {
      connection.close();
    }
  }
  return served.filter((message) => !text.includes(`"${message.id}"`));
}

/**
 * Null when the manifest's cost is the cost of the usage the fake served (to a millionth of a dollar, the
 * rounding of summed floating-point prices), less the answers in no record (`unrecorded`, see
 * {@link unrecordedServed}): nothing recorded was left out, nothing counted twice.
 */
export function costMatches(
  runDir: string,
  served: readonly ServedMessage[],
  unrecorded: readonly ServedMessage[] = [],
): string | null {
  const recorded = manifestCost(runDir);
  const lost = new Set(unrecorded.map((message) => message.id));
  const billed = servedCost(served.filter((message) => !lost.has(message.id)));
  const less = lost.size === 0 ? '' : ` (the served answers in a record)`;
  return Math.abs(recorded - billed) < 1e-6
    ? null
    : `manifest cost $${recorded.toFixed(6)} is not the served usage's $${billed.toFixed(6)}${less}`;
}

/** The steps of the manifest, in order, once each. */
export function manifestSteps(runDir: string): string[] {
  return [...new Set(readManifest(runDir).map((row) => row.step))];
}
