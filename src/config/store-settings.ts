/**
 * Where a run keeps its transcripts (docs/configuration.md, `FLOWER_STORE`) and the run's name in a shared
 * server (`FLOWER_RUN`).
 *
 * @module
 */

/** What {@link storeSetting} and {@link runSetting} read. */
export type StoreEnv = Readonly<Record<string, string | undefined>>;

/**
 * `FLOWER_STORE`, trimmed, or null when unset or empty (the SQLite default, `<runDir>/sessions.db`). The
 * value may hold a password: it is only ever shown through `redactPgLocation`.
 */
export function storeSetting(env: StoreEnv): string | null {
  const value = (env['FLOWER_STORE'] ?? '').trim();
  return value === '' ? null : value;
}

/** `FLOWER_RUN`, trimmed, or null when unset or empty. */
export function runSetting(env: StoreEnv): string | null {
  const value = (env['FLOWER_RUN'] ?? '').trim();
  return value === '' ? null : value;
}
