import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { FlowerError } from '../errors.js';
import { PgFlowerStore } from '../session/pg-flower-store.js';
import { PruningSessionStore } from '../session/pruning-session-store.js';
import { journalOf, openRunStores, runNameFor, spillsOf, storeKindOf } from './run-stores.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'flower-run-stores-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const PG = 'postgres://alice:pa55word@db.internal:5432/runs?schema=team_a';

describe('openRunStores', () => {
  test('no location: the SQLite default in the run directory, with the journal and the layers', async () => {
    const runDir = join(directory, 'runs');
    const stores = openRunStores({ runDir, workspace: directory, layers: { trim: true } });
    try {
      expect(stores.kind).toBe('sqlite');
      expect(stores.location).toBe(join(runDir, 'sessions.db'));
      expect(stores.server).toBeNull();
      expect(stores.sessions).toBeInstanceOf(PruningSessionStore);
      expect((stores.sessions as PruningSessionStore).trimPolicy.enabled).toBe(true);
      expect(journalOf(stores.sessions)).not.toBeNull();
      expect(spillsOf(stores.sessions)).not.toBeNull();
      expect(existsSync(join(runDir, 'sessions.db'))).toBe(true);
      await stores.ready();
    } finally {
      await stores.close();
    }
    // The path of that same file is the same choice.
    const again = openRunStores({ runDir, workspace: directory, location: join(runDir, 'sessions.db') });
    expect(again.kind).toBe('sqlite');
    await again.close();
  });

  test('a postgres:// location: the server store, connected lazily, its password never in what it shows', async () => {
    const stores = openRunStores({ runDir: join(directory, 'runs'), workspace: directory, location: PG });
    try {
      expect(stores.kind).toBe('postgres');
      expect(stores.sessions).toBeInstanceOf(PgFlowerStore);
      expect(stores.location).toBe('postgres://alice:***@db.internal:5432/runs?schema=team_a');
      expect(stores.server).toEqual({
        location: PG,
        schema: 'team_a',
        run: basename(directory),
        named: false,
      });
      expect(journalOf(stores.sessions)).toBe((stores.sessions as PgFlowerStore).toolJournal);
      // Nothing is written for a server store: no run directory, no file.
      expect(existsSync(join(directory, 'runs'))).toBe(false);
    } finally {
      await stores.close();
    }
  });

  test('anything else is a usage error that never shows the password', () => {
    const runDir = join(directory, 'runs');
    for (const location of [
      'elsewhere.db',
      'postgres://alice:pa55word@/runs',
      'postgres://h/db?schema=Bad-Name',
    ]) {
      let failure: unknown = null;
      try {
        openRunStores({ runDir, workspace: directory, location });
      } catch (error) {
        failure = error;
      }
      expect(failure, location).toBeInstanceOf(FlowerError);
      expect((failure as FlowerError).code).toBe('USAGE');
      expect((failure as Error).message).not.toContain('pa55word');
      expect(() => storeKindOf(location, runDir)).toThrow(FlowerError);
    }
    expect(existsSync(runDir)).toBe(false);
    expect(storeKindOf('', runDir)).toBe('sqlite');
    expect(storeKindOf(PG, runDir)).toBe('postgres');
  });
});

describe('runNameFor', () => {
  test('?run= in the location, else FLOWER_RUN, else the workspace folder', () => {
    expect(runNameFor(`${PG}&run=nightly`, '/w/project', { FLOWER_RUN: 'other' })).toBe('nightly');
    expect(runNameFor(PG, '/w/project', { FLOWER_RUN: ' shared ' })).toBe('shared');
    expect(runNameFor(PG, '/w/project/', {})).toBe('project');
    expect(runNameFor(null, '/w/project', {})).toBe('project');
  });

  test('a server run is named when ?run= or FLOWER_RUN gave its name, not when the folder did', () => {
    const named = (location: string, env: Record<string, string>): boolean | undefined => {
      const stores = openRunStores({ runDir: join(directory, 'runs'), workspace: directory, location, env });
      void stores.close();
      return stores.server?.named;
    };
    expect(named(`${PG}&run=nightly`, {})).toBe(true);
    expect(named(PG, { FLOWER_RUN: 'shared' })).toBe(true);
    expect(named(PG, { FLOWER_RUN: ' ' })).toBe(false);
    expect(named(PG, {})).toBe(false);
  });
});
