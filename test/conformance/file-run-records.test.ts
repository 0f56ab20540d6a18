// The run records' conformance suite against the files in a run directory (manifest.json, lineage.json).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

import { FileRunRecords } from '../../src/runtime/file-run-records.js';
import { runRecordsSuite } from '../support/run-records-suite.js';

const root = mkdtempSync(join(tmpdir(), 'flower-run-records-'));

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

runRecordsSuite('File', { open: (scope) => new FileRunRecords(join(root, scope)) });
