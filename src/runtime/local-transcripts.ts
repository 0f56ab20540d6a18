/**
 * What the Claude Code child wrote itself: its own transcript of a session, under the run directory's Claude
 * Code folder (`<run dir>/claude/projects/<project key>/<session>.jsonl`, and each subagent's at
 * `<session>/subagents/agent-<id>.jsonl`). The session store is a mirror of these files, written a little
 * after the fact, so a process killed between a response and its mirror leaves a response the local file
 * holds and the store does not. Pricing what a killed process spent reads both (docs/decisions.md D336).
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { SessionStoreEntry } from '../agent/claude-sdk.js';
import { isRecord } from '../internal/is-record.js';
import { storeKeyText } from './cost-breakdown.js';

/** One transcript by its store key as text (`projectKey/sessionId[/subpath]`), entries in file order. */
export interface KeyedTranscript {
  key: string;
  entries: SessionStoreEntry[];
}

/** The entries of a JSONL file; a line that does not parse (one a kill cut short) is left out. */
function readJsonLines(path: string): SessionStoreEntry[] {
  const entries: SessionStoreEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value) && typeof value['type'] === 'string') entries.push(value as SessionStoreEntry);
    } catch {
      // The last line of a file written when the process was killed may be cut short.
    }
  }
  return entries;
}

/** Every `.jsonl` file under `dir`, at any depth. */
function jsonlFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonlFiles(path);
    return name.endsWith('.jsonl') ? [path] : [];
  });
}

/**
 * The child's own transcripts of `sessionId` in `claudeDir` (the run directory's `claude` folder), keyed as
 * the store keys them: the main one, then each subagent's (`subagents/agent-<id>`). None when the files are
 * not there (a run on another host, or a folder cleaned up).
 */
export function localTranscripts(
  claudeDir: string,
  projectKey: string,
  sessionId: string,
): KeyedTranscript[] {
  const folder = join(claudeDir, 'projects', projectKey);
  const main = join(folder, `${sessionId}.jsonl`);
  const transcripts: KeyedTranscript[] = existsSync(main)
    ? [{ key: storeKeyText({ projectKey, sessionId }), entries: readJsonLines(main) }]
    : [];
  const own = join(folder, sessionId);
  for (const path of jsonlFiles(join(own, 'subagents'))) {
    const subpath = relative(own, path)
      .split(sep)
      .join('/')
      .replace(/\.jsonl$/, '');
    transcripts.push({ key: storeKeyText({ projectKey, sessionId, subpath }), entries: readJsonLines(path) });
  }
  return transcripts;
}

/** The API message id of an assistant entry, or null. */
function messageId(entry: SessionStoreEntry): string | null {
  if (entry.type !== 'assistant' || !isRecord(entry['message'])) return null;
  const id = entry['message']['id'];
  return typeof id === 'string' && id !== '' ? id : null;
}

/**
 * The store's transcripts with what only the local files hold added: a local entry (with a `uuid`) joins
 * its transcript when the store has no entry with that `uuid` there, and — for a response — when no transcript of the
 * session in the store carries its message id. So a response the store lacks is counted from the local
 * file, and one both hold is counted once, from the store (the store is what every other figure reads).
 */
export function withLocalEntries(
  stored: readonly KeyedTranscript[],
  local: readonly KeyedTranscript[],
): KeyedTranscript[] {
  const storedIds = new Set(
    stored.flatMap((transcript) => transcript.entries.map(messageId).filter((id) => id !== null)),
  );
  const merged = stored.map((transcript) => ({ key: transcript.key, entries: [...transcript.entries] }));
  for (const transcript of local) {
    let target = merged.find((candidate) => candidate.key === transcript.key);
    if (target === undefined) {
      target = { key: transcript.key, entries: [] };
      merged.push(target);
    }
    const uuids = new Set(target.entries.map((entry) => entry.uuid).filter((uuid) => uuid !== undefined));
    for (const entry of transcript.entries) {
      // Entries without a uuid are the child's bookkeeping (queue, cost state): the store keeps its own.
      if (entry.uuid === undefined || uuids.has(entry.uuid)) continue;
      const id = messageId(entry);
      if (id !== null && storedIds.has(id)) continue;
      target.entries.push(entry);
    }
  }
  return merged;
}
