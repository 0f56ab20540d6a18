/**
 * The runtime's completion of the manifest rows killed processes left unfinished, before a step runs: the
 * rows of the session it resumes (docs/decisions.md D336), and once per runtime the rows of sessions no live
 * process holds, such as a killed judge's, which nobody resumes (docs/decisions.md D337). The rows are
 * priced from the store and from Claude Code's own transcript files (`abandoned-rows.ts`).
 *
 * @module
 */
import { join } from 'node:path';
import { errorText } from '../internal/error-text.js';
import type { FlowerSessionStore } from '../session/flower-session-store.js';
import { completeAbandonedRows, deadSessions } from './abandoned-rows.js';
import { localTranscripts } from './local-transcripts.js';
import type { PriceTable } from './price-table.js';
import type { RunProcesses } from './run-processes.js';
import type { RunRecords } from './run-records.js';
import { sessionEntries, sessionTranscripts } from './session-entries.js';

/** What a {@link RowCompletion} reads and where it reports. */
export interface RowCompletionSources {
  runDir: string;
  runId: string;
  records: RunRecords;
  store: FlowerSessionStore;
  projectKey: string;
  prices: PriceTable;
  /** Which sessions live processes hold: their rows are not dead. */
  processes: RunProcesses;
  /** A completion that fails is recorded here and the step goes on: it only corrects figures. */
  uiErrors: string[];
}

/** Completes what killed processes left unfinished; one per runtime. */
export class RowCompletion {
  readonly #sources: RowCompletionSources;
  /** The dead sessions' rows were completed: once per runtime, before its first step. */
  #deadDone = false;

  constructor(sources: RowCompletionSources) {
    this.#sources = sources;
  }

  /**
   * Before a step: the rows of `resume` (the session it resumes, if any), then, the first time, the rows of
   * every session whose process is gone. The caller has just dropped the dead processes' records.
   */
  async beforeStep(resume: string | null | undefined): Promise<void> {
    if (resume) await this.#complete(resume);
    if (this.#deadDone) return;
    this.#deadDone = true;
    const { records, runId, processes, uiErrors } = this.#sources;
    try {
      for (const sessionId of deadSessions(await records.readRows(), runId, processes.liveSessions())) {
        await this.#complete(sessionId);
      }
    } catch (error) {
      uiErrors.push(`manifest completion: ${errorText(error)}`);
    }
  }

  async #complete(sessionId: string): Promise<void> {
    const { runDir, records, runId, store, projectKey, prices, uiErrors } = this.#sources;
    try {
      await completeAbandonedRows({
        runDir,
        records,
        runId,
        sessionId,
        loadEntries: () => sessionEntries(store, projectKey, sessionId),
        loadTranscripts: (id = sessionId) => sessionTranscripts(store, projectKey, id),
        loadLocal: (id = sessionId) => localTranscripts(join(runDir, 'claude'), projectKey, id),
        now: Date.now() / 1000,
        prices,
      });
    } catch (error) {
      uiErrors.push(`manifest completion: ${errorText(error)}`);
    }
  }
}
