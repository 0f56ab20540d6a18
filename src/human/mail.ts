/**
 * A message a human sends a running agent unasked, queued for the `inbox` tool.
 *
 * @module
 */

/** One message a human sent without being asked. */
export interface Mail {
  /** `m<n>`. */
  id: string;
  text: string;
  /** Epoch seconds. */
  sentAt: number;
  /** Delivered through the inbox tool. */
  taken: boolean;
}
