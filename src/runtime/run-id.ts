/**
 * The manifest's `run` marker: one per `Runtime` instance, the key that merges concurrent writers' rows.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';

/**
 * A new run id, `YYYYmmdd-HHMMSS-<6 hex>` in local time. The random suffix matters: ids with one-second
 * resolution collided in the reference and one writer deleted the other's rows.
 */
export function newRunId(now: Date = new Date()): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  const date = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${date}-${time}-${randomBytes(3).toString('hex')}`;
}
