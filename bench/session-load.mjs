// Session-store benchmark: append throughput in the SDK's eager batch sizes and in one batch per transcript,
// and a resume's full load() (main transcript + listSubkeys + every subagent transcript) through all three
// rewriting layers, and through all but trim, against the same load with the layers off, measured in the
// same run; and the first trimmed load (it writes the spill files) against a steady one. Loads two ways,
// both alternating layers off / on:
// - as a resume does it: one load in a fresh process (cold JIT, empty heap), RUNS times each; this also gives
//   the peak RSS of a load;
// - warm: RUNS loads of each in one long-lived process, garbage collected before each load.
// Imports the built package from dist/ (run `npm run build` first, or `npm run bench`).
//
//   node bench/session-load.mjs            # the whole benchmark, a table on stdout
//   node bench/session-load.mjs --json     # the same figures as JSON
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import process from 'node:process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const outDirectory = join(here, 'out');
// `--runs N` for more samples on a busy machine.
const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;
const PROJECT_KEY = '-work-project';

// Batch sizes of a real eager-flush session (sdk-feasibility.md §4: one append per frame, 1–14 entries),
// taken in this order from a recorded Claude Code 2.1.334 run and repeated.
const EAGER_BATCHES = [
  13, 4, 2, 2, 1, 2, 1, 2, 1, 2, 1, 2, 2, 1, 2, 7, 1, 2, 1, 1, 2, 2, 1, 1, 1, 3, 1, 3, 1,
];

async function importDist() {
  const entry = join(root, 'dist', 'session', 'pruning-session-store.js');
  if (!existsSync(entry))
    throw new Error('dist/ is missing: run `npm run build` first (or `npm run bench`).');
  const { PruningSessionStore } = await import(pathToFileURL(entry).href);
  return { PruningSessionStore };
}

