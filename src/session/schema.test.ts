import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { SCHEMA_SQL, SchemaMismatchError, missingSchemaParts, prepareWritableDatabase } from './schema.js';
import { openSqlite } from './sqlite-driver.js';
import type { SqliteConnection } from './sqlite-driver.js';

describe('prepareWritableDatabase', () => {
  let directory: string;
  let connection: SqliteConnection;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'flower-schema-'));
    connection = openSqlite(join(directory, 'sessions.db'), { busyTimeoutMs: 4321 });
  });

  afterEach(() => {
    connection.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('sets WAL, synchronous NORMAL and the busy timeout, and creates the schema', () => {
    prepareWritableDatabase(connection);
    expect(connection.pragmaValue('journal_mode')).toBe('wal');
    expect(connection.pragmaValue('synchronous')).toBe(1);
    expect(connection.pragmaValue('busy_timeout')).toBe(4321);
    expect(missingSchemaParts(connection)).toEqual([]);
  });

  test('is harmless to repeat', () => {
    prepareWritableDatabase(connection);
    prepareWritableDatabase(connection);
    expect(missingSchemaParts(connection)).toEqual([]);
  });

  test('refuses a clashing table before creating anything', () => {
    connection.exec('CREATE TABLE meta (store_key TEXT PRIMARY KEY, mtime INTEGER)');
    expect(() => prepareWritableDatabase(connection)).toThrow(SchemaMismatchError);
    expect(missingSchemaParts(connection)).toEqual([
      'table entries',
      'column meta.next_seq',
      'table summaries',
    ]);
  });

  test('holds the reference DDL as one script of four statements', () => {
    expect(SCHEMA_SQL.match(/^CREATE /gm)).toHaveLength(4);
    expect(SCHEMA_SQL.endsWith(');\n')).toBe(true);
  });
});
