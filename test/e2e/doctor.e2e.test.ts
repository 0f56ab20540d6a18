// `flower doctor` end to end: the built CLI reads a run directory made in the test — a real sessions.db
// holding the transcript Claude Code 2.1.334 recorded (test/fixtures/transcripts), broken copies of it, a
// manifest, a lineage and a processes.json — and says what is wrong, grouped by severity, as JSON, with the
// exit code of the spec; on a terminal at 60 and 120 columns (tmux) and piped. No model is involved: the
// doctor only reads.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import { projectKey } from '../../src/agent/project-key.js';
import type { Entry } from '../../src/session/entry-content.js';
import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import { ToolJournal } from '../../src/session/tool-journal.js';
import Database from 'better-sqlite3';
import { FLOWER_CLI } from './support/flower-process.js';
import { TmuxScreen } from './support/tmux-screen.js';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/transcripts/claude-code-2.1.334.json', import.meta.url), 'utf8'),
) as { main: Entry[]; subagent: Entry[]; subpath: string };

const SOUND = '11111111-1111-4111-8111-111111111111';
const BROKEN = '22222222-2222-4222-8222-222222222222';
const RETIRED = '33333333-3333-4333-8333-333333333333';

let scratch: string | null = null;
let screen: TmuxScreen | null = null;

afterEach(async () => {
  await screen?.kill();
  screen = null;
  if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  scratch = null;
});

/** The recorded main transcript up to its last model reply (without the resumed prompt that failed). */
function recorded(): Entry[] {
  const copy = structuredClone(fixture.main);
  return copy.slice(
    0,
    copy.findIndex((entry) => String(entry['uuid']).startsWith('03d94f')),
  );
}

function indexOf(entries: Entry[], prefix: string): number {
  return entries.findIndex((entry) => String(entry['uuid']).startsWith(prefix));
}

/** A workspace with `runs/` holding the given transcripts (session id → entries) and records. */
async function runDirectory(
  sessions: Record<string, Entry[]>,
  records: { manifest?: unknown; lineage?: unknown; processes?: unknown } = {},
): Promise<{ workspace: string; runDir: string }> {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'flower-doctor-e2e-')));
  const workspace = join(scratch, 'workspace');
  const runDir = join(workspace, 'runs');
  mkdirSync(runDir, { recursive: true });
  const store = new SqliteSessionStore(join(runDir, 'sessions.db'));
  for (const [sessionId, entries] of Object.entries(sessions)) {
    await store.append({ projectKey: projectKey(workspace), sessionId }, entries);
  }
  store.close();
  if (records.manifest !== undefined)
    writeFileSync(join(runDir, 'manifest.json'), JSON.stringify(records.manifest));
  if (records.lineage !== undefined)
    writeFileSync(join(runDir, 'lineage.json'), JSON.stringify(records.lineage));
  if (records.processes !== undefined) {
    writeFileSync(join(runDir, 'processes.json'), JSON.stringify(records.processes));
  }
  return { workspace, runDir };
}

function row(step: string, sessionId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    step,
    session_id: sessionId,
    ok: true,
    cost_usd: 0,
    num_turns: 1,
    text: '',
    error: null,
    started_at: 0,
    ended_at: 1,
    attempts: 1,
    errors: [],
    resumed: false,
    retired: [],
    context: 0,
    duration_s: 1,
    run: 'r1',
    ...extra,
  };
}

