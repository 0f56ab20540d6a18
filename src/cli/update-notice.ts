/**
 * The update notice: at the start of a run, one line when the registry has named a newer `flower-agent`,
 * and — at most once a day — a check of the registry in a detached child process that records what it found
 * for the next run. flower never installs anything itself. Nothing here may delay or fail the run: the check
 * runs in its own process with its output discarded, and every error is swallowed.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FlowerConfig } from '../config/load-config.js';
import { isNewerVersion } from '../config/newer-version.js';
import { latestVersionUrl, npmRegistry } from '../config/npm-registry.js';
import { isNpxCache, isSourceCheckout, PACKAGE_NAME, PACKAGE_ROOT, VERSION } from '../config/package-info.js';
import { uiText } from '../config/ui-text.js';
import { readUpdateState, updateStateFile } from '../config/update-state.js';

/** The registry is asked again once the last answer is this old. */
export const CHECK_INTERVAL_SECONDS = 24 * 60 * 60;

/** What the background check needs: where to ask and where to write the answer. */
export interface UpdateCheckRequest {
  /** `<registry>/flower-agent/latest`. */
  url: string;
  /** `CFG/.update-node.json`. */
  stateFile: string;
}

/** Options of {@link updateNotice}. */
export interface UpdateNoticeOptions {
  config: FlowerConfig;
  /** Clock in milliseconds; `Date.now` when absent. */
  now?: () => number;
  /** The package root (source checkout or npx cache → no check); the installed package's when absent. */
  packageRoot?: string;
  /** The running version; the installed package's when absent. */
  version?: string;
  /** Starts the background check; a detached `node update-check-worker.js` when absent. */
  launch?: (request: UpdateCheckRequest) => void;
}

/** The command the notice suggests: npm is how flower is published and installed. */
export const UPDATE_COMMAND = `npm install -g ${PACKAGE_NAME}@latest`;

/**
 * Reads what the last check found and starts a new check when that is a day old (or missing). Resolves to
 * the notice line when a newer version is known, else `null`. Off with `FLOWER_NO_UPDATE`, in a source
 * checkout (updated with git, not npm) and in npx's cache.
 */
export function updateNotice(options: UpdateNoticeOptions): string | null {
  const { config } = options;
  const root = options.packageRoot ?? PACKAGE_ROOT;
  if (config.noUpdate || isSourceCheckout(root) || isNpxCache(root)) return null;
  const version = options.version ?? VERSION;
  const stateFile = updateStateFile(config.configDir);
  const state = readUpdateState(stateFile);
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  // A check time in the future means the clock was set back; ask again rather than wait for it.
  const stale =
    state === null || nowSeconds - state.checked >= CHECK_INTERVAL_SECONDS || state.checked > nowSeconds;
  if (stale) {
    const request = { url: latestVersionUrl(npmRegistry(config.env), PACKAGE_NAME), stateFile };
    try {
      (options.launch ?? launchWorker)(request);
    } catch {
      // The check is a courtesy: a machine that cannot start it runs exactly as before.
    }
  }
  if (state === null || !isNewerVersion(state.latest, version)) return null;
  return uiText(
    'upd.notice',
    { latest: state.latest, current: version, command: UPDATE_COMMAND },
    config.lang,
  );
}

/** Starts the check in its own detached process, output discarded, not waited for. */
function launchWorker(request: UpdateCheckRequest): void {
  // The bundled CLI's chunks sit in dist/cli/ beside tsc's update-check-worker.js, so this path holds for both.
  const worker = fileURLToPath(new URL('./update-check-worker.js', import.meta.url));
  const child = spawn(process.execPath, [worker, request.url, request.stateFile], {
    detached: true,
    stdio: 'ignore',
    windowsHide: true,
  });
  child.on('error', () => {
    // A failed spawn is reported asynchronously; the run must not hear of it.
  });
  child.unref();
}
