/**
 * `analyzeRun(runDir)`: every figure of a run directory (docs/analyze.md), read-only — no request is sent,
 * no credential read, no file written. The transcripts come from `sessions.db` (and the side-question
 * runtime's `aside/sessions.db`), the steps from `manifest.json`, the cost curve, handoffs and savings from
 * `events.jsonl`, the workbench from where the run really kept it.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FlowerError } from '../errors.js';
import { isRecord } from '../internal/is-record.js';
import type { CostBreakdown, CostTranscript } from '../runtime/cost-breakdown.js';
import { EVENT_LOG_FILE } from '../runtime/event-log.js';
import { MANIFEST_FILE, readManifest, type ManifestRow } from '../runtime/manifest.js';
import type { RunRecordsSnapshot } from '../runtime/run-records.js';
import { runCostBreakdown } from '../runtime/run-cost.js';
import { ASIDE_DIR } from '../workflow/ask-oracle.js';
import { contextCurve } from './context-curve.js';
import { median, ratio } from './figure-math.js';
import { readRunEvents } from './run-events.js';
import { readTranscripts, transcriptStats } from './read-transcripts.js';
import {
  ANALYSIS_SCHEMA,
  type CacheUse,
  type Economics,
  type Ledger,
  type LedgerStep,
  type RoleCost,
  type RunAnalysis,
  type SubagentShares,
  type Subagents,
  type TranscriptTotals,
} from './run-analysis.js';
import { orderMain, sessionOrder } from './session-order.js';
import { stepRole } from './step-role.js';
import { toolsOf } from './tool-figures.js';
import type { TranscriptStats } from './transcript-stats.js';
import { locateWorkbench, presentScripts, scriptReuse, workbenchUse } from './workbench-usage.js';

/** The session store's file name in a run directory. */
const SESSIONS_FILE = 'sessions.db';

/** Options of {@link analyzeRun}. */
export interface AnalyzeOptions {
  /** The workspace, when known; else the run's lineage, its first session's `cwd`, or the run directory's parent. */
  workspace?: string;
  /**
   * The run's records read from where they live (`readRunRecords(records)`): PostgreSQL's manifest rows and
   * lineage instead of `manifest.json` and `lineage.json`. The run directory's files by default.
   */
  records?: RunRecordsSnapshot;
  /**
   * The run's transcripts read from where they live (a PostgreSQL store, `readServerTranscripts`), each
   * with its store key and entries in `seq` order, instead of `sessions.db`.
   */
  transcripts?: readonly CostTranscript[];
}

/**
 * Analyses the run in `runDir`.
 *
 * @throws FlowerError `STORE_MISSING` when the folder holds neither a session store nor a manifest.
 */
export function analyzeRun(runDir: string, options: AnalyzeOptions = {}): RunAnalysis {
  const root = resolve(runDir);
  const sessionsPath = join(root, SESSIONS_FILE);
  const manifestPath = join(root, MANIFEST_FILE);
  const asidePath = join(root, ASIDE_DIR, SESSIONS_FILE);
  const sources = {
    sessions: options.transcripts === undefined ? existsSync(sessionsPath) : options.transcripts.length > 0,
    manifest: existsSync(manifestPath) || (options.records?.rows.length ?? 0) > 0,
    events: false,
    aside: existsSync(join(root, ASIDE_DIR)),
  };
  if (!sources.sessions && !sources.manifest) {
    throw new FlowerError(
      'STORE_MISSING',
      `No run in ${root}: it holds neither ${SESSIONS_FILE} nor ${MANIFEST_FILE}. ` +
        'Give the run directory (usually <workspace>/runs) as the argument.',
    );
  }
  const events = readRunEvents(join(root, EVENT_LOG_FILE));
  sources.events = events.present;
  const manifest = options.records?.rows ?? readManifest(root);
  const recordedWorkspace =
    options.records === undefined ? lineageWorkspace(root) : documentWorkspace(options.records.lineage);
  const workspace = resolve(options.workspace ?? recordedWorkspace ?? events.workspace ?? dirname(root));

  const rows = manifest.map((row) => ledgerStep(row, 'run'));
  const asideRows = readManifest(join(root, ASIDE_DIR)).map((row) => ledgerStep(row, 'aside'));
  const ledger = ledgerOf([...rows, ...asideRows]);

  const transcripts =
    options.transcripts === undefined ? readTranscripts(sessionsPath) : transcriptStats(options.transcripts);
  const aside = readTranscripts(asidePath);
  const order = sessionOrder(manifest);
  const main = orderMain(
    transcripts.filter((transcript) => transcript.subpath === null),
    order,
  );
  const subagents = transcripts.filter((transcript) => transcript.subpath !== null);
  const windows = rows.filter((row) => row.endedAt > 0);
  const stepAt = (at: number | null): string | null =>
    at === null ? null : (windows.find((row) => at >= row.startedAt && at <= row.endedAt)?.step ?? null);

  const spend = runCostBreakdown(root, {
    roleOf: stepRole,
    rows: manifest,
    ...(options.transcripts === undefined ? {} : { transcripts: options.transcripts }),
  });
  const economics = economicsOf(main, subagents, aside);
  const context = contextCurve(main, order, events, stepAt);
  const cache = cacheUse(economics, [...main, ...subagents], stepAt, rows);
  const located = locateWorkbench(root, workspace);
  const workbench = workbenchUse(located, workspace);
  const allCalls = [...main, ...subagents].flatMap((transcript) => transcript.calls);

  return {
    schema: ANALYSIS_SCHEMA,
    runDir: root,
    workspace,
    sources,
    ledger,
    roles: roleCosts(ledger),
    economics,
    context,
    cache,
    tools: toolsOf(main, subagents, aside, order),
    subagents: subagentsOf(subagents, stepAt, spend),
    spend,
    workbench,
    scriptReuse: scriptReuse(allCalls, workbench.path, workspace, presentScripts(workbench.path)),
    savings: events.savings,
    costOverTime: events.present ? events.costOverTime : manifestCost(rows),
  };
}