async function doctor(cwd: string, ...args: string[]) {
  return execa('node', [FLOWER_CLI, 'doctor', ...args], {
    cwd,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: scratch ?? cwd,
      LANG: 'C.UTF-8',
      NO_COLOR: '1',
    },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
}

/** The recorded transcript with its last reply emptied and the result of its last Bash call cut. */
function broken(): Entry[] {
  const entries = recorded();
  (entries[indexOf(entries, 'dd5a10')]!['message'] as { content: unknown }).content = [];
  return entries.filter((_, index) => index !== indexOf(entries, 'a80d4f'));
}

describe('flower doctor (e2e)', () => {
  test('a sound run: no problem found, exit 0', async () => {
    const { workspace } = await runDirectory(
      { [SOUND]: recorded() },
      { manifest: [row('work', SOUND)], lineage: { steps: { work: SOUND } } },
    );
    const result = await doctor(workspace);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('1 transcript checked');
    expect(result.stdout).toContain('No problem found.');
  });

  test('a broken transcript: errors before warnings, each rule with its meaning, exit 1', async () => {
    const { runDir } = await runDirectory({ [SOUND]: recorded(), [BROKEN]: broken() });
    const result = await doctor(runDir, runDir);
    expect(result.exitCode).toBe(1);
    const lines = result.stdout.split('\n');
    const errors = lines.indexOf('Errors (2)');
    const warnings = lines.indexOf('Warnings (1)');
    expect(errors).toBeGreaterThan(0);
    expect(warnings).toBeGreaterThan(errors);
    const errorPart = lines.slice(errors, warnings).join('\n');
    expect(errorPart).toContain(
      '  empty-content (1): a message has no content; the Messages API answers 400',
    );
    expect(errorPart).toContain('  broken-parent (1): an entry names a parent that is not stored');
    expect(errorPart).toMatch(/ {4}- session 22222222, entry \d+: assistant message with empty content/);
    expect(errorPart).toContain('    What to do: ');
    const warningPart = lines.slice(warnings).join('\n');
    expect(warningPart).toMatch(/unanswered-tool-use \(1\): a tool call has no result/);
    expect(warningPart).toContain('flower heals this every time it loads the transcript');
    expect(lines.at(-1)).toBe('2 errors: exit 1.');
  });

  test('--json: every finding with its area, rule, severity and place, and the counts', async () => {
    const { runDir } = await runDirectory({ [BROKEN]: broken() });
    const result = await doctor(runDir, runDir, '--json');
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout) as {
      transcripts: number;
      counts: Record<string, number>;
      findings: Array<Record<string, unknown>>;
    };
    expect(report.transcripts).toBe(1);
    expect(report.counts).toEqual({ error: 2, warning: 1, info: 0 });
    expect(report.findings.map((finding) => [finding['area'], finding['rule'], finding['severity']])).toEqual(
      [
        ['transcript', 'unanswered-tool-use', 'warning'],
        ['transcript', 'broken-parent', 'error'],
        ['transcript', 'empty-content', 'error'],
      ],
    );
    expect(report.findings[2]).toMatchObject({ sessionId: BROKEN, subpath: null });
    expect(String(report.findings[2]?.['uuid'])).toMatch(/^dd5a10/);
  });

  test('warnings alone exit 0', async () => {
    const cut = recorded();
    const { runDir } = await runDirectory({ [BROKEN]: cut.slice(0, indexOf(cut, '0b1e8c') + 1) });
    const result = await doctor(runDir, runDir, '--json');
    expect(result.exitCode).toBe(0);
    expect((JSON.parse(result.stdout) as { counts: unknown }).counts).toEqual({
      error: 0,
      warning: 1,
      info: 0,
    });
  });

  test('manifest, lineage and processes: a session in two steps, a retired one resumed, a missing one', async () => {
    const { runDir } = await runDirectory(
      { [SOUND]: recorded(), [RETIRED]: recorded() },
      {
        manifest: [
          row('work', RETIRED),
          row('work', SOUND, { retired: [RETIRED] }),
          row('judge', SOUND),
          row('work', RETIRED, { resumed: true }),
        ],
        lineage: { steps: { work: RETIRED, plan: '44444444-4444-4444-8444-444444444444' } },
        // A flower killed long ago: its pid is not running and its last heartbeat is decades old.
        processes: [
          {
            pid: 999_999_99,
            started: null,
            host: 'h',
            since: 1,
            beat: 1,
            token: 't',
            go: false,
            sessions: [],
            children: [],
          },
        ],
      },
    );
    const result = await doctor(runDir, runDir, '--json');
    expect(result.exitCode).toBe(1);
    const findings = (JSON.parse(result.stdout) as { findings: Array<Record<string, unknown>> }).findings;
    expect(findings.map((finding) => [finding['rule'], finding['sessionId']])).toEqual([
      ['session-in-two-steps', SOUND],
      ['retired-session-resumed', RETIRED],
      ['lineage-resumes-retired', RETIRED],
      ['lineage-session-missing', '44444444-4444-4444-8444-444444444444'],
      ['leftover-process-record', null],
    ]);
  });

  test('a subagent transcript, the summary and the tool journal are checked too', async () => {
    const { workspace, runDir } = await runDirectory({ [SOUND]: recorded() });
    const path = join(runDir, 'sessions.db');
    const store = new SqliteSessionStore(path);
    const subagent = structuredClone(fixture.subagent);
    (subagent.findLast((entry) => entry.type === 'assistant')!['message'] as { content: unknown }).content =
      [];
    await store.append(
      { projectKey: projectKey(workspace), sessionId: SOUND, subpath: fixture.subpath },
      subagent,
    );
    store.close();
    // A call the gate let through whose transcript entry was never written (the run was killed first).
    const journal = new ToolJournal(path);
    const lost = { toolName: 'Bash', input: { command: 'make' }, startedAt: 1, agentId: null };
    journal.record({ sessionId: SOUND, toolUseId: 'toolu_lost_in_the_kill', ...lost });
    journal.close();
    // A summary another writer left behind: it names a first prompt the transcript does not have.
    const database = new Database(path);
    const row = JSON.parse(
      (database.prepare('SELECT data FROM summaries WHERE session_id = ?').get(SOUND) as { data: string })
        .data,
    ) as { data: Record<string, unknown> };
    row.data['firstPrompt'] = 'a prompt nobody wrote';
    database.prepare('UPDATE summaries SET data = ? WHERE session_id = ?').run(JSON.stringify(row), SOUND);
    database.close();

    const result = await doctor(runDir, runDir, '--json');
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout) as {
      transcripts: number;
      findings: Array<Record<string, unknown>>;
    };
    expect(report.transcripts).toBe(2);
    expect(report.findings.map((finding) => [finding['area'], finding['rule'], finding['subpath']])).toEqual([
      ['summary', 'summary-disagrees', null],
      ['transcript', 'empty-content', fixture.subpath],
      ['journal', 'journal-call-not-in-transcript', null],
    ]);
  });

  test('a folder without a run: one line on stderr, exit 1', async () => {
    scratch = realpathSync(mkdtempSync(join(tmpdir(), 'flower-doctor-e2e-')));
    const result = await doctor(scratch);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `No run in ${join(scratch, 'runs')}. Give the run directory (or its workspace) as the argument.`,
    );
  });

  test.each([60, 120])('on a %i-column terminal every line fits and no word is cut', async (columns) => {
    const { runDir } = await runDirectory({ [BROKEN]: broken() });
    screen = await TmuxScreen.start({
      command: ['node', FLOWER_CLI, 'doctor', runDir],
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: scratch!,
        LANG: 'C.UTF-8',
        NO_COLOR: '1',
        TERM: 'xterm',
      },
      cwd: scratch!,
      columns,
      rows: 60,
      scratch: scratch!,
    });
    const rows = await screen.waitFor('[exit 1]', 30_000);
    const text = rows.join('\n');
    for (const line of rows) expect(line.length).toBeLessThanOrEqual(columns);
    expect(text).toContain('Errors (2)');
    expect(text).toContain('Warnings (1)');
    // Wrapped lines continue indented under their start, whole words only.
    expect(rows.some((line) => line.startsWith('      '))).toBe(true);
    expect(text).not.toMatch(/\bresum\n|\bMessa\n/);
  });
});
