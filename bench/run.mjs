// `npm run bench`: every benchmark of the package, one after the other, against the freshly built dist/.
// Each benchmark file also runs alone (`node bench/<name>.mjs`).
import process from 'node:process';

import { runAnalyzeBench } from './analyze.mjs';
import { runCliStartBench } from './cli-start.mjs';
import { runDashboardBench } from './dashboard.mjs';
import { runManifestWritesBench } from './manifest-writes.mjs';
import { runSessionLoadBench } from './session-load.mjs';
import { runSessionStoresBench } from './session-stores.mjs';

const json = process.argv.includes('--json');
await runSessionLoadBench({ json });
await runSessionStoresBench({ json });
await runManifestWritesBench({ json });
await runCliStartBench({ json });
await runAnalyzeBench({ json });
await runDashboardBench({ json });