function ledgerStep(row: ManifestRow, source: LedgerStep['source']): LedgerStep {
  const seconds =
    typeof row.duration_s === 'number' && Number.isFinite(row.duration_s)
      ? row.duration_s
      : Math.max(0, finite(row.ended_at) - finite(row.started_at));
  return {
    step: row.step,
    role: source === 'aside' ? 'oracle' : stepRole(row.step),
    run: typeof row.run === 'string' && row.run !== '' ? row.run : '-',
    source,
    ok: row.ok === true,
    costUsd: finite(row.cost_usd),
    turns: finite(row.num_turns),
    attempts: finite(row.attempts),
    resumed: row.resumed === true,
    handoffGenerations: Array.isArray(row.retired) ? row.retired.length : 0,
    hours: seconds / 3600,
    sessionId: typeof row.session_id === 'string' ? row.session_id : null,
    startedAt: finite(row.started_at),
    endedAt: finite(row.ended_at),
  };
}

function ledgerOf(steps: LedgerStep[]): Ledger {
  const runs = new Map<string, { run: string; steps: number; costUsd: number; hours: number }>();
  for (const step of steps) {
    const run = runs.get(step.run) ?? { run: step.run, steps: 0, costUsd: 0, hours: 0 };
    run.steps += 1;
    run.costUsd += step.costUsd;
    run.hours += step.hours;
    runs.set(step.run, run);
  }
  return {
    steps,
    runs: [...runs.values()],
    stepCount: steps.length,
    runCount: runs.size,
    costUsd: steps.reduce((total, step) => total + step.costUsd, 0),
    hours: steps.reduce((total, step) => total + step.hours, 0),
  };
}

function roleCosts(ledger: Ledger): RoleCost[] {
  const roles = new Map<string, RoleCost>();
  for (const step of ledger.steps) {
    const role = roles.get(step.role) ?? { role: step.role, steps: 0, costUsd: 0, share: null };
    role.steps += 1;
    role.costUsd += step.costUsd;
    roles.set(step.role, role);
  }
  return [...roles.values()].map((role) => ({
    ...role,
    share: ratio(role.costUsd, ledger.costUsd),
  }));
}

function totals(transcripts: readonly TranscriptStats[]): TranscriptTotals {
  const total: TranscriptTotals = {
    transcripts: transcripts.length,
    entries: 0,
    modelTurns: 0,
    bodyChars: 0,
    inputTokens: 0,
    cacheReadTokens: 0,
    cacheCreationTokens: 0,
    outputTokens: 0,
    thinkingTokens: 0,
    pricedUsd: 0,
  };
  for (const transcript of transcripts) {
    total.entries += transcript.entries;
    total.bodyChars += transcript.bodyChars;
    total.modelTurns += transcript.responses.length;
    for (const response of transcript.responses) {
      total.inputTokens += response.input;
      total.cacheReadTokens += response.cacheRead;
      total.cacheCreationTokens += response.cacheCreation;
      total.outputTokens += response.output;
      total.thinkingTokens += response.thinking;
      total.pricedUsd += response.pricedUsd;
    }
  }
  return total;
}

