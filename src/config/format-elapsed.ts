/**
 * Elapsed time as people read it on a clock. Beside the UI catalog rather than in `src/render/`, because the
 * runtime's own network-wait line shows it too, and the runtime sits below the renderer.
 *
 * @module
 */

/** Elapsed time as `m:ss`, or `h:mm:ss` from one hour. */
export function formatElapsed(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** `17:00`: the local clock time of `epochS` (when a usage limit resets). */
export function clockTime(epochS: number): string {
  const date = new Date(epochS * 1000);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}
