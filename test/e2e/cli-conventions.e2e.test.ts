// The conventions of the CLIs people already use, end to end on the built CLI against the fake Messages API:
// `--json` (events as JSON lines on stdout, the human view on stderr), `flower status` (where a run stands,
// read-only, live or not), `flower completion bash` (loads in bash), and a run directory that keeps itself
// out of the user's git commits.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdtempSync } from 'node:fs';
import { join, relative } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import { readManifest, writeManifest } from '../../src/runtime/manifest.js';
import { EventLog, readRecentEvents } from '../../src/runtime/event-log.js';
import { errorOutcome } from '../../src/runtime/step-outcome.js';
import type { StepResult } from '../../src/runtime/step-result.js';
import type { RunStatus } from '../../src/runtime/run-status.js';
import {
  FakeAnthropicServer,
  MAIN_THREAD,
  message,
  scratchEnvironment,
  scriptTurns,
  text,
  toolUse,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { FLOWER_CLI, FlowerProcess, killStrayFlowers } from './support/flower-process.js';
import { git, gitWorkspace } from './support/git-workspace.js';
import { TmuxScreen } from './support/tmux-screen.js';

let server: FakeAnthropicServer | null = null;
let scratch: ScratchEnvironment | null = null;

afterEach(async () => {
  await killStrayFlowers();
  await server?.close();
  await scratch?.cleanup();
  server = null;
  scratch = null;
});

function flower(args: string[], env: Record<string, string>, cwd: string) {
  return execa('node', [FLOWER_CLI, ...args], { env, extendEnv: false, cwd, reject: false, timeout: 60_000 });
}

/** A hash of every file under `dir` (path, size, mode, content): any write, new file or removal changes it. */
function folderHash(dir: string): string {
  const hash = createHash('sha256');
  const walk = (path: string): void => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      const stat = statSync(full);
      hash.update(`${relative(dir, full)}\0${stat.mode}\0${stat.size}\0${stat.mtimeMs}\0`);
      if (stat.isDirectory()) walk(full);
      else hash.update(readFileSync(full));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

async function onceScript(): Promise<{ server: FakeAnthropicServer; scratch: ScratchEnvironment }> {
  server = await FakeAnthropicServer.start(
    scriptTurns({
      main: [
        message([toolUse('Bash', { command: 'echo hello > made.txt', description: 'make the file' })], {
          usage: { input_tokens: 30_000, output_tokens: 50 },
        }),
        message([text('Created made.txt.')], {
          usage: { input_tokens: 2_000, cache_read_input_tokens: 34_849, output_tokens: 20 },
        }),
      ],
    }),
  );
  scratch = await scratchEnvironment({ baseUrl: server.url });
  return { server, scratch };
}

describe('flower CLI conventions (e2e)', () => {
  test('once --json in a git repository: JSON events on stdout only, the human view on stderr, runs/ ignored by git; then status reads the run without changing a file', async () => {
    const { scratch } = await onceScript();
    const workspace = scratch.workspace;
    gitWorkspace(workspace);

    const subprocess = flower(
      ['-w', workspace, 'once', '--json', '-t', 'Bash', 'make the file'],
      scratch.env,
      scratch.dir,
    );
    const run = await subprocess;
    expect(run.exitCode, run.stderr).toBe(0);

    // stdout: nothing but events, one JSON object a line, each in the event log's format.
    const lines = run.stdout.split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      const event = JSON.parse(line) as Record<string, unknown>;
      expect(typeof event['kind']).toBe('string');
      expect(typeof event['text']).toBe('string');
      expect(typeof event['at']).toBe('number');
      expect(event['pid']).toBe(subprocess.pid);
      expect(event).not.toHaveProperty('raw');
    }
    // The event log's own reader accepts every line: the schema is events.jsonl's.
    const copy = mkdtempSync(join(scratch.dir, 'json-copy-'));
    writeFileSync(join(copy, 'events.jsonl'), `${run.stdout}\n`);
    expect(readRecentEvents(copy, { limit: 10_000 })).toHaveLength(lines.length);
    const kinds = lines.map((line) => (JSON.parse(line) as { kind: string }).kind);
    expect(kinds, kinds.join(' ')).toEqual(
      expect.arrayContaining(['tool_call', 'tool_result', 'text', 'result']),
    );
    // The answer is there as main-thread text; the result event carries the step's cost and turns.
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const answer = events.filter((event) => event['kind'] === 'text' && event['subagent'] === false);
    expect(answer.map((event) => event['text'])).toEqual(['Created made.txt.']);
    expect(events.find((event) => event['kind'] === 'result')).toMatchObject({ numTurns: 2, isError: false });
    // The human view is on stderr, the answer is not printed again on stdout.
    expect(run.stderr).toContain('  * Bash echo hello > made.txt');
    expect(run.stderr).toContain('Total cost $');
    expect(run.stdout).not.toMatch(/^Created made\.txt\.$/m);

    // runs/ holds the transcripts but git sees nothing of it; the agent's own file shows as usual.
    const runDir = join(workspace, 'runs');
    expect(existsSync(join(runDir, 'sessions.db'))).toBe(true);
    expect(readFileSync(join(runDir, '.gitignore'), 'utf8')).toBe('*\n');
    const porcelain = git(workspace, 'status', '--porcelain', '--untracked-files=all');
    expect(porcelain).not.toContain('runs/');
    expect(porcelain).toContain('made.txt');

    // status, text then --json: the finished run, not live; not one file of the workspace changes.
    const before = folderHash(workspace);
    const shown = await flower(['status', workspace], scratch.env, scratch.dir);
    expect(shown.exitCode, shown.stderr).toBe(0);
    const [row] = readManifest(runDir);
    expect(shown.stdout).toContain(`Run in ${workspace} · ${runDir}`);
    expect(shown.stdout).toMatch(/^not running · last activity \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/m);
    expect(shown.stdout).toContain(`  ad-hoc · ok · $${row!.cost_usd.toFixed(4)} · 2 turns · context 36.8K`);
    expect(shown.stdout).toContain(`total $${row!.cost_usd.toFixed(4)} · context 36.8K`);
    expect(shown.stderr).toBe('');
    const json = await flower(['-w', workspace, 'status', '--json'], scratch.env, scratch.dir);
    expect(json.exitCode, json.stderr).toBe(0);
    const status = JSON.parse(json.stdout) as RunStatus;
    expect(status).toMatchObject({ found: true, live: false, holder: null, runDir, costUsd: row!.cost_usd });
    expect(status.steps).toEqual([
      expect.objectContaining({ step: 'ad-hoc', state: 'ok', turns: 2, context: 36_849 }),
    ]);
    expect(folderHash(workspace)).toBe(before);
  });

  test('a run directory outside a git work tree gets no .gitignore', async () => {
    const { scratch } = await onceScript();
    const run = await flower(
      ['-w', scratch.workspace, 'once', '-t', 'Bash', 'make the file'],
      scratch.env,
      scratch.dir,
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(join(scratch.workspace, 'runs', 'sessions.db'))).toBe(true);
    expect(existsSync(join(scratch.workspace, 'runs', '.gitignore'))).toBe(false);
  });

  test('status of a run in progress says it is live, with the pid of the flower driving it', async () => {
    let reached: () => void = () => undefined;
    const atRequest = new Promise<void>((resolve) => (reached = resolve));
    server = await FakeAnthropicServer.start((request) => {
      if (request.thread !== MAIN_THREAD) return message([text('ok')]);
      reached();
      return { kind: 'hang' };
    });
    scratch = await scratchEnvironment({ baseUrl: server.url });
    const running = new FlowerProcess(['-w', scratch.workspace, 'once', 'think hard'], {
      cwd: scratch.dir,
      env: scratch.env,
    });
    await Promise.race([
      atRequest,
      running.exited.then((exit) => {
        throw new Error(`flower ended (${exit.code ?? exit.signal}) before its request:\n${running.stderr}`);
      }),
    ]);

    const shown = await flower(['status', scratch.workspace], scratch.env, scratch.dir);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^live: pid ${running.child.pid} on \\S+, since `, 'm'));
    const json = await flower(
      ['status', '--json', join(scratch.workspace, 'runs')],
      scratch.env,
      scratch.dir,
    );
    const status = JSON.parse(json.stdout) as RunStatus;
    expect(status.live).toBe(true);
    expect(status.holder?.pid).toBe(running.child.pid);
    await running.crash();

    const after = await flower(['status', scratch.workspace], scratch.env, scratch.dir);
    expect(after.stdout).toMatch(/^not running/m);
  });

  test('status on a terminal of 60 and 120 columns wraps at word boundaries; piped, lines stay whole', async () => {
    scratch = await scratchEnvironment({ baseUrl: 'http://127.0.0.1:9' });
    const runDir = join(scratch.workspace, 'runs');
    const step = {
      sessionId: 's-work',
      numTurns: 3,
      text: '',
      startedAt: 1_754_380_800,
      endedAt: 1_754_380_860,
      attempts: 1,
      errors: [],
      resumed: false,
      retired: [],
      context: 36_849,
    };
    const failure = 'npm test still fails in test/parse.test.ts after three attempts';
    writeManifest(runDir, 'run-1', [
      {
        ...step,
        step: 'clarify',
        ok: true,
        costUsd: 0.0123,
        error: null,
        outcome: { kind: 'ok' },
        numTurns: 1,
      },
      { ...step, step: 'work', ok: false, costUsd: 0.4567, error: failure, outcome: errorOutcome(failure) },
    ] as StepResult[]);
    const log = new EventLog(runDir, { pid: 999_999_999 });
    const reason = 'check 2 fails: clock --utc prints local time';
    log.sink({
      kind: 'verdict',
      text: '',
      at: 1_754_380_900,
      step: 'judge',
      round: 1,
      state: 'NOT_YET',
      reason,
      failed: ['2'],
    });
    log.close();
    const workLine = `  work · failed · $0.4567 · 3 turns · context 36.8K · ${failure}`;

    const piped = await flower(['status'], scratch.env, scratch.workspace);
    expect(piped.stdout.split('\n')).toContain(workLine);

    for (const columns of [60, 120]) {
      const screen = await TmuxScreen.start({
        command: [process.execPath, FLOWER_CLI, 'status'],
        env: scratch.env,
        cwd: scratch.workspace,
        columns,
        scratch: scratch.dir,
      });
      try {
        const rows = await screen.waitFor('[exit 0]', 30_000);
        // flower's own line breaks only: no row is wider than the screen, so the terminal folded nothing.
        expect(await screen.capture({ joined: true })).toEqual(rows);
        for (const row of rows) expect(row.length).toBeLessThanOrEqual(columns);
        const text = rows.join(' ').replace(/\s+/g, ' ');
        // Every word arrives whole, in order.
        expect(text).toContain(workLine.trim());
        expect(text).toContain(`verdict round 1: NOT_YET · ${reason}`);
        // Wider than 60 columns, narrower than the 110 flower's lines are held to on a wide terminal.
        const verdictLine = `verdict round 1: NOT_YET · ${reason}`;
        if (columns === 120) expect(rows).toContain(verdictLine);
        else expect(rows).not.toContain(verdictLine);
      } finally {
        await screen.kill();
      }
    }
  });

  test('status in a folder without a run: one line on stderr, exit 1', async () => {
    scratch = await scratchEnvironment({ baseUrl: 'http://127.0.0.1:9' });
    const before = folderHash(scratch.workspace);
    const run = await flower(['status'], scratch.env, scratch.workspace);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      `No flower run in ${scratch.workspace} (nothing in ${join(scratch.workspace, 'runs')}); start one with: flower "..."`,
    ]);
    expect(existsSync(join(scratch.workspace, 'runs'))).toBe(false);
    expect(folderHash(scratch.workspace)).toBe(before);
  });

  test('completion bash loads in bash and registers flower; zsh and fish scripts are produced', async () => {
    scratch = await scratchEnvironment({ baseUrl: 'http://127.0.0.1:9' });
    const loaded = execFileSync(
      'bash',
      ['-c', `source <("${process.execPath}" "${FLOWER_CLI}" completion bash); complete -p flower`],
      { encoding: 'utf8', env: scratch.env },
    );
    expect(loaded.trim()).toBe('complete -o default -F _flower_completion flower');
    const zsh = await flower(['completion', 'zsh'], scratch.env, scratch.dir);
    expect(zsh.exitCode).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef flower\n/);
    expect(zsh.stdout).toContain("'status:Where the run of a folder stands");
    const fish = await flower(['completion', 'fish'], scratch.env, scratch.dir);
    expect(fish.exitCode).toBe(0);
    expect(fish.stdout).toContain('complete -c flower -n __fish_use_subcommand -f -a completion');
    const wrong = await flower(['completion', 'tcsh'], scratch.env, scratch.dir);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain(
      "'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.",
    );
  });
});
