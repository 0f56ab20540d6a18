// `flower analyze` end to end: a real run is recorded with the built CLI (`flower demo`: the real SDK and
// Claude Code binary against flower's own fake Messages API, no credentials), then `flower analyze --json`
// is checked against figures this test computes on its own, with plain SQL over the `entries` rows and
// plain JSON over manifest.json and events.jsonl — not through analyze's code — and against the checked-in
// file those figures must also equal (test/e2e/fixtures/analyze-demo.expected.json; regenerate with
// FLOWER_UPDATE_EXPECTED=1, then prettier --write it). The `--html` report is opened in a real headless Chromium (Debian's
// `chromium`, driven by playwright-core, no browser download): no console error, no request but the file
// itself; the screenshot it takes is docs/analyze-report.png.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunAnalysis, ToolUse, TranscriptTotals } from '../../src/analyze/run-analysis.js';
import { FLOWER_CLI } from './support/flower-process.js';

const CHROMIUM = '/usr/bin/chromium';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const EXPECTED = join(root, 'test', 'e2e', 'fixtures', 'analyze-demo.expected.json');
const SCREENSHOT = join(root, 'docs', 'analyze-report.png');

let scratch = '';
let runDir = '';
let env: Record<string, string> = {};

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'flower-analyze-e2e-')));
  const home = join(scratch, 'home');
  mkdirSync(home, { recursive: true });
  env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: scratch,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
  };
  const demo = await execa('node', [FLOWER_CLI, 'demo'], {
    env,
    extendEnv: false,
    cwd: scratch,
    reject: false,
    timeout: 150_000,
  });
  expect(demo.exitCode, String(demo.stdout) + String(demo.stderr)).toBe(0);
  const folder = /^Run folder: (.+)$/m.exec(String(demo.stdout))?.[1] ?? '';
  runDir = join(folder, 'workspace', 'runs');
  expect(existsSync(join(runDir, 'sessions.db'))).toBe(true);
}, 180_000);

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

/** Runs the built CLI with the scratch environment. */
async function flower(args: string[]) {
  return execa('node', [FLOWER_CLI, ...args], {
    env,
    extendEnv: false,
    cwd: scratch,
    reject: false,
    timeout: 30_000,
  });
}

/** What the test reads of each chart in the page. */
interface ChartShape {
  label: string | null;
  lines: number;
  bars: number;
  levels: number;
  marks: number;
}

interface Row {
  store_key: string;
  seq: number;
  payload: string;
}

/**
 * The figures, computed without analyze's code: SQLite's own JSON functions over the rows, a transcript's
 * kind by the number of `/` in its key, one response per (key, message id, request id) at its first row.
 */
