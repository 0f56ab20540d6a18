// Dashboard benchmark (docs/dashboard.md): a real `flower dashboard` process (the built CLI) follows a run
// directory whose events.jsonl grows by EVENTS events while a client reads the stream to its end.
//
// 1. Memory: the dashboard's resident set size (VmRSS of its process) after each quarter of the events,
//    against the baseline measured in the same run after the first BASELINE_EVENTS — flat means the ratio
//    stays near 1 whatever the log's size (reads go in bounded chunks; nothing is kept per event).
// 2. Latency: SAMPLES single events appended SAMPLE_GAP_MS apart while the page is open in Chromium; for each,
//    the time from the append to the browser's EventSource message (median and 95th percentile), and to
//    the step's row drawn on the page.
//
// Imports nothing from src/: it runs dist/cli/main.js (run `npm run build` first, or `npm run bench`).
//
//   node bench/dashboard.mjs            # a table on stdout
//   node bench/dashboard.mjs --json     # the same figures as JSON
/* global fetch, AbortController, window -- Node 20 globals, and the page's own in the functions run there */
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import process from 'node:process';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { TextDecoder } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const CLI = join(root, 'dist', 'cli', 'main.js');
const CHROMIUM = '/usr/bin/chromium';
const EVENTS = 100_000;
const BASELINE_EVENTS = 10_000;
const BATCH = 1_000;
const SAMPLES = 40;
const SAMPLE_GAP_MS = 100;

/** One event line as a run writes it: a tool call with a few hundred bytes of text. */
function eventLine(index) {
  return `${JSON.stringify({
    kind: 'tool_call',
    text: `Bash npm test -- --filter case-${index} ${'x'.repeat(120)}`,
    at: Date.now() / 1000,
    step: 'work',
    subagent: false,
    parentToolUseId: null,
    tool: 'Bash',
    id: `toolu_${index}`,
    input: { command: `npm test -- --filter case-${index}` },
    pid: process.pid,
  })}\n`;
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

/** Starts `flower dashboard <workspace>` and resolves with its process and base URL. */
async function startDashboard(workspace) {
  const child = spawn(process.execPath, [CLI, 'dashboard', workspace], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FLOWER_LANG: 'en' },
  });
  let out = '';
  const url = await new Promise((resolveUrl, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+\/)\s/.exec(out);
      if (match) resolveUrl(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`flower dashboard exited with ${code}: ${out}`)));
  });
  return { child, url };
}

/** Reads the event stream and counts messages, until `stop()`. */
function follow(url) {
  const controller = new AbortController();
  const state = { messages: 0 };
  const done = (async () => {
    const response = await fetch(`${url}events`, { signal: controller.signal });
    const decoder = new TextDecoder();
    let carry = '';
    try {
      for await (const chunk of response.body) {
        const text = carry + decoder.decode(chunk, { stream: true });
        const frames = text.split('\n\n');
        carry = frames.pop();
        for (const frame of frames) if (frame.includes('\nid: ')) state.messages += 1;
      }
    } catch {
      // Aborted at the end.
    }
  })();
  return { state, stop: () => controller.abort(), done };
}

async function memoryFigures(workspace, runDir) {
  const { child, url } = await startDashboard(workspace);
  const log = join(runDir, 'events.jsonl');
  const client = follow(url);
  const samples = [];
  let written = 0;
  const caughtUp = async () => {
    while (client.state.messages < written) await sleep(10);
  };
  try {
    for (let index = 0; index < EVENTS; index += BATCH) {
      let lines = '';
      for (let offset = 0; offset < BATCH; offset += 1) lines += eventLine(index + offset);
      appendFileSync(log, lines);
      written += BATCH;
      await caughtUp();
      if (written === BASELINE_EVENTS || written % (EVENTS / 4) === 0) {
        samples.push({ events: written, rssMb: rssMb(child.pid) });
      }
    }
  } finally {
    client.stop();
    await client.done;
    child.kill('SIGINT');
  }
  const baseline = samples[0].rssMb;
  return samples.map((sample) => ({ ...sample, ratio: sample.rssMb / baseline }));
}

