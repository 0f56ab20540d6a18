/**
 * What `flower analyze` finds in a run directory: the `--json` document, schema `flower-analyze/1`
 * (docs/analyze.md). Every figure is a plain number in its own unit (tokens, characters, bytes, dollars,
 * hours, epoch seconds); a ratio whose denominator is zero is `null`, never `NaN` or `Infinity`. The terminal
 * tables and the HTML report are drawn from this one value, so the three outputs cannot disagree.
 *
 * @module
 */

/** The schema name and version written into every document; a breaking change bumps the number. */
import type { CostBreakdown } from '../runtime/cost-breakdown.js';

export const ANALYSIS_SCHEMA = 'flower-analyze/1';

/** One manifest row, as the ledger shows it. */
export interface LedgerStep {
  step: string;
  /** The role that ran the step: `clarify`, `goal`, `coordinator`, `judge`, `bequest`, `oracle`, or the step's own name. */
  role: string;
  /** The run (process) that wrote the row; `-` when the row has none. */
  run: string;
  /** Where the row came from: the run's manifest, or the side-question runtime's (`aside/`). */
  source: 'run' | 'aside';
  ok: boolean;
  costUsd: number;
  turns: number;
  attempts: number;
  resumed: boolean;
  /** Sessions this step retired by a handoff (`retired.length`). */
  handoffGenerations: number;
  hours: number;
  sessionId: string | null;
  /** Epoch seconds. */
  startedAt: number;
  endedAt: number;
}

/** One run's subtotal. */
export interface LedgerRun {
  run: string;
  steps: number;
  costUsd: number;
  hours: number;
}

/** Section 1: cost, turns and time from `manifest.json` (and `aside/manifest.json`). */
export interface Ledger {
  steps: LedgerStep[];
  runs: LedgerRun[];
  stepCount: number;
  runCount: number;
  costUsd: number;
  hours: number;
}

/** Token and size figures of a set of transcripts. */
export interface TranscriptTotals {
  transcripts: number;
  entries: number;
  /** API responses with a usage, each counted once however many entries carry it (by `message.id`). */
  modelTurns: number;
  /** Characters (code points) of every block's text, input and content. */
  bodyChars: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  outputTokens: number;
  thinkingTokens: number;
  /** Dollars, priced from each response's usage at list price. */
  pricedUsd: number;
}

/** `sub / (main + sub)` for each figure, `null` when both are zero. */
export interface SubagentShares {
  entries: number | null;
  modelTurns: number | null;
  bodyChars: number | null;
  outputTokens: number | null;
  toolCalls: number | null;
}

/** Section 2: where the context went, main thread against subagents. */
export interface Economics {
  main: TranscriptTotals;
  subagent: TranscriptTotals;
  /** The side-question oracle's transcripts (`aside/sessions.db`), kept out of both groups. */
  aside: TranscriptTotals;
  subagentShare: SubagentShares;
  subagentCount: number;
}

/** One point of a context curve. */
export interface ContextPoint {
  /** 1-based over the whole main thread (all main sessions, in order). */
  turn: number;
  /** `input + cache_read + cache_creation` of the response. */
  tokens: number;
  /** Epoch seconds, or `null` when the entry has no timestamp. */
  at: number | null;
  /** The manifest step running at that time (a resumed session spans several), or `null`. */
  step: string | null;
}

/** One main session's curve. */
export interface SessionCurve {
  sessionId: string;
  /** The step it first ran in, or `null` for a session no manifest row names. */
  step: string | null;
  role: string | null;
  points: ContextPoint[];
  /** The handoff threshold and window the run logged for this session, when it did. */
  threshold: number | null;
  window: number | null;
  /** The step whose handoff retired this session, or `null` if it was not retired. */
  retiredBy: string | null;
}

/** Section 3: the main thread's context, turn by turn. */
export interface ContextCurve {
  sessions: SessionCurve[];
  turns: number;
  first: number | null;
  min: number | null;
  max: number | null;
  last: number | null;
  /** About 20 evenly spaced points (every ⌊n/20⌋-th, at least every one). */
  samples: ContextPoint[];
  /** Points below 70% of the one before (a compaction, a pruned load, a new session). */
  drops: { count: number; firstTurns: number[] };
  /** Handoffs the event log recorded (`done`), at the time they finished. */
  handoffs: { step: string; at: number; context: number; threshold: number }[];
}

/** Section 4: the prompt cache. */
export interface CacheUse {
  totalInputTokens: number;
  hitTokens: number;
  hitRate: number | null;
  creationTokens: number;
  uncachedTokens: number;
  outputTokens: number;
  thinkingTokens: number;
  /** Per manifest step (main and subagent responses between its start and end). */
  perStep: { step: string; totalInputTokens: number; hitRate: number | null }[];
}

