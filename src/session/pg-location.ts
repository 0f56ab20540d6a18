/**
 * A PostgreSQL store location (`postgres://user:secret@host:5432/db?schema=flower`): parsing it, and the one
 * spelling of it that may be shown or recorded, with every credential taken out.
 *
 * @module
 */
import { FlowerError } from '../errors.js';
import { DEFAULT_PG_SCHEMA, isValidSchemaName } from './pg-schema.js';

/** A parsed store location. */
export interface PgLocation {
  /** What the driver connects with: the location without flower's own `schema` and `run` parameters. Secret. */
  readonly connectionString: string;
  /** The schema the tables live in (`?schema=`, default `flower`). */
  readonly schema: string;
  /** The location with password and secret parameters replaced by `***`: safe to print and store. */
  readonly redacted: string;
}

/** Query parameters the driver reads that may hold a secret or a path to one. */
const SECRET_PARAMETERS = ['password', 'sslpassword', 'sslkey', 'sslcert', 'sslrootcert'];

/** True when `value` names a PostgreSQL server rather than a file (`postgres://` or `postgresql://`). */
export function isPgLocation(value: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(value);
}

/**
 * `location` with its password and every secret query parameter replaced by `***`. Never throws: text that
 * does not parse as a URL comes back with everything between `://` and the last `@` replaced, so a
 * malformed location still never shows its password.
 */
export function redactPgLocation(location: string): string {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return location.replace(/^([a-z]+:\/\/)[^/]*@/i, '$1***@');
  }
  if (url.password !== '') url.password = '***';
  for (const name of SECRET_PARAMETERS) if (url.searchParams.has(name)) url.searchParams.set(name, '***');
  // URLSearchParams encodes `*` as-is, so the redacted text reads back plainly.
  return url.toString();
}

/**
 * Parses `location`.
 *
 * @throws FlowerError (`USAGE`) naming the redacted location when it is not a `postgres://` URL or its
 *   `schema` parameter is not a plain lower-case name.
 */
export function parsePgLocation(location: string): PgLocation {
  const redacted = redactPgLocation(location);
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    url = new URL('invalid://');
  }
  if (!isPgLocation(location) || url.hostname === '') {
    throw new FlowerError(
      'USAGE',
      `The store location ${redacted} is not a PostgreSQL URL: write postgres://user:password@host:5432/database.`,
    );
  }
  const schema = url.searchParams.get('schema') ?? DEFAULT_PG_SCHEMA;
  if (!isValidSchemaName(schema)) {
    throw new FlowerError(
      'USAGE',
      `The store location ${redacted} names the schema ${JSON.stringify(schema)}: use lower-case letters, ` +
        'digits and _ (at most 63), starting with a letter or _.',
    );
  }
  url.searchParams.delete('schema');
  // flower's own too (the run's name in a shared server, see runNameFor): the driver must not see it.
  url.searchParams.delete('run');
  return { connectionString: url.toString(), schema, redacted };
}
