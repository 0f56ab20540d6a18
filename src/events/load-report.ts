/**
 * What the load pipeline of `src/session/` (expire, trim, prune, heal) did to one transcript on its way back to
 * the model. The type lives with the events because the `trim` event carries it to the renderer; the
 * session store fills it in.
 *
 * @module
 */

/** Counts from one `load()` through the session-store layers. */
export interface LoadReport {
  /** Stale ephemeral Bash results replaced by a placeholder. */
  expired: number;
  /** Old large tool results spilled to a file and replaced by a pointer. */
  cleared: number;
  /** Large results kept because they are recent. */
  kept: number;
  /** Characters the model no longer has to read. */
  charsSaved: number;
  /** Synthetic API-error entries removed. */
  pruned: number;
  /** Old denied tool calls removed. */
  denialsDropped: number;
  /** Orphaned tool_use blocks answered with a synthetic tool_result. */
  healed: number;
  /** Problems met while transforming (a spill file that could not be written, …). */
  errors: string[];
}
