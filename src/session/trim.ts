/**
 * Layer 4b, size: old large tool results are written to `<workspace>/<spillDirname>/<sha256[0:16]>.txt`
 * and replaced in the resumed context by a pointer the agent can `Read` (docs/context-economy.md). The stored
 * transcript is never changed, so turning trim off and resuming again restores everything.
 *
 * @module
 */
import * as crypto from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { codePointLength, replaced, resultText, templateFiller, type Entry } from './entry-content.js';
import type { SpillListing } from './spill-listing.js';
import type { SpillQueue } from './spill-queue.js';
import { indexTools, siteNow, type ResultSite, type ToolIndex } from './tool-index.js';
import type { TrimPolicy } from './trim-policy.js';
import type { Transform } from './transform.js';

interface Site {
  entryIndex: number;
  blockIndex: number;
  text: string;
  /** The text's length in code points, or -1 when not counted yet. */
  chars: number;
}

/** The most characters of result text a {@link SpillNames} keeps to compare against (128 MB of UTF-16). */
const NAMES_MAX_CHARS = 64 * 1024 * 1024;

/**
 * Spill-file names already computed, so a store that loads the same transcript again (every resume of a
 * long run) does not hash every large result again: a SHA-256 costs far more than comparing the text with
 * the one it was computed from. Keyed by the entry's uuid and block; a name is reused only when the text is
 * identical, so a changed result can never get another result's file. The oldest names are dropped past
 * {@link NAMES_MAX_CHARS} characters of text.
 */
export class SpillNames {
  readonly #known = new Map<string, { text: string; name: string }>();
  readonly #hash: (text: string) => string;
  readonly #maxChars: number;
  #chars = 0;

  /** `hash` and `maxChars` are for tests: the name function, and how much text is kept. */
  constructor(options: { hash?: (text: string) => string; maxChars?: number } = {}) {
    this.#hash = options.hash ?? spillName;
    this.#maxChars = options.maxChars ?? NAMES_MAX_CHARS;
  }

