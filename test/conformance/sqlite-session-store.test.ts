import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll } from 'vitest';

import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import { runSessionStoreSuite } from '../../src/testing/index.js';

const root = mkdtempSync(join(tmpdir(), 'flower-conformance-sqlite-'));
let count = 0;

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

// A fresh file per test, in a folder that does not exist yet (the store creates it).
runSessionStoreSuite('SqliteSessionStore', () => {
  count += 1;
  return new SqliteSessionStore(join(root, `run-${count}`, 'sessions.db'));
});
