/**
 * Completing what a killed process left in the manifest. A step writes its row while it runs (`ended_at`
 * 0, the cost as of the last stored API response); SIGKILL or a power loss leaves it that way. When a later
 * process resumes the same session, the earlier one is certainly gone, so its unfinished rows for that
 * session are completed from the session store: every response stored between the row's start and the next
 * row of the session is priced (`estimateEntries`), the row keeps the larger of that and what it already
 * said (the row may hold the child's exact figure for queries that finished), `ended_at` becomes the time
 * of the last stored entry, and `error` becomes `killed-by-signal`.
 *
 * @module
 */
import type { SessionStoreEntry } from '../agent/claude-sdk.js';
import { costBreakdown, stepCostBy } from './cost-breakdown.js';
import { estimateEntries, pricedMessage } from './cost-ledger.js';
import type { PriceTable } from './price-table.js';
import { FileRunRecords } from './file-run-records.js';
import { withLocalEntries, type KeyedTranscript } from './local-transcripts.js';
import type { ManifestRow } from './manifest.js';
import type { RunRecords } from './run-records.js';
import { KILLED } from './step-outcome.js';

/** What {@link completeAbandonedRows} needs. */
export interface AbandonedRowsInput {
  runDir: string;
  /** Where the manifest rows are; the run directory's `manifest.json` by default. */
  records?: RunRecords;
  /** This process's run id: its own rows are never touched. */
  runId: string;
  sessionId: string;
  /** Every stored entry of the session, subagent transcripts included, untransformed. */
  loadEntries: () => Promise<SessionStoreEntry[]>;
  /**
   * The entries of a session by transcript (store key as text); when given, it is read instead of
   * `loadEntries`, for the row's session and each session the row's step retired by a handoff before the
   * kill (its responses are the row's too), and the completed row's `cost_by` is attributed from the same
   * window. Called without an id, it means `sessionId`.
   */
  loadTranscripts?: (sessionId?: string) => Promise<Array<{ key: string; entries: SessionStoreEntry[] }>>;
  /**
   * The Claude Code child's own transcripts of a session (`localTranscripts`): what they hold and the
   * store does not yet — a response served just before the kill — is priced too, once per message id
   * (docs/decisions.md D336). Read with `loadTranscripts` only.
   */
  loadLocal?: (sessionId?: string) => KeyedTranscript[];
  /** Epoch seconds; the end of the last row's window. */
  now: number;
  /** The prices to figure the rows' cost at; the list alone by default. */
  prices?: PriceTable;
}

/** A row written by another run for `sessionId` that never finished. */
export function isAbandoned(row: ManifestRow, sessionId: string, runId: string): boolean {
  return row.session_id === sessionId && row.ended_at === 0 && row.run !== runId;
}

/**
 * The sessions of rows other runs left unfinished that no live process holds (`live`: the sessions live
 * flower processes on this run directory have claimed), in manifest order. Their processes are gone, and
 * a session that is never resumed — a killed judge's, a bequest's — would otherwise keep its row unfinished,
 * short of the responses it was served after the row was last written (docs/decisions.md D337).
 */
export function deadSessions(
  rows: readonly ManifestRow[],
  runId: string,
  live: ReadonlySet<string>,
): string[] {
  const sessions = rows.flatMap((row) =>
    row.session_id !== null &&
    row.session_id !== '' &&
    !live.has(row.session_id) &&
    isAbandoned(row, row.session_id, runId)
      ? [row.session_id]
      : [],
  );
  return [...new Set(sessions)];
}

/**
 * Completes the unfinished rows other runs left for the session; returns how many. Reads the store only
 * when there is such a row. Throws only on a failed manifest write.
 */
