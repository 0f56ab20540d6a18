/**
 * The engine of `flower chaos` (docs/reliability.md, "flower chaos"; docs/decisions.md D331): runs a scenario once cleanly against
 * flower's fake Messages API to learn its message boundaries (each request the fake receives is one), then,
 * for each boundary and fault, runs it in a fresh folder with the fault injected at that boundary, reruns
 * `flower` in the same folder to the end, and checks the result against the clean run. Library code: it
 * reports through `onCase`, never prints.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeAnthropicServer, type ServedMessage } from '../testing/fake-anthropic-server.js';
import type { FakeRequest } from '../testing/request-matching.js';
import {
  finalFiles,
  manifestSteps,
  costMatches,
  manifestValid,
  servedCost,
  unrecordedServed,
  noApiErrorFedBack,
  noEntryLost,
  noQuestionRepeated,
  noRepeatedEffect,
  questionsAsked,
  sameFiles,
} from './chaos-checks.js';
import {
  faultResponse,
  REFUSE_SECONDS,
  STALL_WATCHDOG_SECONDS,
  unrecordedReason,
  type ChaosFault,
} from './chaos-fault.js';
import { FullDisk } from './full-disk.js';
import { errorMessage } from '../internal/error-text.js';
import type { ChaosScenario } from './chaos-scenario.js';

/** Where one run of the scenario lives. */
export interface ChaosFolder {
  root: string;
  workspace: string;
  home: string;
  claudeConfig: string;
  tmp: string;
}

/** Options of {@link runChaos}. */
export interface ChaosOptions {
  scenario: ChaosScenario;
  faults: readonly ChaosFault[];
  /** `node <cli>` runs flower (the built `dist/cli/main.js`). */
  cli: string;
  /** Parent of the scratch folders (removed after each case unless `keep`). */
  parent: string;
  /** The child environment for a folder and the fake's URL (no credentials of the user's). */
  environment(folder: ChaosFolder, url: string): Record<string, string>;
  /** Cases run at the same time (each has its own fake, folder and processes); default 1. */
  parallel?: number;
  /** Only these boundaries (1-based); default all. */
  boundaries?: readonly number[];
  /** Milliseconds a faulted first run may take before it is killed (a stall the client never notices). */
  firstRunLimitMs?: number;
  /** Milliseconds the rerun may take before it counts as not finished. */
  rerunLimitMs?: number;
  /** Keep the folder of each failed case, with the requests the fake received in `requests.json`. */
  keepFailed?: boolean;
  /** Called as each case ends, in the order they end. */
  onCase?(outcome: ChaosOutcome): void;
}

/** One case's result. */
export interface ChaosOutcome {
  boundary: number;
  fault: ChaosFault;
  passed: boolean;
  /** Why it failed (the first check that did not hold), or what happened when it passed. */
  reason: string;
  /** Wall time of the case in ms (both runs). */
  ms: number;
  /**
   * Null when the manifest's cost equals the cost of the usage the fake served; else how they differ. Part
   * of `passed` (the last check): a killed process's rows are completed from the store and the child's own
   * transcript (docs/decisions.md D336 and D337), so nothing served is missing and nothing counted twice.
   */
  cost: string | null;
  /**
   * Null when every answer the fake served is in a record of the run; else how many were not and what they
   * cost: answers Claude Code had used but not yet written when a SIGKILL took it (docs/decisions.md D339).
   */
  unrecorded: string | null;
  /** The case's folder when it failed and `keepFailed` was set. */
  kept?: string;
}

/** The whole result. */
export interface ChaosReport {
  scenario: string;
  /** Message boundaries of the clean run. */
  boundaries: number;
  /** Wall time of the clean run in ms. */
  cleanMs: number;
  /** Null when the clean run finished and passed its own checks; else why the matrix was not run. */
  cleanFailure: string | null;
  cases: ChaosOutcome[];
}

/** How one flower process ended. */
interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** A flower process in its own process group, so one SIGKILL takes flower, Claude Code and their tools. */
class FlowerChild {
  readonly exited: Promise<Exit>;
  readonly #pid: number | undefined;

