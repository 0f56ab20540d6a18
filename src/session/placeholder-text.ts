/**
 * The texts the load pipeline writes into the copy of a transcript that goes back to the model. `{name}`
 * marks a slot filled at use. The user-visible load report lives in the UI catalog (`trim.report.*`).
 *
 * @module
 */

// Not in the UI catalog (decisions.md D28): the model reads these, not the user, and they stay English
// (decisions.md D1).
/** Placeholder texts the transforms substitute for tool-result content. */
export const PLACEHOLDER_TEXT = {
  /** Trim: an old large result moved to a spill file. Slots: `{n}` characters, `{path}` absolute path. */
  trimmed: '[Tool result archived: {n} characters. The full text is in {path}; Read it if you need it.]',
  /**
   * Expire: a stale ephemeral command result. Slots: `{cmd}` the backtick-wrapped first line of the command,
   * `{age}` how many model turns ago it ran.
   */
  expired:
    '[Output of {cmd} from {age} turns ago has expired; the state may have changed. Run it again if you need it.]',
  /** Prune: a tool result that was cut off by an interrupt. */
  interrupted: '[The previous turn was interrupted here; this tool produced no result.]',
  /** healOrphans: the synthetic answer to a tool call that never got a result. */
  orphan: '[This step was interrupted and has no result. Redo it if needed.]',
  /**
   * Journal recovery: a call the gate let through whose result (or whole call) was lost when flower stopped.
   * It may have run, so redoing it blindly could repeat its effect.
   */
  journalled:
    '[This call was started before flower stopped and may have completed; its result was lost. Check its effect before running it again.]',
} as const;
