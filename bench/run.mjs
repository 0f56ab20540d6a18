// `npm run bench`: every benchmark of the package, one after the other, against the freshly built dist/.
// Each benchmark file also runs alone (`node bench/<name>.mjs`).
import process from 'node:process';

import { runSessionLoadBench } from './session-load.mjs';

await runSessionLoadBench({ json: process.argv.includes('--json') });
