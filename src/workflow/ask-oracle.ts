/**
 * The side channel (docs/human-channel.md, docs/roles.md): a human's question about a run in
 * progress, answered by a read-only oracle on a runtime of its own — `<runDir>/aside`, with its own
 * `sessions.db` and `manifest.json` — from the run's recent events and its workbench. The run never waits
 * and never hears of it: nothing the oracle says reaches the run's context, events or manifest. Asking the
 * coordinator instead would keep the Q&A in its decision context for good and stall the work.
 *
 * @module
 */
import { join } from 'node:path';
import type { AgentBackend } from '../agent/agent-backend.js';
import { loadConfig } from '../config/load-config.js';
import { errorText } from '../internal/error-text.js';
import { oracle } from '../roles/oracle.js';
import { Runtime } from '../runtime/runtime.js';
import type { RuntimeOptions } from '../runtime/runtime-options.js';
import type { Workbench } from '../workbench/workbench.js';
import { STEP_NAMES } from './step-names.js';

/** The aside runtime's folder inside the run directory (docs/continuity.md). */
export const ASIDE_DIR = 'aside';

/** Options of {@link askOracle}. */
export interface AskOracleOptions {
  /** The run's workspace: the oracle reads there. */
  workspace: string;
  /** The run's directory; the oracle's runtime uses `<runDir>/aside`. */
  runDir: string;
  /** The run's recent events as window lines (`RecentWindow.lines()`), oldest first. */
  recent: readonly string[];
  /** The run's workbench, shared read-only; none when absent. */
  workbench?: Workbench | null;
  /** Runs the oracle; the real SDK when absent. */
  backend?: AgentBackend;
  /** Aborting stops the oracle at once. */
  signal?: AbortSignal;
  /** Loaded configuration; `loadConfig()` when absent. */
  config?: RuntimeOptions['config'];
}

/** The outcome of {@link askOracle}. */
export interface OracleAnswer {
  ok: boolean;
  /** The answer (may be empty), or one line saying why there is none. */
  text: string;
  /** Dollars the oracle spent. */
  costUsd: number;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function failure(error: unknown): OracleAnswer {
  const text = errorText(error);
  return { ok: false, text: oneLine(text), costUsd: 0 };
}

/** The oracle's prompt: the question, the recent events, and where to look (English, model-facing). */
export function oraclePrompt(
  question: string,
  recent: readonly string[],
  workspace: string,
  workbench: Workbench | null,
): string {
  const events =
    recent.length === 0
      ? 'No events of the run have been recorded yet.'
      : [
          `The run's ${recent.length} most recent events, oldest first (\`[kind/tool·main|subagent] text\`):`,
          '',
          ...recent,
        ].join('\n');
  const where =
    workbench === null
      ? `The run has no workbench; its workspace is ${workspace}. Look there before you answer.`
      : [
          `The run's workbench is ${workbench.root}: read its frozen brief and goal (${workbench.notesFile('brief')},`,
          `${workbench.notesFile('goal')}), the other notes in ${workbench.notes} and the reports in`,
          `${workbench.artifacts} before you answer, and cite the files you used. The workspace is ${workspace}.`,
        ].join('\n');
  return [`The person watching the run asks:`, '', question.trim(), '', events, '', where].join('\n');
}

/**
 * `config` without a store location: the oracle's rows and transcript stay in `<runDir>/aside` also when the
 * run is on a server (`FLOWER_STORE`), where they would otherwise land among the run's own records under its
 * run name — an answer to a side question is no step of the run.
 */
function localOnly(config: NonNullable<AskOracleOptions['config']>): NonNullable<AskOracleOptions['config']> {
  return { ...config, env: { ...config.env, FLOWER_STORE: '' } };
}

/**
 * Answers `question` about the run in `runDir` with the oracle, on a separate runtime that is closed
 * afterwards. Never rejects: any failure (missing credentials, the API, an abort) is `ok: false` with one
 * line of text.
 */
export async function askOracle(question: string, options: AskOracleOptions): Promise<OracleAnswer> {
  const workbench = options.workbench ?? null;
  let runtime: Runtime;
  try {
    runtime = new Runtime({
      workspace: options.workspace,
      runDir: join(options.runDir, ASIDE_DIR),
      // Never `true`: that would mean a workbench inside the aside folder, not the run's.
      workbench: workbench ?? false,
      resilience: false,
      ...(options.backend === undefined ? {} : { backend: options.backend }),
      config: localOnly(options.config ?? loadConfig()),
    });
  } catch (error) {
    return failure(error);
  }
  try {
    const prompt = oraclePrompt(question, options.recent, runtime.workspace, workbench);
    const result = await runtime.run(oracle(STEP_NAMES.aside, { workbench }), prompt, {
      stepName: STEP_NAMES.aside,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (result.ok) return { ok: true, text: result.text.trim(), costUsd: result.costUsd };
    return { ok: false, text: oneLine(result.error ?? 'no answer'), costUsd: result.costUsd };
  } catch (error) {
    return failure(error);
  } finally {
    await runtime.close();
  }
}
