// Manifest-write benchmark: what the in-flight row's writes cost a fast step. A step of TURNS turns, each
// storing RESPONSES_PER_TURN priced responses TURN_MS apart (about what a turn against the fake Messages
// API takes), drives a real StepRun writing a real manifest.json; against it, in the same run, the same
// step writing the row on every priced response (what flower did before cost writes were coalesced).
// Imports the built package from dist/ (run `npm run build` first, or `npm run bench`).
//
//   node bench/manifest-writes.mjs            # a table on stdout
//   node bench/manifest-writes.mjs --json     # the same figures as JSON
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import process from 'node:process';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const TURNS = 30;
const RESPONSES_PER_TURN = 2;
const TURN_MS = 100;

async function importDist() {
  const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
  const [{ StepRun }, { writeManifest }] = await Promise.all([
    load('runtime/step-run.js'),
    load('runtime/manifest.js'),
  ]);
  return { StepRun, writeManifest };
}

/** One simulated step; `every`: write on every priced response instead of through `syncCost`. */
async function simulate({ StepRun, writeManifest }, every) {
  const runDir = mkdtempSync(join(os.tmpdir(), 'flower-bench-manifest-'));
  let writes = 0;
  let writeMs = 0;
  const run = new StepRun('work', null, {
    onSession: () => undefined,
    persist: () => {
      const started = process.hrtime.bigint();
      writeManifest(runDir, 'bench-run', [run.result]);
      writeMs += Number(process.hrtime.bigint() - started) / 1e6;
      writes += 1;
    },
    uiErrors: [],
  });
  run.noteSession('bench-session');
  const started = process.hrtime.bigint();
  let usd = 0;
  for (let turn = 0; turn < TURNS; turn += 1) {
    for (let response = 0; response < RESPONSES_PER_TURN; response += 1) {
      usd += 0.01;
      run.ledger.noteResult(usd);
      if (every) {
        run.result.costUsd = run.ledger.usd;
        run.persist();
      } else run.syncCost();
      await sleep(TURN_MS / RESPONSES_PER_TURN);
    }
  }
  const stepMs = Number(process.hrtime.bigint() - started) / 1e6;
  run.result.endedAt = Date.now() / 1000;
  rmSync(runDir, { recursive: true, force: true });
  return { writes, writeMs, stepMs, share: writeMs / stepMs };
}

/** Runs the benchmark and returns its figures; prints a table, or JSON with `json`. */
export async function runManifestWritesBench({ json = false } = {}) {
  const dist = await importDist();
  const every = await simulate(dist, true);
  const coalesced = await simulate(dist, false);
  const figures = { turns: TURNS, responsesPerTurn: RESPONSES_PER_TURN, turnMs: TURN_MS, every, coalesced };
  if (json) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return figures;
  }
  const line = (label, result) =>
    `  ${label.padEnd(40)}${String(result.writes).padStart(4)} writes, ${result.writeMs.toFixed(0).padStart(5)} ms = ${(100 * result.share).toFixed(1)}% of the step`;
  process.stdout.write(
    [
      `Manifest writes of a ${TURNS}-turn step, ${RESPONSES_PER_TURN} priced responses a turn, a turn every ${TURN_MS} ms:`,
      line('a write per priced response (baseline)', every),
      line('cost writes at most once a second', coalesced),
      `  mean time of one write (lock, re-read, write, fsync, rename): ${(every.writeMs / every.writes).toFixed(2)} ms`,
      '',
    ].join('\n'),
  );
  return figures;
}

const invokedDirectly =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) await runManifestWritesBench({ json: process.argv.includes('--json') });
