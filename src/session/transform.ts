/**
 * The shape every load-pipeline transform returns.
 *
 * @module
 */
import type { Entry } from './entry-content.js';
import type { LoadReport } from './load-report.js';

/** A rewritten copy of the entries and the counters the transform contributes to the load report. */
export type Transform = {
  entries: Entry[];
  report: Partial<LoadReport>;
};