function independentFigures(directory: string) {
  const database = new Database(join(directory, 'sessions.db'), { readonly: true });
  try {
    const depth = "(length(store_key) - length(replace(store_key, '/', '')))";
    const group = (main: boolean) => (main ? `${depth} = 1` : `${depth} > 1`);
    const entries = (main: boolean) =>
      (database.prepare(`SELECT count(*) AS n FROM entries WHERE ${group(main)}`).get() as { n: number }).n;
    // One row per API response: the first entry of each (store_key, message.id, requestId) with a usage.
    const responses = (main: boolean) =>
      `SELECT e.store_key, e.seq, e.payload FROM entries e JOIN (
         SELECT store_key, min(seq) AS seq FROM entries
          WHERE ${group(main)} AND json_extract(payload, '$.type') = 'assistant'
            AND json_type(payload, '$.message.usage') = 'object' AND payload LIKE '%"usage":{"%'
          GROUP BY store_key, json_extract(payload, '$.message.id'), coalesce(json_extract(payload, '$.requestId'), '')
       ) first USING (store_key, seq)`;
    const tokens = (main: boolean) =>
      database
        .prepare(
          `SELECT count(*) AS turns,
                  coalesce(sum(json_extract(payload, '$.message.usage.input_tokens')), 0) AS input,
                  coalesce(sum(json_extract(payload, '$.message.usage.cache_read_input_tokens')), 0) AS cacheRead,
                  coalesce(sum(json_extract(payload, '$.message.usage.cache_creation_input_tokens')), 0) AS cacheCreation,
                  coalesce(sum(json_extract(payload, '$.message.usage.output_tokens')), 0) AS output,
                  coalesce(sum(json_extract(payload, '$.message.usage.output_tokens_details.thinking_tokens')), 0) AS thinking
             FROM (${responses(main)})`,
        )
        .get() as Record<string, number>;
    const toolRows = (main: boolean) =>
      database
        .prepare(
          `SELECT json_extract(block.value, '$.name') AS tool, count(DISTINCT store_key || ' ' || json_extract(block.value, '$.id')) AS calls
             FROM entries, json_each(json_extract(payload, '$.message.content')) AS block
            WHERE ${group(main)} AND json_extract(payload, '$.type') = 'assistant'
              AND json_extract(block.value, '$.type') = 'tool_use'
            GROUP BY tool ORDER BY calls DESC, tool`,
        )
        .all() as { tool: string; calls: number }[];
    const denials = (main: boolean) =>
      database
        .prepare(
          `SELECT json_extract(payload, '$.toolDenialKind') AS kind, count(*) AS count FROM entries
            WHERE ${group(main)} AND json_extract(payload, '$.toolDenialKind') IS NOT NULL GROUP BY kind ORDER BY kind`,
        )
        .all() as { kind: string; count: number }[];
    const subagentKeys = database
      .prepare(`SELECT DISTINCT store_key FROM entries WHERE ${group(false)} ORDER BY store_key`)
      .all() as { store_key: string }[];
    const perSubagent = subagentKeys.map(({ store_key }) => {
      const row = database
        .prepare(
          `SELECT coalesce(sum(json_extract(payload, '$.message.usage.output_tokens')), 0) AS output
             FROM (${responses(false)}) WHERE store_key = ?`,
        )
        .get(store_key) as { output: number };
      return row.output;
    });
    // The main thread's context, session by session in manifest order, zero-context records left out.
    const manifest = JSON.parse(readFileSync(join(directory, 'manifest.json'), 'utf8')) as {
      step: string;
      session_id: string;
      cost_usd: number;
      num_turns: number;
      retired: string[];
    }[];
    const order: string[] = [];
    for (const row of manifest) {
      for (const id of [...row.retired, row.session_id]) if (!order.includes(id)) order.push(id);
    }
    const curve = order.flatMap((sessionId) =>
      (
        database
          .prepare(
            `SELECT json_extract(payload, '$.message.usage.input_tokens')
                  + json_extract(payload, '$.message.usage.cache_read_input_tokens')
                  + json_extract(payload, '$.message.usage.cache_creation_input_tokens') AS context
               FROM (${responses(true)}) WHERE store_key LIKE '%/' || ? ORDER BY seq`,
          )
          .all(sessionId) as { context: number }[]
      )
        .map((row) => row.context)
        .filter((value) => value > 0),
    );
    const events = readFileSync(join(directory, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{"kind"') || line.includes('"kind":'))
      .map((line) => JSON.parse(line) as { kind?: string; chars?: number; phase?: string });
    const spills = events.filter((event) => event.kind === 'spill');
    // Body characters: each block's text, input and content, as code points of the string or of its JSON.
    const codePoints = (value: unknown): number =>
      value === undefined || value === null
        ? 0
        : Array.from(typeof value === 'string' ? value : JSON.stringify(value)).length;
    const bodyChars = (main: boolean): number =>
      (database.prepare(`SELECT payload FROM entries WHERE ${group(main)}`).all() as Row[]).reduce(
        (sum, row) => {
          let entry: { message?: { content?: unknown } };
          try {
            entry = JSON.parse(row.payload) as typeof entry;
          } catch {
            return sum;
          }
          const content = entry.message?.content;
          if (typeof content === 'string') return sum + codePoints(content);
          if (!Array.isArray(content)) return sum;
          return content.reduce<number>((inner, block: Record<string, unknown>) => {
            if (typeof block !== 'object' || block === null) return inner;
            return (
              inner + codePoints(block['text']) + codePoints(block['input']) + codePoints(block['content'])
            );
          }, sum);
        },
        0,
      );
    const main = tokens(true);
    const sub = tokens(false);
    const total =
      main['input']! +
      main['cacheRead']! +
      main['cacheCreation']! +
      sub['input']! +
      sub['cacheRead']! +
      sub['cacheCreation']!;
    const sortedOutputs = [...perSubagent].sort((a, b) => a - b);
    return {
      steps: manifest.map((row) => ({
        step: row.step,
        turns: row.num_turns,
        handoffGenerations: row.retired.length,
      })),
      entries: { main: entries(true), subagent: entries(false) },
      tokens: { main, subagent: sub },
      tools: { main: toolRows(true), subagent: toolRows(false) },
      denials: { main: denials(true), subagent: denials(false) },
      subagentCount: subagentKeys.length,
      subagentOutput: {
        max: sortedOutputs.at(-1),
        median: sortedOutputs[Math.floor(sortedOutputs.length / 2)],
        min: sortedOutputs[0],
      },
      curve,
      cache: { total, hitRate: total === 0 ? null : (main['cacheRead']! + sub['cacheRead']!) / total },
      spill: { results: spills.length, chars: spills.reduce((sum, event) => sum + (event.chars ?? 0), 0) },
      handoffs: events.filter((event) => event.kind === 'handoff' && event.phase === 'done').length,
      bodyChars: { main: bodyChars(true), subagent: bodyChars(false) },
    };
  } finally {
    database.close();
  }
}

/** The same figures, as `flower analyze --json` reports them. */
function reportedFigures(analysis: RunAnalysis) {
  const tools = (use: ToolUse) => use.top.map((tool) => ({ tool: tool.tool, calls: tool.calls }));
  const tokens = (group: TranscriptTotals) => ({
    turns: group.modelTurns,
    input: group.inputTokens,
    cacheRead: group.cacheReadTokens,
    cacheCreation: group.cacheCreationTokens,
    output: group.outputTokens,
    thinking: group.thinkingTokens,
  });
  return {
    steps: analysis.ledger.steps.map((step) => ({
      step: step.step,
      turns: step.turns,
      handoffGenerations: step.handoffGenerations,
    })),
    entries: { main: analysis.economics.main.entries, subagent: analysis.economics.subagent.entries },
    tokens: { main: tokens(analysis.economics.main), subagent: tokens(analysis.economics.subagent) },
    tools: { main: tools(analysis.tools.main), subagent: tools(analysis.tools.subagent) },
    denials: { main: analysis.tools.main.denialsByKind, subagent: analysis.tools.subagent.denialsByKind },
    subagentCount: analysis.subagents.count,
    subagentOutput: analysis.subagents.outputTokens,
    curve: analysis.context.sessions.flatMap((session) => session.points.map((point) => point.tokens)),
    cache: { total: analysis.cache.totalInputTokens, hitRate: analysis.cache.hitRate },
    spill: analysis.savings.spill,
    handoffs: analysis.context.handoffs.length,
    bodyChars: { main: analysis.economics.main.bodyChars, subagent: analysis.economics.subagent.bodyChars },
  };
}

describe('flower analyze (e2e)', () => {
  test('--json on a recorded demo run equals the figures computed independently, and the checked-in file', async () => {
    const wal = join(runDir, 'sessions.db-wal');
    const walBefore = existsSync(wal);
    const run = await flower(['analyze', runDir, '--json']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    // Looking leaves the run as it was: no -wal/-shm appears beside the store.
    expect(existsSync(wal)).toBe(walBefore);
    const analysis = JSON.parse(String(run.stdout)) as RunAnalysis;
    expect(analysis.schema).toBe('flower-analyze/1');
    const independent = independentFigures(runDir);
    const reported = reportedFigures(analysis);
    expect(reported).toEqual(independent);
    // Body characters include the run's absolute paths (the workspace in each session's context), and the
    // entry count includes the harness's uuid-less queue markers, whose number follows the timing of the
    // run; the checked-in file holds every other figure.
    const { bodyChars: _paths, entries: _markers, ...stable } = independent;
    if (process.env['FLOWER_UPDATE_EXPECTED'] === '1') {
      writeFileSync(EXPECTED, `${JSON.stringify(stable, null, 2)}\n`);
    }
    const expected = JSON.parse(readFileSync(EXPECTED, 'utf8')) as Record<string, unknown>;
    expect(stable).toEqual(expected);
    expect(reportedFigures(analysis)).toMatchObject(expected);
    // The demo stores one response as several entries: counting each entry would inflate the figures.
    const db = new Database(join(runDir, 'sessions.db'), { readonly: true });
    const usageEntries = (
      db
        .prepare(
          `SELECT count(*) AS n FROM entries WHERE json_extract(payload, '$.type') = 'assistant'
              AND json_type(payload, '$.message.usage') = 'object'`,
        )
        .get() as { n: number }
    ).n;
    db.close();
    expect(usageEntries).toBeGreaterThan(
      analysis.economics.main.modelTurns + analysis.economics.subagent.modelTurns,
    );
    // The workbench where the run kept it, and the session the handoff retired marked as such.
    expect(analysis.workbench.placement).toBe('workspace');
    expect(analysis.context.sessions.filter((session) => session.retiredBy !== null)).toHaveLength(1);
  }, 60_000);

  test('--html writes one self-contained report that Chromium opens with no error and no request', async () => {
    expect(
      existsSync(CHROMIUM),
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); .ci/run does`,
    ).toBe(true);
    const report = join(scratch, 'report.html');
    const run = await flower(['analyze', runDir, '--html', report]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(String(run.stdout)).toContain('Main-thread context');
    const html = readFileSync(report, 'utf8');
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 1200 } });
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(String(error)));
      page.on('request', (request) => requests.push(request.url()));
      const url = pathToFileURL(report).href;
      await page.goto(url);
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
      // Every chart is drawn: the context curve with the threshold and the handoff mark, and the bars.
      // An expression string: the test project has no DOM types, and the page needs none of ours.
      const charts = await page.evaluate<ChartShape[]>(`[...document.querySelectorAll('svg')].map((node) => ({
        label: node.getAttribute('aria-label'),
        lines: node.querySelectorAll('polyline').length,
        bars: node.querySelectorAll('rect').length,
        levels: node.querySelectorAll('.level').length,
        marks: node.querySelectorAll('.mark').length,
      }))`);
      const chart = (label: string) => charts.find((entry) => entry.label === label);
      expect(chart('Context per main session')?.lines).toBe(7);
      expect(chart('Context per main session')?.levels).toBe(7);
      expect(chart('Context per main session')?.marks).toBe(1);
      expect(chart('Cost so far, by step')?.lines).toBe(7);
      expect(chart('Tool calls by role')?.bars).toBe(4);
      expect(chart('Cache hit rate per step')?.bars).toBe(7);
      expect(chart('Characters kept out of the context')?.bars).toBe(2);
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    } finally {
      await browser.close();
    }
  }, 60_000);
});
