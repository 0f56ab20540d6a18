/**
 * The one module that loads `pg` (node-postgres). It is loaded on the first connection, not on import: the
 * package's entry point exports `PgSessionStore`, and every SQLite-only user (the default) would otherwise
 * pay for loading the driver.
 *
 * @module
 */
import type pg from 'pg';

/** The driver's module. */
export type PgModule = typeof pg;

let loading: Promise<PgModule> | null = null;

/** The `pg` module, loaded once. */
export async function loadPg(): Promise<PgModule> {
  loading ??= import('pg').then((module) => module.default);
  return await loading;
}

/**
 * `name` as a quoted SQL identifier. Only for names {@link isValidSchemaName} accepted (lower-case letters,
 * digits, `_`), which contain no quote to double, so this needs no driver at construction time.
 */
export function quotedName(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new TypeError(`Not a plain SQL name: ${JSON.stringify(name)}`);
  return `"${name}"`;
}
