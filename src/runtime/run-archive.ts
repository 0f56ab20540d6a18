/**
 * `flower export` and `flower import`: a run as one `.tar.gz` that can be unpacked in another folder or on
 * another machine, where `flower` resumes the same sessions (docs/scaling.md, decisions.md D328).
 *
 * What travels: a consistent snapshot of the transcripts (`sessions.db`, taken with the store's online
 * backup while a run may still be writing), `manifest.json`, `lineage.json`, `events.jsonl`, the workbench
 * (brief, goal, Q&A log, verdicts, handoff documents, scripts, artifacts) and the bequest files
 * (`CLAUDE.md`, `AGENTS.md`), plus `flower-run.json`, which says where they came from. What never travels:
 * the per-run Claude Code folder (`claude/`), `tmp/`, `processes.json`, locks, and any credential — a
 * `.env`-like file or a value that looks like a key stops the export before anything is written.
 *
 * Import never overwrites: every destination is checked first. It then re-keys the stored sessions from
 * the old workspace's project key to the new one through the lineage (the same move a renamed workspace
 * gets), so the next `flower` there resumes the same session ids.
 *
 * @module
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { create, extract } from 'tar';
import { projectKey as projectKeyOf } from '../agent/project-key.js';
import { FlowerError } from '../errors.js';
import { openSqlite } from '../session/sqlite-driver.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import type { TranscriptSnapshotSource } from '../session/transcript-snapshot.js';
import { CredentialScanner, type CredentialFinding } from './credential-scan.js';
import { EVENT_LOG_FILE } from './event-log.js';
import { importToServer } from './import-to-server.js';
import { LINEAGE_FILE, Lineage } from './lineage.js';
import { MANIFEST_FILE } from './manifest.js';
import type { RunStoreServer } from './run-stores.js';

/** The description file at the root of every archive. */
export const ARCHIVE_DESCRIPTION = 'flower-run.json';
/** The transcripts' file name, in the run directory and in the archive. */
export const SESSIONS_FILE = 'sessions.db';
/** The run directory's files that travel (besides the snapshot and the workbench). */
const RUN_FILES = [MANIFEST_FILE, LINEAGE_FILE, EVENT_LOG_FILE];
/** The workspace files the bequest is written into. */
const BEQUEST_FILES = ['CLAUDE.md', 'AGENTS.md'];
/** What a server keeps instead of the run directory, as paths in the archive. */
const SERVER_KEPT = new Set([SESSIONS_FILE, MANIFEST_FILE, LINEAGE_FILE].map((name) => `run/${name}`));
const ARCHIVE_FORMAT = 'flower-run';
const ARCHIVE_VERSION = 1;

/** Files that hold credentials by their nature, whatever their content looks like. */
const CREDENTIAL_FILE_NAMES =
  /^(?:\.env(?:\..+)?|\.netrc|\.npmrc|\.pgpass|\.git-credentials|id_(?:rsa|dsa|ecdsa|ed25519))$/;
/** Example files next to a `.env` carry names, not values: they are scanned like any other file. */
const EXAMPLE_ENV = /^\.env\.(?:example|sample|template|dist)$/;

/** `flower-run.json`: where the run came from. */
export interface ArchiveDescription {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  /** ISO time of the export. */
  exported_at: string;
  /** The workspace's absolute path on the exporting machine. */
  workspace: string;
  /** The project key the sessions are stored under in the archive's `sessions.db`. */
  project_key: string;
  /** Where the workbench was, relative to the workspace (`.flower`) or to the run directory (`run:workbench`). */
  workbench: string | null;
  /** The bequest files that travel, relative to the workspace. */
  bequest: string[];
}

/** What {@link exportRun} needs. */
export interface ExportOptions {
  workspace: string;
  runDir: string;
  /** The `.tar.gz` to write; must not exist. */
  output: string;
  /** The transcripts to snapshot; by default the run directory's `sessions.db`. */
  transcripts?: TranscriptSnapshotSource;
  /** The user's own credential values: found anywhere, they refuse the export. */
  credentialValues: readonly string[];
  now?: Date;
}

/** What an export packed. */
export interface ExportSummary {
  output: string;
  /** Paths inside the archive, sorted. */
  files: string[];
  /** Transcripts (main sessions and subagents) in the snapshot. */
  transcripts: number;
}

/**
 * Packs the run of `workspace` (run directory `runDir`) into `output`. Throws `FlowerError`: `NO_RUN`
 * when the run directory holds no run, `RUN_ARCHIVE` when `output` exists, `EXPORT_CREDENTIAL` (with the
 * file and the kind of key, never the value) when anything that would travel holds a credential; in every
 * case nothing is written.
 */