function percentile(values, share) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

async function latencyFigures(workspace, runDir) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  const { chromium } = await import('playwright-core');
  const { child, url } = await startDashboard(workspace);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  const log = join(runDir, 'events.jsonl');
  try {
    const page = await browser.newPage();
    // The page's own clock when each bench step arrives and when its row is drawn.
    await page.addInitScript({
      content: `
        window.arrived = {}; window.drawn = {};
        const source = new EventSource('/events');
        source.onmessage = (message) => {
          const event = JSON.parse(message.data);
          if (event.kind === 'step') window.arrived[event.name] = Date.now();
        };
        new MutationObserver(() => {
          for (const row of document.querySelectorAll('#timeline li[data-step]')) {
            window.drawn[row.getAttribute('data-step')] ??= Date.now();
          }
        }).observe(document, { subtree: true, childList: true });`,
    });
    await page.goto(url);
    await page.waitForSelector('#connection[data-state="open"]');
    const appended = {};
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      const name = `bench-${sample}`;
      const at = Date.now();
      appended[name] = at;
      appendFileSync(
        log,
        `${JSON.stringify({ kind: 'step', text: name, at: at / 1000, step: name, name, index: sample, total: SAMPLES, resumed: false, woke: 1, pid: process.pid })}\n`,
      );
      // A function, not a string: the page's Content-Security-Policy forbids evaluating strings.
      await page.waitForFunction((step) => window.drawn[step] !== undefined, name);
      await sleep(SAMPLE_GAP_MS);
    }
    const arrived = await page.evaluate(() => window.arrived);
    const drawn = await page.evaluate(() => window.drawn);
    const toMessage = Object.keys(appended).map((name) => arrived[name] - appended[name]);
    const toRow = Object.keys(appended).map((name) => drawn[name] - appended[name]);
    return {
      samples: SAMPLES,
      messageMedianMs: percentile(toMessage, 0.5),
      messageP95Ms: percentile(toMessage, 0.95),
      rowMedianMs: percentile(toRow, 0.5),
      rowP95Ms: percentile(toRow, 0.95),
    };
  } finally {
    await browser.close();
    child.kill('SIGINT');
  }
}

/** Runs the benchmark and returns its figures; prints a table, or JSON with `json`. */
export async function runDashboardBench({ json = false } = {}) {
  const workspace = mkdtempSync(join(os.tmpdir(), 'flower-bench-dashboard-'));
  const runDir = join(workspace, 'runs');
  try {
    mkdirSync(runDir);
    writeFileSync(join(runDir, 'events.jsonl'), '');
    const memory = await memoryFigures(workspace, runDir);
    writeFileSync(join(runDir, 'events.jsonl'), '');
    const latency = await latencyFigures(workspace, runDir);
    const figures = { events: EVENTS, memory, latency };
    if (json) {
      process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
      return figures;
    }
    process.stdout.write(
      [
        `Dashboard memory (RSS of the flower dashboard process) while events.jsonl grows by ${EVENTS.toLocaleString('en')} events, a client following:`,
        ...memory.map(
          (sample) =>
            `  after ${sample.events.toLocaleString('en').padStart(7)} events  ${sample.rssMb.toFixed(1).padStart(6)} MB  ${sample.ratio.toFixed(2)}× the baseline`,
        ),
        `SSE latency, append to the browser (Chromium), ${latency.samples} events ${SAMPLE_GAP_MS} ms apart:`,
        `  to the EventSource message   median ${latency.messageMedianMs} ms, p95 ${latency.messageP95Ms} ms`,
        `  to the step's row drawn      median ${latency.rowMedianMs} ms, p95 ${latency.rowP95Ms} ms`,
        '',
      ].join('\n'),
    );
    return figures;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) await runDashboardBench({ json: process.argv.includes('--json') });