  constructor(
    cli: string,
    args: string[],
    cwd: string,
    env: Record<string, string>,
    limitMs: number,
    disk: FullDisk | null,
  ) {
    const command =
      disk === null
        ? { command: process.execPath, args: [cli, ...args] }
        : disk.wrap(process.execPath, [cli, ...args], cwd);
    const child = spawn(command.command, command.args, {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#pid = child.pid;
    let output = '';
    const keep = (chunk: Buffer): void => {
      // The tail is enough to say why a run failed.
      output = (output + chunk.toString()).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => this.kill(), limitMs);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, output });
      }),
    );
  }

  kill(): void {
    if (this.#pid === undefined) return;
    try {
      process.kill(-this.#pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

const MESSAGES_PATH = '/v1/messages';

function makeFolder(parent: string): ChaosFolder {
  const root = mkdtempSync(join(parent, 'flower-chaos-'));
  const folder = {
    root,
    workspace: join(root, 'workspace'),
    home: join(root, 'home'),
    claudeConfig: join(root, 'claude-config'),
    tmp: join(root, 'tmp'),
  };
  for (const path of [folder.workspace, folder.home, folder.claudeConfig, folder.tmp]) mkdirSync(path);
  return folder;
}

/** One run of the scenario in a fresh folder: a first run with the fault, then a rerun; both runs' requests. */
async function runCase(
  options: ChaosOptions,
  fault: ChaosFault | null,
  boundary: number,
): Promise<{
  folder: ChaosFolder;
  requests: FakeRequest[];
  served: ServedMessage[];
  first: Exit;
  rerun: Exit | null;
  ms: number;
  /** Why the fault could not be set up (a case that then says so rather than running). */
  setupFailure: string | null;
}> {
  const started = Date.now();
  const folder = makeFolder(options.parent);
  const script = options.scenario.script();
  let seen = 0;
  let current: FlowerChild | null = null;
  let faulting = fault !== null;
  let server: FakeAnthropicServer | null = null;
  const requests: FakeRequest[] = [];
  // A full disk is a small file system over the run directory, filled at the boundary (docs/decisions.md D340).
  let disk: FullDisk | null = null;
  if (fault === 'disk-full') {
    const runs = join(folder.workspace, 'runs');
    mkdirSync(runs);
    try {
      disk = await FullDisk.mount(runs);
    } catch (error) {
      const none: Exit = { code: null, signal: null, output: '' };
      return {
        folder,
        requests,
        served: [],
        first: none,
        rerun: null,
        ms: 0,
        setupFailure: errorMessage(error),
      };
    }
  }
  server = await FakeAnthropicServer.start(async (request) => {
    requests.push(request);
    seen += 1;
    if (faulting && seen === boundary) {
      faulting = false;
      if (fault === 'sigkill') {
        current?.kill();
        return { kind: 'destroy' };
      }
      if (fault === 'disk-full') {
        disk?.fill();
        return script(request);
      }
      if (fault === 'refuse') {
        const fake = server;
        if (fake !== null) {
          void fake.goOffline();
          setTimeout(() => void fake.goOnline(), REFUSE_SECONDS * 1_000);
        }
        return { kind: 'destroy' };
      }
      const answer = faultResponse(fault as ChaosFault);
      if (answer !== null) return answer;
    }
    return script(request);
  });
  try {
    const env = {
      ...options.environment(folder, server.url),
      ...options.scenario.env,
      // flower's stall watchdog at its default (120 s) would outlast the case; it fires the same way sooner.
      ...(fault === 'stall' ? { FLOWER_STALL_TIMEOUT: String(STALL_WATCHDOG_SECONDS) } : {}),
    };
    const args = options.scenario.args(folder.workspace);
    const start = (limitMs: number): FlowerChild =>
      new FlowerChild(options.cli, args, folder.workspace, env, limitMs, disk);
    current = start(options.firstRunLimitMs ?? 180_000);
    const first = await current.exited;
    faulting = false;
    // The space returns before the rerun.
    disk?.free();
    // A fault the first run survived on its own leaves a finished run, and `flower go` in a finished folder
    // starts new work (a new goal and round), so only a run the fault stopped is run again.
    current = fault === null || first.code === 0 ? null : start(options.rerunLimitMs ?? 180_000);
    const rerun = current === null ? null : await current.exited;
    await server.goOnline();
    disk?.copyOut();
    return {
      folder,
      requests: requests.filter((request) => request.path === MESSAGES_PATH),
      served: [...server.served],
      first,
      rerun,
      ms: Date.now() - started,
      setupFailure: null,
    };
  } finally {
    await server.close();
    await disk?.close();
  }
}

function exitText(exit: Exit): string {
  return exit.signal ?? `exit ${exit.code}`;
}

function lastLine(output: string): string {
  const lines = output
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '');
  return (lines.at(-1) ?? '').trim().slice(0, 160);
}

/**
 * Null when the first run of a full disk stopped as a deliberate stop does: exit 1, its last line saying
 * the disk is full (what is wrong; flower's line also says what to do), and no stack trace; else why not.
 * A run that finished (exit 0) also passes here: the checks then judge what it left.
 */
function stoppedCleanly(first: Exit): string | null {
  if (first.code === 0) return null;
  if (first.code !== 1)
    return `first run did not stop cleanly: ${exitText(first)}: ${lastLine(first.output)}`;
  const trace = /^\s+at .+:\d+:\d+\)?$/m.exec(first.output);
  if (trace !== null) return `first run printed a stack trace: ${trace[0].trim().slice(0, 160)}`;
  return /no space left/i.test(lastLine(first.output))
    ? null
    : `first run did not say the disk is full: ${lastLine(first.output)}`;
}

/** Runs the clean run and the matrix. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const clean = await runCase(options, null, 0);
  const report: ChaosReport = {
    scenario: options.scenario.name,
    boundaries: clean.requests.length,
    cleanMs: clean.ms,
    cleanFailure: null,
    cases: [],
  };
  const runDir = (folder: ChaosFolder): string => join(folder.workspace, 'runs');
  const expectedFiles = finalFiles(clean.folder.workspace);
  const steps = manifestSteps(runDir(clean.folder));
  const questionLog = options.scenario.questionLog;
  const questions = (folder: ChaosFolder): number =>
    questionLog === null ? 0 : questionsAsked(join(folder.workspace, questionLog));
  const expectedQuestions = questions(clean.folder);
  const check = (folder: ChaosFolder, requests: FakeRequest[], last: Exit): string | null =>
    (last.code === 0 ? null : `not finished: ${exitText(last)}: ${lastLine(last.output)}`) ??
    sameFiles(expectedFiles, finalFiles(folder.workspace)) ??
    noRepeatedEffect(requests, options.scenario.effects) ??
    noQuestionRepeated(expectedQuestions, questions(folder)) ??
    noEntryLost(requests, runDir(folder)) ??
    noApiErrorFedBack(requests) ??
    manifestValid(runDir(folder), steps);
  report.cleanFailure =
    check(clean.folder, clean.requests, clean.first) ?? costMatches(runDir(clean.folder), clean.served);
  rmSync(clean.folder.root, { recursive: true, force: true });
  if (report.cleanFailure !== null) return report;

  const wanted = options.boundaries ?? Array.from({ length: report.boundaries }, (_, index) => index + 1);
  const cases: Array<[number, ChaosFault]> = [];
  for (const boundary of wanted.filter((value) => value >= 1 && value <= report.boundaries)) {
    for (const fault of options.faults) cases.push([boundary, fault]);
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const [boundary, fault] = cases[next++] as [number, ChaosFault];
      const run = await runCase(options, fault, boundary);
      // The cost is the last check: a case that holds every other one fails on a cost other than served,
      // less the answers a SIGKILL or a full disk left in no record at all (reported beside it,
      // docs/decisions.md D339, D352).
      const unrecordedWhy = unrecordedReason(fault);
      const lost = unrecordedWhy === null ? [] : unrecordedServed(runDir(run.folder), run.served);
      const cost = costMatches(runDir(run.folder), run.served, lost);
      const failure =
        run.setupFailure ??
        (fault === 'disk-full' ? stoppedCleanly(run.first) : null) ??
        check(run.folder, run.requests, run.rerun ?? run.first) ??
        cost;
      const outcome: ChaosOutcome = {
        boundary,
        fault,
        passed: failure === null,
        reason:
          failure ??
          // A full disk's first run stops with a message; what it said is part of what passed.
          `first run ${exitText(run.first)}${fault === 'disk-full' && run.first.code !== 0 ? ` (${lastLine(run.first.output)})` : ''}, rerun ${run.rerun === null ? '-' : exitText(run.rerun)}`,
        ms: run.ms,
        cost,
        unrecorded:
          lost.length === 0
            ? null
            : `${lost.length} served answer(s), $${servedCost(lost).toFixed(6)}, ${unrecordedWhy}`,
      };
      if (failure !== null && options.keepFailed === true) {
        writeFileSync(join(run.folder.root, 'requests.json'), JSON.stringify(run.requests, null, 1));
        outcome.kept = run.folder.root;
      } else {
        rmSync(run.folder.root, { recursive: true, force: true });
      }
      report.cases.push(outcome);
      options.onCase?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel ?? 1) }, worker));
  report.cases.sort(
    (left, right) =>
      left.boundary - right.boundary ||
      options.faults.indexOf(left.fault) - options.faults.indexOf(right.fault),
  );
  return report;
}
