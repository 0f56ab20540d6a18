import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { isFlowerError } from '../errors.js';
import { isUnreadableDatabaseError, openSqlite } from './sqlite-driver.js';

describe('openSqlite', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'flower-sqlite-driver-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  test('says how to fix a native module that does not load', () => {
    let caught: unknown;
    try {
      openSqlite(join(directory, 'sessions.db'), {
        nativeBinding: join(directory, 'missing', 'better_sqlite3.node'),
      });
    } catch (error) {
      caught = error;
    }
    expect(isFlowerError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/could not load its native module.*npm rebuild better-sqlite3/);
  });

  test('runs an immediate transaction and rolls it back when the work throws', () => {
    const connection = openSqlite(join(directory, 'a.db'));
    try {
      connection.exec('CREATE TABLE t (v INTEGER)');
      expect(() =>
        connection.immediate(() => {
          connection.prepare('INSERT INTO t VALUES (?)').run(1);
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(connection.immediate(() => connection.prepare('INSERT INTO t VALUES (?)').run(2).changes)).toBe(
        1,
      );
      expect(connection.prepare('SELECT v FROM t').all()).toEqual([{ v: 2 }]);
    } finally {
      connection.close();
      connection.close();
    }
  });

  test('iterates rows one at a time, in order', () => {
    const connection = openSqlite(join(directory, 'c.db'));
    try {
      connection.exec('CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (3), (1), (2)');
      const seen: unknown[] = [];
      for (const row of connection.prepare('SELECT v FROM t ORDER BY v').iterate()) seen.push(row);
      expect(seen).toEqual([{ v: 1 }, { v: 2 }, { v: 3 }]);
    } finally {
      connection.close();
    }
  });

  test('opens read-only connections that cannot write', () => {
    const path = join(directory, 'b.db');
    openSqlite(path).close();
    const connection = openSqlite(path, { readonly: true });
    try {
      expect(connection.readonly).toBe(true);
      expect(() => connection.exec('CREATE TABLE t (v INTEGER)')).toThrow(/readonly/);
    } finally {
      connection.close();
    }
  });
});

describe('isUnreadableDatabaseError', () => {
  test('recognises damaged-file codes only', () => {
    expect(isUnreadableDatabaseError(Object.assign(new Error('x'), { code: 'SQLITE_NOTADB' }))).toBe(true);
    expect(isUnreadableDatabaseError(Object.assign(new Error('x'), { code: 'SQLITE_CORRUPT' }))).toBe(true);
    expect(isUnreadableDatabaseError(Object.assign(new Error('x'), { code: 'SQLITE_BUSY' }))).toBe(false);
    expect(isUnreadableDatabaseError(null)).toBe(false);
  });
});
