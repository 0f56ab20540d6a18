/**
 * What the load pipeline (expire, trim, prune, heal) did to one transcript on its way back to the model.
 *
 * @module
 */
import type { LoadReport } from '../events/load-report.js';

// Defined with the events, whose `trim` event carries it to the renderer; named here for the session code.
export type { LoadReport };

/** A report with every count at zero. */
export function emptyLoadReport(): LoadReport {
  return {
    expired: 0,
    cleared: 0,
    kept: 0,
    charsSaved: 0,
    pruned: 0,
    denialsDropped: 0,
    healed: 0,
    errors: [],
  };
}
