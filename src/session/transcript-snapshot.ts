/**
 * The seam `flower export` takes a run's transcripts through (docs/scaling.md).
 *
 * @module
 */

/**
 * A session store that can write a consistent copy of everything it holds into a new SQLite file with the
 * reference schema (`entries`, `meta`, `summaries`). The SQLite store does it with SQLite's online backup;
 * a server-backed store writes the run's rows into such a file, so an archive always carries the same
 * portable `sessions.db` whichever store the run used.
 */
export interface TranscriptSnapshotSource {
  /** Writes the copy to `destination`, which must not exist yet. */
  snapshotTo(destination: string): Promise<void>;
}