export async function completeAbandonedRows(input: AbandonedRowsInput): Promise<number> {
  const records = input.records ?? new FileRunRecords(input.runDir);
  const rows = await records.readRows();
  const abandoned = rows.filter((row) => isAbandoned(row, input.sessionId, input.runId));
  if (abandoned.length === 0) return 0;
  // A handoff inside the killed step retired the sessions it ran in before this one: the row's spend is
  // theirs too, and the window must price them, or the larger of row and window drops what only the
  // current session's window holds (docs/decisions.md D336).
  const sessions = [...new Set([input.sessionId, ...abandoned.flatMap((row) => row.retired)])].filter(
    (id) => id !== '',
  );
  const loadTranscripts = input.loadTranscripts;
  const transcripts =
    loadTranscripts === undefined
      ? null
      : (
          await Promise.all(
            sessions.map(async (id) =>
              withLocalEntries(await loadTranscripts(id), input.loadLocal?.(id) ?? []),
            ),
          )
        ).flat();
  const entries = transcripts?.flatMap((transcript) => transcript.entries) ?? (await input.loadEntries());
  let completed = 0;
  await records.updateRows(input.runId, (all) => {
    const starts = all
      .filter((row) => row.session_id === input.sessionId)
      .map((row) => row.started_at)
      .sort((a, b) => a - b);
    const next = all.map((row) => {
      if (!isAbandoned(row, input.sessionId, input.runId)) return row;
      const end = starts.find((start) => start > row.started_at) ?? input.now;
      // A response paid before the row started (a copy a resumed or forked session stored again) is not its.
      const paidBefore = new Set(
        entries.flatMap((entry) => {
          const at = entryTime(entry);
          const priced = at !== null && at < row.started_at ? pricedMessage(entry) : null;
          return priced === null ? [] : [priced.id];
        }),
      );
      const inWindow = (entry: SessionStoreEntry): boolean => {
        const at = entryTime(entry);
        const priced = pricedMessage(entry);
        return (
          at !== null && at >= row.started_at && at < end && (priced === null || !paidBefore.has(priced.id))
        );
      };
      const window = entries.filter(inWindow);
      const last = window.reduce((latest, entry) => Math.max(latest, entryTime(entry) ?? 0), 0);
      const endedAt = last > row.started_at ? last : row.started_at;
      completed++;
      const costBy =
        transcripts === null ? undefined : windowCostBy(transcripts, inWindow, input.prices, row);
      return {
        ...row,
        ...(costBy === undefined ? {} : { cost_by: costBy }),
        ok: false,
        error: row.error ?? KILLED,
        cost_usd: Math.max(row.cost_usd, estimateEntries(window, input.prices)),
        ended_at: endedAt,
        duration_s: Math.round((endedAt - row.started_at) * 100) / 100,
      };
    });
    return completed > 0 ? next : undefined;
  });
  return completed;
}

/**
 * The attribution of the responses stored in the row's window, or the row's own when that counts more
 * (the row was written from the same responses as they arrived; the window can only miss some).
 */
function windowCostBy(
  transcripts: ReadonlyArray<{ key: string; entries: SessionStoreEntry[] }>,
  inWindow: (entry: SessionStoreEntry) => boolean,
  prices: PriceTable | undefined,
  row: ManifestRow,
): ManifestRow['cost_by'] {
  const windowed = transcripts.map((transcript) => ({
    key: transcript.key,
    entries: transcript.entries.filter(inWindow),
  }));
  const costBy = stepCostBy(costBreakdown(windowed, [], prices === undefined ? {} : { prices }));
  const figured = costBy.mainUsd + costBy.subagents.reduce((sum, subagent) => sum + subagent.usd, 0);
  const own = row.cost_by;
  const recorded =
    own === undefined
      ? 0
      : own.main_usd + own.subagents.reduce((sum, subagent) => sum + subagent.cost_usd, 0);
  if (own !== undefined && recorded >= figured) return own;
  return {
    main_usd: costBy.mainUsd,
    subagents: costBy.subagents.map(({ usd, ...dispatch }) => ({ ...dispatch, cost_usd: usd })),
  };
}

/** Epoch seconds of an entry's ISO `timestamp`, or null. */
function entryTime(entry: SessionStoreEntry): number | null {
  if (typeof entry.timestamp !== 'string') return null;
  const milliseconds = Date.parse(entry.timestamp);
  return Number.isFinite(milliseconds) ? milliseconds / 1000 : null;
}
