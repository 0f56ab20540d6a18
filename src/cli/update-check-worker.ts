/**
 * The background half of the update check, run as `node update-check-worker.js <url> <state file>` in a
 * detached process by the update notice: asks the registry for the `latest` document and records its
 * version with the time. Any failure (no network, a slow or odd registry) ends it silently without writing,
 * so the next run asks again.
 *
 * @module
 */
import { writeUpdateState } from '../config/update-state.js';

/** How long the registry may take to answer. */
export const CHECK_TIMEOUT_MS = 6_000;

const [url, stateFile] = process.argv.slice(2);

async function check(): Promise<void> {
  if (url === undefined || stateFile === undefined) return;
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
  });
  if (!response.ok) return;
  const document: unknown = await response.json();
  if (typeof document !== 'object' || document === null) return;
  const version = (document as { version?: unknown }).version;
  if (typeof version !== 'string' || version.length > 64) return;
  writeUpdateState(stateFile, { checked: Math.floor(Date.now() / 1000), latest: version });
}

try {
  await check();
} catch {
  // Silent by design: nobody is listening, and the run that started this has moved on.
}