function median(values) {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Child: append the generated session into a fresh database, timing only the append calls. `eager`: in the
 * SDK's eager batch sizes; `one`: each transcript in one batch (a bulk import).
 */
async function childAppend(database, batching = 'eager') {
  const { PruningSessionStore } = await importDist();
  const { generateSession } = await import('./transcript-generator.mjs');
  const session = generateSession();
  rmSync(database, { force: true });
  rmSync(`${database}-wal`, { force: true });
  rmSync(`${database}-shm`, { force: true });
  const store = new PruningSessionStore(database, join(outDirectory, 'workspace'));
  const transcripts = [
    { key: { projectKey: PROJECT_KEY, sessionId: session.sessionId }, entries: session.main },
    ...session.subagents.map((sub) => ({
      key: { projectKey: PROJECT_KEY, sessionId: session.sessionId, subpath: sub.subpath },
      entries: sub.entries,
    })),
  ];
  let batches = 0;
  let elapsed = 0;
  for (const { key, entries } of transcripts) {
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
  store.close();
  return {
    entries: session.entries,
    bytes: session.bytes,
    mainEntries: session.main.length,
    subagents: session.subagents.length,
    batches,
    ms: elapsed,
    sessionId: session.sessionId,
  };
}

/**
 * A resume's load as the SDK does it: the main transcript, listSubkeys, every subagent transcript. The
 * loaded arrays are held until the end, as the SDK holds each while it writes it to a temp file: dropping
 * them at once would let the garbage collector skip work a real resume pays for.
 */
async function loadSession(store, sessionId) {
  const main = { projectKey: PROJECT_KEY, sessionId };
  const held = [];
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  held.push(await store.load(main));
  for (const subpath of await store.listSubkeys(main)) held.push(await store.load({ ...main, subpath }));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  // CPU time (all threads of the process) as well as wall time: on a machine other jobs keep busy, wall
  // time mostly measures the wait for a core, CPU time the work the load itself did.
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const entries = held.reduce((sum, list) => sum + list.length, 0);
  return { ms, cpuMs, entries, report: store.reportFor(main) };
}

/** The layers of each mode: all off (the baseline), all on, all but trim. */
const LAYERS = {
  bare: { trim: false, ephemeral: false, prune: false },
  layered: {},
  untrimmed: { trim: false },
};

function openStore(PruningSessionStore, database, mode) {
  const layers = LAYERS[mode];
  return new PruningSessionStore(database, join(outDirectory, 'workspace'), layers);
}

/**
 * Child: `RUNS` loads with the layers off and `RUNS` with all layers, alternating in one long-lived process
 * (warm JIT), with a garbage collection before each so no load pays for another's garbage.
 */
async function childWarm(database, sessionId) {
  const { PruningSessionStore } = await importDist();
  const stores = {
    bare: openStore(PruningSessionStore, database, 'bare'),
    layered: openStore(PruningSessionStore, database, 'layered'),
  };
  const times = { bare: [], layered: [] };
  let report = null;
  for (let run = 0; run < RUNS; run += 1) {
    for (const mode of ['bare', 'layered']) {
      // Collect the previous load's garbage first, so no run pays for another's.
      globalThis.gc?.();
      const loaded = await loadSession(stores[mode], sessionId);
      times[mode].push(loaded.ms);
      if (mode === 'layered' && run === 0) report = loaded.report;
    }
  }
  stores.bare.close();
  stores.layered.close();
  return { times, report };
}

/** Child: one load in a fresh process, as a resume does: its time and the peak RSS of the process. */
async function childResume(database, sessionId, mode) {
  const { PruningSessionStore } = await importDist();
  const store = openStore(PruningSessionStore, database, mode);
  const rssBefore = process.memoryUsage().rss;
  const loaded = await loadSession(store, sessionId);
  store.close();
  return {
    mode,
    ms: loaded.ms,
    cpuMs: loaded.cpuMs,
    rssBefore,
    peakRss: process.resourceUsage().maxRSS * 1024,
    entries: loaded.entries,
    report: loaded.report,
  };
}

function runChild(args) {
  const output = execFileSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), '--child', ...args, '--runs', String(RUNS)],
    {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(output);
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const count = (value) => Math.round(value).toLocaleString('en-US');
const pass = (ok) => (ok ? 'ok  ' : 'MISS');

/** Runs the whole benchmark and returns its figures; prints a table, or JSON with `json`. */
export async function runSessionLoadBench({ json = false } = {}) {
  mkdirSync(outDirectory, { recursive: true });
  rmSync(join(outDirectory, 'workspace'), { recursive: true, force: true });
  mkdirSync(join(outDirectory, 'workspace'), { recursive: true });
  const loadAverage = os.loadavg()[0];
  const database = join(outDirectory, 'bench-sessions.db');
  const oneBatch = runChild(['append', join(outDirectory, 'bench-one-batch.db'), 'one']);
  const append = runChild(['append', database, 'eager']);
  const spillDirectory = join(outDirectory, 'workspace', '.flower', 'spill');
  // First trimmed loads (no spill file yet) against steady ones (every file there), in pairs.
  const spilling = { first: [], steady: [] };
  for (let run = 0; run < RUNS; run += 1) {
    rmSync(spillDirectory, { recursive: true, force: true });
    spilling.first.push(runChild(['resume', database, append.sessionId, 'layered']));
    spilling.steady.push(runChild(['resume', database, append.sessionId, 'layered']));
  }
  const resumes = { bare: [], layered: [], untrimmed: [] };
  for (let run = 0; run < RUNS; run += 1) {
    for (const mode of ['bare', 'layered', 'untrimmed'])
      resumes[mode].push(runChild(['resume', database, append.sessionId, mode]));
  }
  const summary = (list) => ({
    times: list.map((item) => item.ms),
    median: median(list.map((item) => item.ms)),
    cpuMedian: median(list.map((item) => item.cpuMs)),
    peakRss: Math.max(...list.map((item) => item.peakRss)),
    rssBefore: median(list.map((item) => item.rssBefore)),
  });
  const bare = summary(resumes.bare);
  const layered = { ...summary(resumes.layered), report: resumes.layered[0].report };
  const untrimmed = summary(resumes.untrimmed);
  const firstTrim = summary(spilling.first);
  const steadyTrim = summary(spilling.steady);
  firstTrim.report = spilling.first[0].report;
  const untrimmedRatio = untrimmed.median / bare.median;
  const firstRatio = firstTrim.median / steadyTrim.median;
  const cpuRatios = {
    layered: layered.cpuMedian / bare.cpuMedian,
    untrimmed: untrimmed.cpuMedian / bare.cpuMedian,
    firstTrimmed: firstTrim.cpuMedian / steadyTrim.cpuMedian,
  };
  const oneBatchPerSecond = oneBatch.entries / (oneBatch.ms / 1000);
  const warm = runChild(['warm', database, append.sessionId]);
  const warmBare = { times: warm.times.bare, median: median(warm.times.bare) };
  const warmLayered = { times: warm.times.layered, median: median(warm.times.layered) };
  const perSecond = append.entries / (append.ms / 1000);
  const ratio = layered.median / bare.median;
  const warmRatio = warmLayered.median / warmBare.median;
  const growth = layered.peakRss - layered.rssBefore;
  const figures = {
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      loadAverage,
    },
    transcript: {
      entries: append.entries,
      bytes: append.bytes,
      mainEntries: append.mainEntries,
      subagents: append.subagents,
    },
    append: {
      batches: append.batches,
      meanBatch: append.entries / append.batches,
      ms: append.ms,
      entriesPerSecond: perSecond,
    },
    appendOneBatch: {
      batches: oneBatch.batches,
      ms: oneBatch.ms,
      entriesPerSecond: oneBatchPerSecond,
      ratioToEager: oneBatchPerSecond / perSecond,
    },
    resume: { bare, layered, ratio, untrimmed, untrimmedRatio },
    firstTrimmedLoad: { first: firstTrim, steady: steadyTrim, ratio: firstRatio },
    cpuRatios,
    warm: { bare: warmBare, layered: warmLayered, ratio: warmRatio },
    targets: {
      appendAtLeast20k: perSecond >= 20_000,
      oneBatchAtLeastEager: oneBatchPerSecond >= perSecond,
      layeredWithin1_5x: ratio <= 1.5,
      untrimmedWithin1_5x: untrimmedRatio <= 1.5,
      firstTrimmedWithin2x: firstRatio <= 2,
      layeredUnder500ms: layered.median < 500,
      warmLayeredWithin2x: warmRatio <= 2,
      warmLayeredUnder500ms: warmLayered.median < 500,
      peakRssGrowthUnder4x: growth < 4 * append.bytes,
    },
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return figures;
  }
  const row = (measure, result, target = '', verdict = '') =>
    `  ${measure.padEnd(40)}${result.padEnd(22)}${target.padEnd(12)}${verdict}`;
  const report = layered.report;
  const ms = (value) => `${value.toFixed(0)} ms`;
  const list = (times) => times.map((time) => time.toFixed(0)).join(' ');
  const lines = [
    `Session store benchmark: node ${process.version}, ${figures.machine.cpus} cores (${figures.machine.cpu}), load average ${figures.machine.loadAverage.toFixed(1)} at the start`,
    `Transcript: ${count(append.entries)} entries, ${mb(append.bytes)} of JSON (main ${count(append.mainEntries)} entries + ${append.subagents} subagent transcripts)`,
    '',
    row('measure', 'result', 'target'),
    row(
      `append, eager batches (mean ${figures.append.meanBatch.toFixed(1)})`,
      `${count(perSecond)} entries/s`,
      '≥ 20,000/s',
      pass(figures.targets.appendAtLeast20k),
    ),
    row(
      'append, one batch per transcript',
      `${count(oneBatchPerSecond)} entries/s`,
      '≥ eager',
      pass(figures.targets.oneBatchAtLeastEager),
    ),
    row('  ratio one batch / eager batches', `${figures.appendOneBatch.ratioToEager.toFixed(2)}×`),
    row('resume load, layers off (baseline)', ms(bare.median)),
    row(
      'resume load, all three layers',
      ms(layered.median),
      '< 500 ms',
      pass(figures.targets.layeredUnder500ms),
    ),
    row(
      '  ratio all layers / baseline',
      `${ratio.toFixed(2)}×`,
      '≤ 1.5×',
      pass(figures.targets.layeredWithin1_5x),
    ),
    row('resume load, all layers but trim', ms(untrimmed.median)),
    row(
      '  ratio / baseline',
      `${untrimmedRatio.toFixed(2)}×`,
      '≤ 1.5×',
      pass(figures.targets.untrimmedWithin1_5x),
    ),
    row('first trimmed load (writes spill files)', ms(firstTrim.median)),
    row('steady trimmed load (files there)', ms(steadyTrim.median)),
    row(
      '  ratio first / steady',
      `${firstRatio.toFixed(2)}×`,
      '≤ 2×',
      pass(figures.targets.firstTrimmedWithin2x),
    ),
    row(
      'CPU-time ratios (same loads)',
      `${cpuRatios.layered.toFixed(2)}× ${cpuRatios.untrimmed.toFixed(2)}× ${cpuRatios.firstTrimmed.toFixed(2)}×`,
      'all, no trim, first',
    ),
    row('peak RSS of a resume load, layers off', mb(bare.peakRss)),
    row('peak RSS of a resume load, all layers', mb(layered.peakRss)),
    row(
      '  growth over the process at rest',
      `${mb(growth)} = ${(growth / append.bytes).toFixed(2)}×`,
      '< 4× size',
      pass(figures.targets.peakRssGrowthUnder4x),
    ),
    row('warm load, layers off', ms(warmBare.median)),
    row(
      'warm load, all three layers',
      ms(warmLayered.median),
      '< 500 ms',
      pass(figures.targets.warmLayeredUnder500ms),
    ),
    row(
      '  ratio all layers / baseline',
      `${warmRatio.toFixed(2)}×`,
      '≤ 2×',
      pass(figures.targets.warmLayeredWithin2x),
    ),
    '',
    `Medians of ${RUNS}, layers off and on alternating. A resume load is one load in a fresh process (ms: baseline`,
    `${list(bare.times)}; all layers ${list(layered.times)}; all but trim ${list(untrimmed.times)}).`,
    `First and steady trimmed loads in pairs, the spill folder emptied before each pair (ms: first ${list(firstTrim.times)};`,
    `steady ${list(steadyTrim.times)}). The first writes ${count(firstTrim.report?.cleared ?? 0)} spill files for the main transcript.`,
    `Warm loads run in one process, garbage collected before each (ms: baseline ${list(warmBare.times)}; all layers ${list(warmLayered.times)}).`,
    `Process at rest before loading: ${mb(layered.rssBefore)}. All layers on the main transcript: ${report.expired} expired,`,
    `${report.cleared} spilled (${count(report.charsSaved)} characters saved), ${report.pruned} API errors and ${report.denialsDropped} denials pruned, ${report.healed} calls healed.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return figures;
}

const invokedDirectly =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const [flag, mode, ...rest] = process.argv.slice(2);
  if (flag === '--child') {
    const children = {
      append: () => childAppend(rest[0], rest[1]),
      warm: () => childWarm(rest[0], rest[1]),
      resume: () => childResume(rest[0], rest[1], rest[2]),
    };
    const result = await children[mode]();
    process.stdout.write(JSON.stringify(result));
  } else {
    await runSessionLoadBench({ json: process.argv.includes('--json') });
  }
}
