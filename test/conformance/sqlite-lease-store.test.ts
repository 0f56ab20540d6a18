import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll } from 'vitest';

import { leaseStoreFor } from '../../src/runtime/lease-store-for.js';
import { runLeaseStoreSuite } from '../support/lease-store-conformance.js';

const root = mkdtempSync(join(tmpdir(), 'flower-lease-conformance-'));
let runDir = root;
let count = 0;

afterAll(() => rmSync(root, { recursive: true, force: true }));

// A fresh run directory per test; every store opened in a test is its own connection to its sessions.db.
runLeaseStoreSuite('SqliteLeaseStore', {
  fresh: () => {
    count += 1;
    runDir = mkdtempSync(join(root, `run-${count}-`));
  },
  open: () => leaseStoreFor(runDir, null),
});