/** Tool use of one group of transcripts. */
export interface ToolUse {
  calls: number;
  /** Top 10 tool names. */
  top: { tool: string; calls: number }[];
  denials: number;
  /** Denials by the kind the transcript recorded (`toolDenialKind`). */
  denialsByKind: { kind: string; count: number }[];
  denialRate: number | null;
}

/** Section 5: tool use per group and per role. */
export interface Tools {
  main: ToolUse;
  subagent: ToolUse;
  /** The first word of the main thread's Bash commands (top 8). */
  mainBashVerbs: { verb: string; count: number }[];
  /** Calls by role: main sessions by their step's role, subagents as `worker`, the aside as `oracle`. */
  perRole: { role: string; calls: number }[];
  /** `Agent`/`Task` calls of the main thread. */
  dispatches: number;
  /** Subagent tool calls per dispatch. */
  callsPerDispatch: number | null;
}

/** One subagent transcript. */
export interface SubagentFigures {
  /** The subpath's last part, e.g. `agent-a23a10da4e9177877`. */
  agent: string;
  sessionId: string;
  /** The manifest step the subagent ran in (by time), or `null`. */
  step: string | null;
  /** The worker's name: the `subagent_type` of the dispatch that started it, or `null` when unknown. */
  worker: string | null;
  /** The dispatch's task line (the first line of its prompt), or `null` when unknown. */
  task: string | null;
  modelTurns: number;
  toolCalls: number;
  outputTokens: number;
  pricedUsd: number;
}

/** Per-subagent figures and their spread. */
export interface Subagents {
  count: number;
  outputTokens: { max: number; median: number; min: number } | null;
  list: SubagentFigures[];
}

/** Cost per role: the manifest's step costs grouped by role (a coordinator's cost includes its workers'). */
export interface RoleCost {
  role: string;
  steps: number;
  costUsd: number;
  share: number | null;
}

/** A file count and total size. */
export interface FolderSize {
  path: string;
  files: number;
  bytes: number;
}

/** Section 6: the workbench where the run really kept it. */
export interface WorkbenchUse {
  /** The workbench root, or `null` when none was found. */
  path: string | null;
  /** Which rule placed it: `-W` (`run-dir`), `--isolate` (`isolated`), the default (`workspace`). */
  placement: 'run-dir' | 'isolated' | 'workspace' | null;
  spill: FolderSize | null;
  /** Trim's archives (`<workspace>/.flower/spill`), when not the same folder as `spill`. */
  trimArchives: FolderSize | null;
  scripts: FolderSize | null;
  artifacts: FolderSize | null;
  notes: FolderSize | null;
}

/** Scripts under `<workbench>/scripts/`: how often each was written and run. */
export interface ScriptReuse {
  /** Distinct scripts written by a Write/Edit call. */
  scripts: number;
  writes: number;
  /** Bash commands that ran a workbench script (one per script named in a command). */
  runs: number;
  /** Share of written scripts run at least twice. */
  reusedShare: number | null;
  neverRun: number;
  /** `runs / writes`. */
  ratio: number | null;
  top: { script: string; writes: number; runs: number }[];
}

/** What spill, trim and expiry kept out of the context. */
export interface Savings {
  spill: { results: number; chars: number };
  trim: {
    loads: number;
    expired: number;
    cleared: number;
    kept: number;
    charsSaved: number;
    pruned: number;
    denialsDropped: number;
    healed: number;
  };
}

/** The run's cost as it grew, from the event log's cost events (or the manifest when there is no log). */
export interface CostPoint {
  /** Epoch seconds. */
  at: number;
  step: string;
  /** Dollars spent so far. */
  costUsd: number;
}

/** The whole analysis. */
export interface RunAnalysis {
  schema: typeof ANALYSIS_SCHEMA;
  runDir: string;
  workspace: string | null;
  /** Which files were read (present or not). */
  sources: { sessions: boolean; manifest: boolean; events: boolean; aside: boolean };
  ledger: Ledger;
  roles: RoleCost[];
  economics: Economics;
  context: ContextCurve;
  cache: CacheUse;
  tools: Tools;
  subagents: Subagents;
  /** Where the money went, by role, step, session and subagent dispatch (`costBreakdown`); null without a store. */
  spend: CostBreakdown | null;
  workbench: WorkbenchUse;
  scriptReuse: ScriptReuse;
  savings: Savings;
  costOverTime: CostPoint[];
}