function economicsOf(
  main: readonly TranscriptStats[],
  subagents: readonly TranscriptStats[],
  aside: readonly TranscriptStats[],
): Economics {
  const mainTotals = totals(main);
  const subTotals = totals(subagents);
  const mainCalls = main.reduce((sum, transcript) => sum + transcript.calls.length, 0);
  const subCalls = subagents.reduce((sum, transcript) => sum + transcript.calls.length, 0);
  const share = (mine: number, theirs: number): number | null => ratio(theirs, mine + theirs);
  const subagentShare: SubagentShares = {
    entries: share(mainTotals.entries, subTotals.entries),
    modelTurns: share(mainTotals.modelTurns, subTotals.modelTurns),
    bodyChars: share(mainTotals.bodyChars, subTotals.bodyChars),
    outputTokens: share(mainTotals.outputTokens, subTotals.outputTokens),
    toolCalls: share(mainCalls, subCalls),
  };
  return {
    main: mainTotals,
    subagent: subTotals,
    aside: totals(aside),
    subagentShare,
    subagentCount: subagents.length,
  };
}

function cacheUse(
  economics: Economics,
  transcripts: readonly TranscriptStats[],
  stepAt: (at: number | null) => string | null,
  rows: readonly LedgerStep[],
): CacheUse {
  const groups = [economics.main, economics.subagent];
  const add = (pick: (total: TranscriptTotals) => number): number =>
    groups.reduce((total, group) => total + pick(group), 0);
  const hits = add((group) => group.cacheReadTokens);
  const creation = add((group) => group.cacheCreationTokens);
  const uncached = add((group) => group.inputTokens);
  const totalInput = hits + creation + uncached;
  const perStep = new Map<string, { input: number; hits: number }>();
  for (const row of rows) perStep.set(row.step, { input: 0, hits: 0 });
  for (const transcript of transcripts) {
    for (const response of transcript.responses) {
      const step = stepAt(response.at);
      const figures = step === null ? undefined : perStep.get(step);
      if (figures === undefined) continue;
      figures.input += response.context;
      figures.hits += response.cacheRead;
    }
  }
  return {
    totalInputTokens: totalInput,
    hitTokens: hits,
    hitRate: ratio(hits, totalInput),
    creationTokens: creation,
    uncachedTokens: uncached,
    outputTokens: add((group) => group.outputTokens),
    thinkingTokens: add((group) => group.thinkingTokens),
    perStep: [...perStep].map(([step, figures]) => ({
      step,
      totalInputTokens: figures.input,
      hitRate: ratio(figures.hits, figures.input),
    })),
  };
}

function subagentsOf(
  subagents: readonly TranscriptStats[],
  stepAt: (at: number | null) => string | null,
  spend: CostBreakdown | null,
): Subagents {
  const list = subagents.map((transcript) => {
    const output = transcript.responses.reduce((total, response) => total + response.output, 0);
    const agent = transcript.subpath?.split('/').at(-1) ?? '';
    const dispatch = spend?.subagents.find(
      (candidate) => candidate.agent === agent && candidate.sessionId === transcript.sessionId,
    );
    return {
      agent,
      sessionId: transcript.sessionId,
      step: stepAt(transcript.firstAt),
      worker: dispatch?.type ?? null,
      task: dispatch === undefined ? null : dispatch.task || dispatch.description || null,
      modelTurns: transcript.responses.length,
      toolCalls: transcript.calls.length,
      outputTokens: output,
      pricedUsd: transcript.responses.reduce((total, response) => total + response.pricedUsd, 0),
    };
  });
  const outputs = list.map((subagent) => subagent.outputTokens).sort((a, b) => a - b);
  return {
    count: list.length,
    outputTokens:
      outputs.length === 0
        ? null
        : { max: outputs.at(-1) ?? 0, median: median(outputs), min: outputs[0] ?? 0 },
    list,
  };
}

function manifestCost(rows: readonly LedgerStep[]): RunAnalysis['costOverTime'] {
  let spent = 0;
  return rows
    .filter((row) => row.endedAt > 0)
    .map((row) => {
      spent += row.costUsd;
      return { at: row.endedAt, step: row.step, costUsd: spent };
    });
}

/** The workspace the run's lineage recorded, or `null`. */
function lineageWorkspace(runDir: string): string | null {
  try {
    return documentWorkspace(JSON.parse(readFileSync(join(runDir, 'lineage.json'), 'utf8')));
  } catch {
    // No lineage (a `once` run, a custom workflow): the caller falls back.
  }
  return null;
}

/** The workspace a lineage document recorded, or `null`. */
function documentWorkspace(record: unknown): string | null {
  if (isRecord(record) && typeof record['workspace'] === 'string' && record['workspace'] !== '') {
    return record['workspace'];
  }
  return null;
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