  /** The file name of `text` (`<first 16 hex of sha256>.txt`); `id` names its block, or is null. */
  nameOf(text: string, id: string | null): string {
    if (id === null) return this.#hash(text);
    const known = this.#known.get(id);
    if (known !== undefined && known.text === text) return known.name;
    const name = this.#hash(text);
    if (known !== undefined) {
      this.#known.delete(id);
      this.#chars -= known.text.length;
    }
    this.#known.set(id, { text, name });
    this.#chars += text.length;
    // Within budget (every load of a transcript under 128 MB of results) there is nothing to drop.
    if (this.#chars <= this.#maxChars) return name;
    for (const [oldest, entry] of this.#known) {
      if (this.#chars <= this.#maxChars) break;
      this.#known.delete(oldest);
      this.#chars -= entry.text.length;
    }
    return name;
  }
}

/** Node's one-shot digest (20.12 and later): a third of the time of a Hash object per result. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** `<first 16 hex of sha256 of the UTF-8 text>.txt`: content-addressed, so one result is one file. */
function spillName(text: string): string {
  const digest =
    oneShotHash === undefined
      ? crypto.createHash('sha256').update(text, 'utf8').digest('hex')
      : oneShotHash('sha256', text, 'hex');
  return `${digest.slice(0, 16)}.txt`;
}

/** Where {@link trim} puts the files it spills, besides writing them itself before it returns. */
export interface TrimOptions {
  workspace: string;
  /** Names computed by earlier loads of the same store. */
  names?: SpillNames;
  /** The spill folder's listing, kept between loads of the same store (else listed at each load). */
  listing?: SpillListing;
  /** {@link indexTools} of `entries` (or of the array the expire layer rewrote into `entries`). */
  index?: ToolIndex;
  /**
   * Queue the files instead of writing them: `trim` returns at once and the caller must await
   * {@link SpillQueue.settled} before anything may read them. `onError` hears a file that failed later.
   */
  queue?: { spills: SpillQueue; onError: (message: string) => void };
}

/**
 * Spills every large tool result (text of at least `minChars`) except the newest `keepRecent` and puts a
 * pointer in its place. A spill file that cannot be written leaves its block untouched and is recorded in
 * `report.errors`: an I/O problem must never abort a resume (decisions.md D414). Identical content maps to
 * one file, written once. The input array and its entries are not modified.
 */
export function trim(entries: readonly Entry[], policy: TrimPolicy, options: TrimOptions): Transform {
  const sites: Site[] = [];
  const index =
    options.index !== undefined && options.index.entries.length === entries.length
      ? options.index
      : indexTools(entries);
  // Only the tool_result blocks, from the shared index: no walk over every block of the transcript.
  const results = index.results;
  for (let siteIndex = 0; siteIndex < results.length; siteIndex += 1) {
    const site = results[siteIndex] as ResultSite;
    // The UTF-16 length bounds the code-point count from both sides (a code point is one or two units):
    // only results between minChars and twice that need an exact count to be judged. A block an earlier
    // layer rewrote is judged by its new text.
    const unchanged = entries[site.entryIndex] === index.entries[site.entryIndex];
    if (unchanged && (site.length === null || site.length < policy.minChars)) continue;
    const now = siteNow(index, entries, site);
    if (now === null || now.length === null || now.length < policy.minChars) continue;
    const text = resultText(now.block['content']) as string;
    // Counted once: the pointer needs the count of every target again below.
    const chars = now.length >= 2 * policy.minChars ? -1 : codePointLength(text);
    if (chars === -1 || chars >= policy.minChars) {
      sites.push({ entryIndex: site.entryIndex, blockIndex: site.blockIndex, text, chars });
    }
  }
  const keep = policy.keepRecent > 0 ? Math.min(policy.keepRecent, sites.length) : 0;
  const targets = sites.slice(0, sites.length - keep);
  if (targets.length === 0) {
    return { entries: entries.slice(), report: { cleared: 0, kept: sites.length, charsSaved: 0 } };
  }

  const directory = resolve(options.workspace, policy.spillDirname);
  const pointerOf = templateFiller(policy.text);
  const errors: string[] = [];
  const replacements = new Map<number, Map<number, string>>();
  let cleared = 0;
  let charsSaved = 0;
  // The spill files already there, read once: one directory listing instead of a stat per target.
  let existing: KnownFiles | null = null;
  // An indexed loop: an array iterator costs an object per step in code not yet optimised
  // (docs/decisions.md D426).
  for (let targetIndex = 0; targetIndex < targets.length; targetIndex += 1) {
    const site = targets[targetIndex] as Site;
    try {
      if (existing === null) {
        mkdirSync(directory, { recursive: true });
        existing = new KnownFiles(options.listing?.namesIn(directory) ?? new Set(readdirSync(directory)));
      }
      const uuid = (entries[site.entryIndex] as Entry).uuid;
      // The first block goes by the bare uuid (no string built per result). Two blocks sharing a key only
      // cost the cache a hit: a name is reused for identical text alone, and a name is a function of the text.
      const id =
        typeof uuid === 'string' && uuid !== ''
          ? site.blockIndex === 0
            ? uuid
            : `${uuid}#${site.blockIndex}`
          : null;
      const name = options.names?.nameOf(site.text, id) ?? spillName(site.text);
      const path =
        options.queue === undefined
          ? spillFile(directory, site.text, existing, name)
          : queueSpill(directory, site.text, existing, name, options.queue);
      const chars = site.chars === -1 ? codePointLength(site.text) : site.chars;
      const pointer = pointerOf({ n: chars, path });
      const forEntry = replacements.get(site.entryIndex) ?? new Map<number, string>();
      forEntry.set(site.blockIndex, pointer);
      replacements.set(site.entryIndex, forEntry);
      cleared += 1;
      charsSaved += Math.max(0, chars - codePointLength(pointer));
    } catch (error) {
      errors.push(`trim: could not write a spill file in ${directory}: ${(error as Error).message}`);
    }
  }
  const out = replaced(entries, replacements);
  const report = { cleared, kept: sites.length - cleared, charsSaved };
  return { entries: out, report: errors.length > 0 ? { ...report, errors } : report };
}

/** The names of a folder's files that one load knows of: its listing, and the files the load wrote or queued. */
class KnownFiles {
  readonly #listed: ReadonlySet<string>;
  readonly #added = new Set<string>();

  constructor(listed: ReadonlySet<string>) {
    this.#listed = listed;
  }

  has(name: string): boolean {
    return this.#listed.has(name) || this.#added.has(name);
  }

  /** Notes a file this load wrote or queued; the listing itself is left as it was (it may be shared). */
  add(name: string): void {
    this.#added.add(name);
  }
}

/** The path of `name` in `directory`, queued for writing unless the listing `existing` already has it. */
function queueSpill(
  directory: string,
  text: string,
  existing: KnownFiles,
  name: string,
  queue: NonNullable<TrimOptions['queue']>,
): string {
  // `directory` is resolved and `name` a bare file name: no path.join (a normalisation per spilled result).
  const path = directory.endsWith(sep) ? `${directory}${name}` : `${directory}${sep}${name}`;
  if (existing.has(name)) return path;
  queue.spills.add(path, text, queue.onError);
  existing.add(name);
  return path;
}

/**
 * Writes `text` to `<directory>/<first 16 hex of sha256>.txt` unless that file exists, and returns its
 * absolute path. Content-addressed, so the same result is stored once however often it is trimmed.
 * `existing` (file names known to be in `directory`) saves a stat per call and learns the files written;
 * `knownName` is the name {@link SpillNames} already computed for `text`.
 */
export function spillFile(
  directory: string,
  text: string,
  existing?: { has(name: string): boolean; add(name: string): unknown },
  knownName?: string,
): string {
  const name = knownName ?? spillName(text);
  const path = join(directory, name);
  if (existing?.has(name) ?? existsSync(path)) return path;
  // Temp file + rename: a crash mid-write never leaves a truncated file under the final name, which the
  // existence check above would then trust forever.
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, 'utf8');
  renameSync(temporary, path);
  existing?.add(name);
  return path;
}
