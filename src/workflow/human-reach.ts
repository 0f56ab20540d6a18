/**
 * Whether a framework question can reach a person at all. A channel with `timeoutS <= 0` settles every
 * question as a timeout at once (unattended runs); asking there only adds noise to the Q&A log.
 *
 * @module
 */
import type { HumanChannel } from '../human/human-channel.js';

/** True when `channel` exists and its questions wait for an answer (`timeoutS` null or positive). */
export function canReachHuman(channel: HumanChannel | null | undefined): channel is HumanChannel {
  if (channel === null || channel === undefined) return false;
  return channel.timeoutS === null || channel.timeoutS > 0;
}
