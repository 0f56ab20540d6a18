/**
 * The run lease's settings (docs/scaling.md): who this host is, and how long a holder that stopped
 * renewing its lease still counts as alive.
 *
 * @module
 */
import { hostname } from 'node:os';

/** What {@link leaseSettings} reads. */
export type LeaseEnv = Readonly<Record<string, string | undefined>>;

/** The lease's timing and this process's host name. */
export interface LeaseSettings {
  /** `FLOWER_HOST`, else the machine's host name: two processes with different names are two hosts. */
  host: string;
  /** `FLOWER_LEASE_STALE` seconds (default 60): a lease not renewed for this long may be taken over. */
  staleS: number;
  /** How often the holder renews: every 10 s, or a third of the stale time when that is shorter. */
  heartbeatS: number;
}

/** The stale time when `FLOWER_LEASE_STALE` is unset or not a positive number. */
export const DEFAULT_LEASE_STALE_S = 60;
/** The longest time between two renewals. */
export const MAX_HEARTBEAT_S = 10;

/** The settings from `env` (the configuration's environment). */
export function leaseSettings(env: LeaseEnv): LeaseSettings {
  const given = Number(env['FLOWER_LEASE_STALE']);
  const staleS = Number.isFinite(given) && given > 0 ? given : DEFAULT_LEASE_STALE_S;
  const host = (env['FLOWER_HOST'] ?? '').trim() || hostname();
  // Three renewals fit in the stale time, so one late or failed renewal never lets the lease go.
  return { host, staleS, heartbeatS: Math.min(MAX_HEARTBEAT_S, staleS / 3) };
}
