// `flower demo` end to end (decisions.md D16): the built CLI (`node dist/cli/main.js`, built by `npm test`)
// runs the whole go path against the scripted model it bundles — real SDK, real Claude Code binary, flower's
// own fake Messages API on 127.0.0.1 — with a scratch HOME and no ANTHROPIC_* variables. The user's `.env`
// points at a closed port with a key: if the demo used either, it would fail.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import { projectKey } from '../../src/agent/project-key.js';
import { uiText } from '../../src/config/ui-text.js';
import { DEMO_OPTIONS, DEMO_QUESTION } from '../../src/demo/demo-replies.js';
import { BEQUEST_BEGIN } from '../../src/roles/bequest.js';
import { Brief } from '../../src/roles/brief.js';
import { Goal } from '../../src/roles/goal.js';
import { HandoffDocument } from '../../src/roles/handoff-document.js';
import { Verdict } from '../../src/roles/verdict.js';
import { readManifest } from '../../src/runtime/manifest.js';
import { closedPortUrl } from '../../src/testing/index.js';
import { FLOWER_CLI } from './support/flower-process.js';

let scratch: string | null = null;

afterEach(() => {
  if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  scratch = null;
});

describe('flower demo (e2e)', () => {
  test('runs the whole go path against the bundled scripted model and keeps every file of the run', async () => {
    scratch = realpathSync(mkdtempSync(join(tmpdir(), 'flower-demo-e2e-')));
    const home = join(scratch, 'home');
    mkdirSync(join(home, '.config', 'flower'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'flower', '.env'),
      `ANTHROPIC_BASE_URL=${await closedPortUrl()}\nANTHROPIC_API_KEY=sk-ant-api-not-for-the-demo\n`,
    );
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: scratch,
      LANG: 'C.UTF-8',
      NO_COLOR: '1',
    };

    // `flower demo > demo.log`: with standard output redirected, the transcript goes to the file.
    const log = join(scratch, 'demo.log');
    const run = await execa('node', [FLOWER_CLI, 'demo'], {
      env,
      extendEnv: false,
      cwd: scratch,
      reject: false,
      timeout: 100_000,
      stdout: { file: log },
    });
    const transcript = readFileSync(log, 'utf8');
    expect(run.exitCode, `${transcript}${String(run.stderr)}`).toBe(0);
    expect(String(run.stderr)).toBe('');
    // The handoff notice is said once: its "writing" line carries the context, the document's head does not.
    expect(transcript.split('\n').filter((line) => line.includes('152.3/200K'))).toEqual([
      '# context 152.3/200K — the session is writing its handoff document…',
    ]);

    // Said plainly at the start and at the end: the model is scripted, and where the files are.
    const lines = transcript.split('\n');
    expect(lines[0]).toMatch(
      /^flower demo: the model here is scripted\. .* on http:\/\/127\.0\.0\.1:\d+: no credentials/,
    );
    const folder = /^Run folder: (.+)$/m.exec(transcript)?.[1] ?? '';
    expect(folder.startsWith(join(scratch, 'flower-demo-'))).toBe(true);
    const closing = transcript.slice(transcript.lastIndexOf('Total cost $'));
    expect(closing).toContain(uiText('demo.end'));
    expect(closing).toContain(uiText('demo.kept', { path: folder }));

    // The notes: the frozen brief with the answer the stand-in human gave, the goal, the Q&A log, the handoff.
    const workspace = join(folder, 'workspace');
    const notes = join(workspace, '.flower', 'notes');
    const brief = Brief.load(join(notes, 'brief.md'));
    expect(brief?.complete()).toBe(true);
    expect(brief?.unknowns).toContain(DEMO_OPTIONS[0]);
    expect(Goal.load(join(notes, 'goal.md'))?.checks).toHaveLength(3);
    const qaLog = readFileSync(join(notes, 'qa-log.md'), 'utf8');
    expect(qaLog).toContain(DEMO_QUESTION);
    expect(qaLog).toContain(DEMO_OPTIONS[0]);
    const handoff = HandoffDocument.parse(readFileSync(join(notes, 'handoff-work.md'), 'utf8'));
    expect(handoff.degraded).toBe(false);
    expect(handoff.next).toContain('README.md');

    // The worker's program, written and tested for real; its long test log spilled.
    expect(readFileSync(join(workspace, 'wc.js'), 'utf8')).toContain('module.exports = { count }');
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toContain('## Usage');
    const spilled = readdirSync(join(workspace, '.flower', 'spill')).map((name) =>
      readFileSync(join(workspace, '.flower', 'spill', name), 'utf8'),
    );
    expect(
      spilled.some((log) => log.length >= 4_000 && log.includes('ok 150 - ') && log.includes('# fail 0')),
    ).toBe(true);
    expect(readFileSync(join(workspace, 'CLAUDE.md'), 'utf8')).toContain(BEQUEST_BEGIN);

    // The manifest: clarify, goal, two judged rounds (NOT_YET, then ACHIEVED after a handoff), the bequest.
    const rows = readManifest(join(workspace, 'runs'));
    expect(rows.map((row) => row.step)).toEqual([
      'clarify',
      'goal',
      'work',
      'work/verdict#1',
      'work#round2',
      'work/verdict#2',
      'bequest',
    ]);
    const row = (step: string) => rows.find((candidate) => candidate.step === step);
    expect(Verdict.parse(row('work/verdict#1')?.text ?? '').state).toBe('NOT_YET');
    expect(Verdict.parse(row('work/verdict#2')?.text ?? '').state).toBe('ACHIEVED');
    const first = row('work')?.session_id ?? '';
    const successor = row('work#round2')?.session_id ?? '';
    expect(row('work#round2')?.retired).toEqual([first]);
    expect(successor).not.toBe(first);

    // The transcripts in runs/sessions.db: the coordinator's sessions and each one's worker.
    const database = new Database(join(workspace, 'runs', 'sessions.db'), { readonly: true });
    try {
      const project = projectKey(realpathSync(workspace));
      const count = (pattern: string): number =>
        (
          database.prepare('SELECT count(*) AS n FROM entries WHERE store_key LIKE ?').get(pattern) as {
            n: number;
          }
        ).n;
      for (const session of [first, successor]) {
        expect(count(`${project}/${session}`), `main transcript of ${session}`).toBeGreaterThan(0);
        expect(
          count(`${project}/${session}/subagents/agent-%`),
          `worker transcript of ${session}`,
        ).toBeGreaterThan(0);
      }
    } finally {
      database.close();
    }
  });
});