export async function exportRun(options: ExportOptions): Promise<ExportSummary> {
  const runDir = resolve(options.runDir);
  const workspace = resolve(options.workspace);
  const output = resolve(options.output);
  const sessionsPath = join(runDir, SESSIONS_FILE);
  if (!existsSync(sessionsPath) && !existsSync(join(runDir, MANIFEST_FILE))) {
    throw new FlowerError(
      'NO_RUN',
      `No run to export in ${runDir}: it holds neither ${SESSIONS_FILE} nor ${MANIFEST_FILE}. Name the workspace or its run directory.`,
    );
  }
  if (existsSync(output)) {
    throw new FlowerError(
      'RUN_ARCHIVE',
      `${output} already exists; choose another -o path or remove it first.`,
    );
  }
  const stage = mkdtempSync(join(dirname(output), `.${basename(output)}.staging-`));
  try {
    const description = stageRun(stage, { workspace, runDir, now: options.now ?? new Date() });
    const source =
      options.transcripts ?? (existsSync(sessionsPath) ? new SqliteSessionStore(sessionsPath) : null);
    let transcripts = 0;
    if (source !== null) {
      try {
        await source.snapshotTo(join(stage, 'run', SESSIONS_FILE));
      } finally {
        if (options.transcripts === undefined) (source as SqliteSessionStore).close();
      }
    }
    const scanner = new CredentialScanner(options.credentialValues);
    if (existsSync(join(stage, 'run', SESSIONS_FILE))) {
      // A single self-contained file: the copy keeps the source's WAL mode, whose readers would leave
      // -wal and -shm companions in the archive. The importing store turns WAL on again when it opens it.
      const snapshot = openSqlite(join(stage, 'run', SESSIONS_FILE));
      try {
        snapshot.pragmaValue('journal_mode = DELETE');
      } finally {
        snapshot.close();
      }
      const scanned = scanTranscripts(join(stage, 'run', SESSIONS_FILE), scanner);
      transcripts = scanned.transcripts;
      if (scanned.finding !== null) refuse(scanned.finding);
    }
    const finding = scanFiles(stage, scanner);
    if (finding !== null) refuse(finding);
    writeFileSync(join(stage, ARCHIVE_DESCRIPTION), `${JSON.stringify(description, null, 2)}\n`);
    const files = listFiles(stage);
    const partial = `${output}.partial-${process.pid}`;
    await create({ gzip: true, file: partial, cwd: stage, portable: true }, files);
    renameSync(partial, output);
    return { output, files: files.sort(), transcripts };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Copies what travels into `stage` (`run/…`, `workspace/…`) and returns the description. */
function stageRun(
  stage: string,
  where: { workspace: string; runDir: string; now: Date },
): ArchiveDescription {
  mkdirSync(join(stage, 'run'));
  mkdirSync(join(stage, 'workspace'));
  for (const name of RUN_FILES) {
    const path = join(where.runDir, name);
    if (existsSync(path)) cpSync(path, join(stage, 'run', name));
  }
  let workbench: string | null = null;
  const inRunDir = join(where.runDir, 'workbench');
  const inWorkspace = join(where.workspace, '.flower');
  if (isDirectory(inRunDir)) {
    copyTree(inRunDir, join(stage, 'run', 'workbench'));
    workbench = 'run:workbench';
  } else if (isDirectory(inWorkspace)) {
    copyTree(inWorkspace, join(stage, 'workspace', '.flower'));
    workbench = '.flower';
  }
  const bequest = BEQUEST_FILES.filter((name) => isFile(join(where.workspace, name)));
  for (const name of bequest) cpSync(join(where.workspace, name), join(stage, 'workspace', name));
  return {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exported_at: where.now.toISOString(),
    workspace: realOrResolved(where.workspace),
    project_key: projectKeyOf(realOrResolved(where.workspace)),
    workbench,
    bequest,
  };
}

/** Copies regular files and folders; symbolic links stay behind (their target is not part of the run). */
function copyTree(from: string, to: string): void {
  cpSync(from, to, {
    recursive: true,
    filter: (source) => !lstatSync(source).isSymbolicLink(),
  });
}

function scanTranscripts(
  path: string,
  scanner: CredentialScanner,
): { transcripts: number; finding: CredentialFinding | null } {
  const connection = openSqlite(path, { readonly: true });
  try {
    const counted = connection.prepare('SELECT count(*) AS n FROM meta').get() as { n: number };
    const rows = connection
      .prepare('SELECT store_key, payload FROM entries ORDER BY store_key, seq')
      .iterate();
    for (const row of rows as Iterable<{ store_key: string; payload: string }>) {
      const kind = scanner.kindIn(row.payload);
      if (kind !== null) {
        return {
          transcripts: counted.n,
          finding: { path: `run/${SESSIONS_FILE}`, where: `transcript ${row.store_key}`, kind },
        };
      }
    }
    const summaries = connection.prepare('SELECT session_id, data FROM summaries').iterate();
    for (const row of summaries as Iterable<{ session_id: string; data: string }>) {
      const kind = scanner.kindIn(row.data);
      if (kind !== null) {
        return {
          transcripts: counted.n,
          finding: { path: `run/${SESSIONS_FILE}`, where: `summary of session ${row.session_id}`, kind },
        };
      }
    }
    return { transcripts: counted.n, finding: null };
  } finally {
    connection.close();
  }
}

/** The first credential in the staged files (by name, then by content), or null. */
function scanFiles(stage: string, scanner: CredentialScanner): CredentialFinding | null {
  for (const file of listFiles(stage)) {
    const name = basename(file);
    if (name === SESSIONS_FILE && file.startsWith('run/')) continue;
    if (CREDENTIAL_FILE_NAMES.test(name) && !EXAMPLE_ENV.test(name)) {
      return { path: file, where: 'the file', kind: 'a credentials file' };
    }
    const finding = scanner.scanText(file, readFileSync(join(stage, file), 'latin1'));
    if (finding !== null) return finding;
  }
  return null;
}

function refuse(finding: CredentialFinding): never {
  throw new FlowerError(
    'EXPORT_CREDENTIAL',
    `Not exported: ${finding.path} (${finding.where}) holds ${finding.kind}, and a run archive never carries a credential. ` +
      'Remove it from the run (or move the file out of the workbench), then export again. Nothing was written.',
  );
}

/** What {@link importRun} needs. */
export interface ImportOptions {
  /** The `.tar.gz` made by {@link exportRun}. */
  archive: string;
  /** The workspace to unpack into (made when missing). */
  workspace: string;
  /** The run directory; default `<workspace>/runs`. */
  runDir?: string;
  /**
   * A PostgreSQL store to place the transcripts and records in (`--store`, `FLOWER_STORE`) instead of the
   * run directory's `sessions.db`, `manifest.json` and `lineage.json`; null or absent for those files.
   */
  server?: RunStoreServer | null;
}

/** What an import did. */
export interface ImportSummary {
  workspace: string;
  runDir: string;
  /** The project key the sessions were stored under, and the one they are stored under now. */
  fromProjectKey: string;
  toProjectKey: string;
  /** The session ids the lineage resumes, by step. */
  steps: Record<string, string>;
  /** With a server: where the transcripts and records went (redacted location and run name); else null. */
  server: string | null;
}

/**
 * Unpacks `archive` into `workspace` (run directory `runDir`) and re-keys its sessions for the new path.
 * Throws `FlowerError` `RUN_ARCHIVE` when the file is missing or not a flower run archive, or when any
 * destination already exists (nothing is written then).
 */
export async function importRun(options: ImportOptions): Promise<ImportSummary> {
  const archive = resolve(options.archive);
  if (!isFile(archive)) {
    throw new FlowerError(
      'RUN_ARCHIVE',
      `${archive} is not a file; give the .tar.gz that flower export wrote.`,
    );
  }
  const workspace = resolve(options.workspace);
  mkdirSync(workspace, { recursive: true });
  const realWorkspace = realpathSync(workspace);
  const runDir = options.runDir === undefined ? join(realWorkspace, 'runs') : resolve(options.runDir);
  const stage = mkdtempSync(join(realWorkspace, '.flower-import-'));
  try {
    try {
      // tar refuses absolute names and `..` on extract (strict: a damaged archive is an error).
      await extract({ file: archive, cwd: stage, strict: true });
    } catch (error) {
      throw notAnArchive(archive, error);
    }
    const description = readDescription(stage, archive);
    const server = options.server ?? null;
    const moves = destinations(stage, description, { workspace: realWorkspace, runDir }).filter(
      // With a server the transcripts and records go there; the run directory keeps only the event log.
      (move) => server === null || !SERVER_KEPT.has(relative(stage, move.from).split(sep).join('/')),
    );
    const taken = moves.filter((move) => existsSync(move.to)).map((move) => move.to);
    if (taken.length > 0) {
      throw new FlowerError(
        'RUN_ARCHIVE',
        `Not imported: ${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''}; import into an empty folder (-w DIR). Nothing was changed.`,
      );
    }
    // The server first: a server that refuses (it holds this run already) leaves the folders untouched.
    const placed =
      server === null
        ? null
        : await importToServer(
            join(stage, 'run'),
            description.project_key,
            { workspace: realWorkspace, runDir },
            server,
          );
    for (const move of moves) {
      mkdirSync(dirname(move.to), { recursive: true });
      renameSync(move.from, move.to);
    }
    if (placed !== null) {
      const { location, ...summary } = placed;
      return { workspace: realWorkspace, runDir, ...summary, server: location };
    }
    return rekeyImported(description, { workspace: realWorkspace, runDir });
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

function readDescription(stage: string, archive: string): ArchiveDescription {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(stage, ARCHIVE_DESCRIPTION), 'utf8'));
  } catch (error) {
    throw notAnArchive(archive, error);
  }
  const description = value as Partial<ArchiveDescription>;
  if (description.format !== ARCHIVE_FORMAT || typeof description.workspace !== 'string') {
    throw notAnArchive(archive, null);
  }
  if (description.version !== ARCHIVE_VERSION) {
    throw new FlowerError(
      'RUN_ARCHIVE',
      `${archive} is a flower run archive of version ${String(description.version)}; this flower reads version ${ARCHIVE_VERSION}. Update flower.`,
    );
  }
  return description as ArchiveDescription;
}

function notAnArchive(archive: string, cause: unknown): FlowerError {
  return new FlowerError(
    'RUN_ARCHIVE',
    `${archive} is not a flower run archive (no readable ${ARCHIVE_DESCRIPTION}); give the .tar.gz that flower export wrote.`,
    { cause },
  );
}

/** Each staged top-level item and where it goes. */
function destinations(
  stage: string,
  description: ArchiveDescription,
  where: { workspace: string; runDir: string },
): Array<{ from: string; to: string }> {
  const moves: Array<{ from: string; to: string }> = [];
  for (const name of childNames(join(stage, 'run'))) {
    moves.push({ from: join(stage, 'run', name), to: join(where.runDir, name) });
  }
  for (const name of childNames(join(stage, 'workspace'))) {
    moves.push({ from: join(stage, 'workspace', name), to: join(where.workspace, name) });
  }
  // Only what the description names as the run's is placed; anything else in the archive is ignored.
  const allowed = new Set([...RUN_FILES, SESSIONS_FILE, 'workbench', '.flower', ...description.bequest]);
  return moves.filter((move) => allowed.has(basename(move.from)));
}

/** Re-keys the sessions for the new workspace through the lineage, as a moved workspace would be. */
function rekeyImported(
  description: ArchiveDescription,
  where: { workspace: string; runDir: string },
): ImportSummary {
  const lineagePath = join(where.runDir, LINEAGE_FILE);
  const toProjectKey = projectKeyOf(where.workspace);
  const sessionsPath = join(where.runDir, SESSIONS_FILE);
  if (existsSync(lineagePath)) {
    // The lineage recognises a moved workspace by the path from the run directory to it: set that path to
    // the new layout, so the move (and its re-key) is what the lineage itself does on open.
    const record = JSON.parse(readFileSync(lineagePath, 'utf8')) as Record<string, unknown>;
    const rel = relative(where.runDir, where.workspace).split(sep).join('/');
    record['workspace_rel'] = rel === '' ? '.' : rel;
    record['project_key'] ??= description.project_key;
    writeFileSync(lineagePath, `${JSON.stringify(record, null, 2)}\n`);
  }
  const store = existsSync(sessionsPath) ? new SqliteSessionStore(sessionsPath) : null;
  try {
    // Without a lineage nothing would move the sessions: re-key them directly.
    if (!existsSync(lineagePath)) store?.rekey(description.project_key, toProjectKey);
    const lineage = Lineage.open(where.runDir, where.workspace, {
      ...(store === null ? {} : { rekeyStore: (from: string, to: string) => store.rekey(from, to) }),
    });
    return {
      workspace: where.workspace,
      runDir: where.runDir,
      fromProjectKey: description.project_key,
      toProjectKey,
      steps: { ...lineage.steps },
      server: null,
    };
  } finally {
    store?.close();
  }
}

function childNames(folder: string): string[] {
  return isDirectory(folder) ? readdirSync(folder) : [];
}

/** Every regular file under `root`, as `/`-separated paths relative to it. */
function listFiles(root: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) files.push(...listFiles(root, path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
