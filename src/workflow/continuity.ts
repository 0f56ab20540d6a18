/**
 * Continuity across processes (docs/workflows.md, docs/continuity.md): a continuous workflow opens the run
 * directory's lineage, counts this run as one more wake, and picks up each step's last session — but only
 * sessions the runtime can still resume. A remembered session that is gone is reported, never silently
 * replaced (decisions.md D9).
 *
 * @module
 */
import type { Lang } from '../config/ui-text.js';
import type { WarningCode } from '../events/flower-event.js';
import { errorText } from '../internal/error-text.js';
import { Lineage } from '../runtime/lineage.js';
import type { RuntimeLike } from './runtime-like.js';
import type { Ctx } from './step.js';

/** What a continuous run carries over from earlier runs. */
export interface Continuity {
  readonly lineage: Lineage;
  /** Step base name → session id to resume; read from lineage only (decisions.md D312). */
  readonly carry: ReadonlyMap<string, string>;
  /** Step base name → a remembered session the runtime no longer has. */
  readonly gone: ReadonlyMap<string, string>;
}

/**
 * Opens the lineage of `rt`'s run directory and workspace, bumps the wake count into `ctx._woke`, and
 * splits the remembered sessions into those to resume and those gone. Returns null when `rt` has no run
 * directory or workspace (continuity needs both). Lineage notices (moved, reset, quarantined) go to `warn`.
 */
export async function openContinuity(
  rt: RuntimeLike,
  ctx: Ctx,
  warn: (code: WarningCode, text: string) => void,
  options: { lang: Lang; uiErrors: string[] },
): Promise<Continuity | null> {
  if (rt.runDir === undefined || rt.workspace === undefined) return null;
  const store = rt.store;
  // A store on a server re-keys asynchronously: the lineage opens at once, and the move is awaited here,
  // before any session of the new key is looked for (docs/decisions.md D430).
  const moving: Array<Promise<unknown>> = [];
  const rekeyStore = (from: string, to: string): unknown => {
    const moved = store?.rekey(from, to);
    if (moved instanceof Promise) moving.push(moved);
    return moved;
  };
  // A workspace that moved with its run directory keeps its sessions: they move to the new project key.
  const openOptions = {
    lang: options.lang,
    ...(store === undefined ? {} : { rekeyStore }),
  };
  // The run's records on a server keep the lineage there (docs/scaling.md); else `lineage.json`.
  const lineage =
    rt.records === undefined
      ? Lineage.open(rt.runDir, rt.workspace, openOptions)
      : await Lineage.openRecords(rt.records, rt.runDir, rt.workspace, openOptions);
  for (const failed of await Promise.allSettled(moving)) {
    if (failed.status === 'rejected') options.uiErrors.push(`rekey: ${errorText(failed.reason)}`);
  }
  for (const notice of lineage.notices) warn(notice.code, notice.text);
  ctx._lineage = lineage;
  ctx._woke = lineage.bump();
  const sessions = (ctx._sessions ??= {});
  const carry = new Map<string, string>();
  const gone = new Map<string, string>();
  for (const [name, sessionId] of Object.entries(lineage.steps)) {
    if (sessionId === '') continue;
    if (await isAlive(rt, sessionId, options.uiErrors)) {
      carry.set(name, sessionId);
      sessions[name] ??= sessionId;
    } else {
      gone.set(name, sessionId);
    }
  }
  return { lineage, carry, gone };
}

async function isAlive(rt: RuntimeLike, sessionId: string, uiErrors: string[]): Promise<boolean> {
  // Without a way to check, trust the lineage (docs/workflows.md): the SDK reports a missing session itself.
  if (typeof rt.hasSession !== 'function') return true;
  try {
    return await rt.hasSession(sessionId);
  } catch (error) {
    // An unreadable store cannot resume anything; starting fresh (with the warning) is the safe side.
    uiErrors.push(`hasSession(${sessionId}): ${errorText(error)}`);
    return false;
  }
}
