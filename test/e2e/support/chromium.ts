/**
 * Debian's Chromium driven by playwright-core for the browser tests: no browser download, the system's
 * `/usr/bin/chromium` (`.ci/run` installs it when missing). A machine without it fails the test with a line
 * that says what to install — a browser test that skips would pass without ever having looked at the page.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** A headless Chromium; close it in `afterEach`. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: install Debian's chromium (apt-get install chromium), as .ci/run does`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Root (CI) cannot use Chromium's user-namespace sandbox; the page is our own, served on 127.0.0.1.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}
