// PostgreSQL against SQLite, in one run on one machine: appending the 20 MB benchmark session
// (transcript-generator.mjs) in the SDK's eager batch sizes and in one batch per transcript, and a resume's
// full load (main transcript + listSubkeys + every subagent transcript) with the layers off and through all
// the layers (expire, trim, prune, journal), alternating the two stores run by run.
//
// The PostgreSQL server is a private one started for the run (test/support/postgres-server.ts) with
// PostgreSQL's durable defaults (fsync and synchronous commit on), on 127.0.0.1: what a server beside the
// runs costs at best; a server across a network adds its round trip to each of an append's four round trips.
// SQLite is the default store as the runtime opens it (WAL, synchronous=NORMAL).
//
// Imports the built package from dist/ (run `npm run build` first, or `npm run bench`).
//
//   node --expose-gc bench/session-stores.mjs            # a table on stdout
//   node --expose-gc bench/session-stores.mjs --json     # the same figures as JSON
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { register } from 'node:module';
import process from 'node:process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const outDirectory = join(here, 'out', 'session-stores');
const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 3;
const PROJECT_KEY = '-work-project';
// The SDK's eager batch sizes, as session-load.mjs uses them (recorded from a real run, repeated).
const EAGER_BATCHES = [
  13, 4, 2, 2, 1, 2, 1, 2, 1, 2, 1, 2, 2, 1, 2, 7, 1, 2, 1, 1, 2, 2, 1, 1, 1, 3, 1, 3, 1,
];

async function importDist() {
  const entry = join(root, 'dist', 'index.js');
  if (!existsSync(entry))
    throw new Error('dist/ is missing: run `npm run build` first (or `npm run bench`).');
  return await import(pathToFileURL(entry).href);
}

function median(values) {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function transcriptsOf(session) {
  return [
    { key: { projectKey: PROJECT_KEY, sessionId: session.sessionId }, entries: session.main },
    ...session.subagents.map((sub) => ({
      key: { projectKey: PROJECT_KEY, sessionId: session.sessionId, subpath: sub.subpath },
      entries: sub.entries,
    })),
  ];
}

/** Appends the whole session, timing only the append calls. */
async function append(store, session, batching) {
  let batches = 0;
  let elapsed = 0;
  for (const { key, entries } of transcriptsOf(session)) {
    let offset = 0;
    while (offset < entries.length) {
      const size = batching === 'one' ? entries.length : EAGER_BATCHES[batches % EAGER_BATCHES.length];
      const batch = entries.slice(offset, offset + size);
      offset += size;
      batches += 1;
      const started = process.hrtime.bigint();
      await store.append(key, batch);
      elapsed += Number(process.hrtime.bigint() - started) / 1e6;
    }
  }
  return { ms: elapsed, batches };
}

/** A resume's load: main, listSubkeys, every subagent, all held until the end. */
async function load(store, sessionId) {
  const main = { projectKey: PROJECT_KEY, sessionId };
  globalThis.gc?.();
  const held = [];
  const started = process.hrtime.bigint();
  held.push(await store.load(main));
  for (const subpath of await store.listSubkeys(main)) held.push(await store.load({ ...main, subpath }));
  await store.spillsWritten?.();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, entries: held.reduce((sum, list) => sum + list.length, 0) };
}

/** Runs the benchmark and returns its figures; prints a table, or JSON with `json`. */
export async function runSessionStoresBench({ json = false } = {}) {
  const dist = await importDist();
  register('../test/fixtures/typescript-hooks.mjs', import.meta.url);
  const { startPostgres } = await import('../test/support/postgres-server.ts');
  const { generateSession } = await import('./transcript-generator.mjs');
  const session = generateSession();
  rmSync(outDirectory, { recursive: true, force: true });
  mkdirSync(outDirectory, { recursive: true });
  const workspace = join(outDirectory, 'workspace');
  const server = await startPostgres({ durable: true });
  const times = { sqlite: {}, postgres: {} };
  const record = (store, name, ms) => (times[store][name] ??= []).push(ms);
  let entries = 0;
  try {
    const database = await server.createDatabase('bench');
    const openers = {
      sqlite: (name, layers) =>
        new dist.PruningSessionStore(join(outDirectory, `${name}.db`), workspace, layers),
      postgres: (name, layers) => {
        const base = new dist.PgSessionStore(database, { schema: name });
        if (layers === BARE) return base;
        const trim = new dist.TrimPolicy();
        const prune = new dist.PrunePolicy();
        return dist.layeredStore(base, [
          dist.expireLayer(new dist.EphemeralPolicy()),
          dist.trimLayer(trim, { workspace, deferSpills: true }),
          dist.pruneLayer(prune),
          dist.journalLayer(prune.orphanText),
        ]);
      },
    };
    for (let run = 0; run < RUNS; run += 1) {
      for (const kind of ['sqlite', 'postgres']) {
        for (const batching of ['eager', 'one']) {
          const name = `${kind === 'sqlite' ? 's' : 'p'}_${batching}_${run}`;
          const store = openers[kind](name, BARE);
          record(kind, `append ${batching}`, (await append(store, session, batching)).ms);
          await store.close();
        }
        const name = `${kind === 'sqlite' ? 's' : 'p'}_one_${run}`;
        for (const [mode, layers] of [
          ['bare', BARE],
          ['layered', LAYERED],
        ]) {
          const store = openers[kind](name, layers);
          // The first layered load writes the spill files; a resume after that is the steady case.
          if (mode === 'layered') await load(store, session.sessionId);
          const loaded = await load(store, session.sessionId);
          entries = loaded.entries;
          record(kind, `load ${mode}`, loaded.ms);
          await store.close();
        }
      }
    }
  } finally {
    await server.stop();
  }
  const medians = Object.fromEntries(
    Object.entries(times).map(([kind, byName]) => [
      kind,
      Object.fromEntries(Object.entries(byName).map(([name, list]) => [name, median(list)])),
    ]),
  );
  const figures = { runs: RUNS, bytes: session.bytes, entries, medians, times };
  if (json) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return figures;
  }
  const labels = {
    'append eager': 'append, SDK eager batches',
    'append one': 'append, one batch per transcript',
    'load bare': 'resume load, layers off',
    'load layered': 'resume load, all layers',
  };
  const rows = Object.entries(labels).map(([name, label]) => {
    const sqlite = medians.sqlite[name];
    const postgres = medians.postgres[name];
    return `  ${label.padEnd(36)}${sqlite.toFixed(0).padStart(8)} ms${postgres.toFixed(0).padStart(9)} ms${(postgres / sqlite).toFixed(2).padStart(8)}×`;
  });
  process.stdout.write(
    [
      `Session stores, the ${(session.bytes / 1024 / 1024).toFixed(1)} MB session (${entries} entries), median of ${RUNS} runs:`,
      `  ${''.padEnd(36)}${'SQLite'.padStart(11)}${'PostgreSQL'.padStart(12)}${'PG/SQLite'.padStart(10)}`,
      ...rows,
      '',
    ].join('\n'),
  );
  return figures;
}

const BARE = { trim: false, ephemeral: false, prune: false };
// All layers, spill files written after load() returns, as the runtime opens its store.
const LAYERED = { deferSpills: true };

const invokedDirectly =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) await runSessionStoresBench({ json: process.argv.includes('--json') });
