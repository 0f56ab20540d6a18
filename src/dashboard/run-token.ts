/**
 * The dashboard's per-run token (docs/dashboard.md): reading the page is open to anyone who can reach
 * 127.0.0.1, but answering a question or asking the oracle (which spends money) needs the token printed with
 * the URL. It rides in the URL's fragment (`#token=…`), which browsers never send to a server or put in a
 * Referer, and the page sends it back in an `Authorization: Bearer` header.
 *
 * One token per run, kept in `<runDir>/dashboard-token` (mode 0600): every dashboard started on the run —
 * `go --dashboard`, or `flower dashboard` in another terminal, stopped and started again — prints the same
 * URL, so an open tab keeps working. Whoever can read that file can already write the run's answer file.
 *
 * @module
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The token's file in the run directory, owner-only. */
export const TOKEN_FILE = 'dashboard-token';

/** A new token: 24 random bytes, URL-safe base64 (32 characters). */
export function newRunToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Whether `given` is `expected`. Both are hashed first so the comparison takes the same time whatever the
 * lengths, and a wrong guess says nothing about how close it was.
 */
export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (given === null || given === undefined || given === '') return false;
  const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(given));
}

/** The token in an `Authorization: Bearer <token>` header value, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match === null ? null : match[1]!;
}

/** The run's token: read from `<runDir>/dashboard-token`, or made and written there the first time. */
export function runToken(runDir: string): string {
  const path = join(runDir, TOKEN_FILE);
  try {
    const kept = readFileSync(path, 'utf8').trim();
    if (/^[\w-]{32,}$/.test(kept)) return kept;
  } catch {
    // No token yet: made below.
  }
  const token = newRunToken();
  mkdirSync(runDir, { recursive: true });
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  return token;
}
