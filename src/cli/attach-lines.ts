/**
 * What a second `flower` prints when the workspace's `go` run is live in another process: that it only
 * watches (who holds the run, since when), where the run stands — the last steps of the manifest, verdicts
 * included — and how to reach the running one (`flower ask`). Built from the records alone; nothing is
 * written.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import type { ManifestRow } from '../runtime/manifest.js';
import type { ProcessRecord } from '../runtime/run-processes.js';

/** How many of the latest manifest rows are shown. */
const SHOWN_ROWS = 8;

/** The lines, in order: the live-holder line, the steps so far, the `flower ask` hint. */
export function attachLines(
  holder: Pick<ProcessRecord, 'pid' | 'host' | 'since'>,
  rows: readonly ManifestRow[],
  lang: Lang,
): string[] {
  const since = new Date(holder.since * 1000).toLocaleString('sv-SE').slice(0, 19);
  const lines = [uiText('attach.live', { pid: holder.pid, host: holder.host, since }, lang)];
  lines.push(uiText('attach.stands', {}, lang));
  if (rows.length === 0) lines.push(`  ${uiText('attach.none', {}, lang)}`);
  for (const row of rows.slice(-SHOWN_ROWS)) lines.push(`  ${row.step} · ${status(row, lang)}`);
  lines.push(uiText('attach.ask', {}, lang));
  return lines;
}

function status(row: ManifestRow, lang: Lang): string {
  if (row.ended_at === 0) return uiText('attach.running', {}, lang);
  const cost = `$${row.cost_usd.toFixed(4)}`;
  if (row.ok) return `${uiText('attach.ok', {}, lang)} · ${cost}`;
  return `${uiText('attach.failed', {}, lang)} · ${cost}${row.error === null ? '' : ` · ${row.error}`}`;
}
