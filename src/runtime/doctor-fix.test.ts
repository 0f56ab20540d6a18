// fixRun on a real sessions.db: a session whose main and subagent transcripts are both broken is repaired
// into one new session holding both, the lineage step follows it and the doctor afterwards has one note for
// the original; a session that cannot be repaired without cutting an entry is left alone, nothing written.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { at, content, fixture, recorded } from '../../test/fixtures/transcripts/broken-corpus.js';
import { projectKey } from '../agent/project-key.js';
import type { Entry } from '../session/entry-content.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { API_REQUEST_LIMIT_BYTES } from '../session/transcript-checks.js';
import { fixRun } from './doctor-fix.js';
import { Lineage } from './lineage.js';
import { runDoctor } from './run-doctor.js';

const BROKEN = '22222222-2222-4222-8222-222222222222';
const HUGE = '44444444-4444-4444-8444-444444444444';
const COPY = '55555555-5555-4555-8555-555555555555';

let scratch: string | null = null;

afterEach(() => {
  if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  scratch = null;
});

async function run(sessions: Record<string, { main: Entry[]; subagent?: Entry[] }>) {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'flower-doctor-fix-')));
  const workspace = join(scratch, 'workspace');
  const runDir = join(workspace, 'runs');
  mkdirSync(runDir, { recursive: true });
  const path = join(runDir, 'sessions.db');
  const store = new SqliteSessionStore(path);
  const key = projectKey(workspace);
  for (const [sessionId, { main, subagent }] of Object.entries(sessions)) {
    await store.append({ projectKey: key, sessionId }, main);
    if (subagent !== undefined)
      await store.append({ projectKey: key, sessionId, subpath: fixture.subpath }, subagent);
  }
  store.close();
  return { workspace, runDir, path, key };
}

async function stored(path: string, key: { projectKey: string; sessionId: string; subpath?: string }) {
  const store = new SqliteSessionStore(path, { readonly: true });
  try {
    return (await store.load(key)) ?? [];
  } finally {
    store.close();
  }
}

describe('fixRun', () => {
  test('main and subagent transcripts repaired into one new session; lineage and doctor follow it', async () => {
    const main = recorded();
    (main[at(main, 'dd5a10')]!['message'] as { content: unknown }).content = [];
    const subagent = structuredClone(fixture.subagent);
    content(subagent[at(subagent, 'ecb5d2')]!)[0]!['tool_use_id'] = 'toolu_nowhere';
    const { workspace, runDir, path, key } = await run({ [BROKEN]: { main, subagent } });
    Lineage.open(runDir, workspace).remember('work', BROKEN);
    const original = JSON.stringify(await stored(path, { projectKey: key, sessionId: BROKEN }));

    const fix = await fixRun(runDir, await runDoctor(runDir), { newSessionId: () => COPY });

    expect(fix.notFixed).toEqual([]);
    expect(fix.lineageProblem).toBeNull();
    expect(fix.fixed).toHaveLength(1);
    expect(fix.fixed[0]).toMatchObject({ sessionId: BROKEN, newSessionId: COPY, steps: ['work'] });
    expect(fix.fixed[0]?.repairs.map((repair) => [repair.kind, repair.subpath])).toEqual([
      ['dropped-empty-message', null],
      ['dropped-orphan-result', fixture.subpath],
      ['answered-unknown-outcome', fixture.subpath],
    ]);
    expect(JSON.stringify(await stored(path, { projectKey: key, sessionId: BROKEN }))).toBe(original);
    const copied = await stored(path, { projectKey: key, sessionId: COPY, subpath: fixture.subpath });
    expect(copied.length).toBeGreaterThan(0);
    expect(copied.every((entry) => entry['repairedFrom'] === BROKEN)).toBe(true);
    const lineage = JSON.parse(readFileSync(join(runDir, 'lineage.json'), 'utf8')) as { steps: unknown };
    expect(lineage.steps).toEqual({ work: COPY });

    const after = await runDoctor(runDir);
    expect(after.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    expect(
      after.findings.filter((finding) => finding.sessionId === BROKEN).map((finding) => finding.rule),
    ).toEqual(['session-repaired']);
    // Nothing left to repair.
    expect(await fixRun(runDir, after)).toEqual({ fixed: [], notFixed: [], lineageProblem: null });
  });

  test('a session with an entry over the request limit is not repaired and nothing is written', async () => {
    const huge = recorded();
    content(huge[at(huge, 'a80d4f')]!)[0]!['content'] = 'x'.repeat(API_REQUEST_LIMIT_BYTES + 1);
    (huge[at(huge, 'dd5a10')]!['message'] as { content: unknown }).content = [];
    const { runDir, path, key } = await run({ [HUGE]: { main: huge } });
    const fix = await fixRun(runDir, await runDoctor(runDir), { newSessionId: () => COPY });
    expect(fix.fixed).toEqual([]);
    expect(
      fix.notFixed.map((item) => [item.sessionId, item.findings.map((finding) => finding.rule)]),
    ).toEqual([[HUGE, ['oversized-entry']]]);
    expect(await stored(path, { projectKey: key, sessionId: COPY })).toEqual([]);
  });

  test('a lineage that names no workspace is left as it is, and the report says why', async () => {
    const main = recorded();
    (main[at(main, 'dd5a10')]!['message'] as { content: unknown }).content = [];
    const { runDir } = await run({ [BROKEN]: { main } });
    writeFileSync(join(runDir, 'lineage.json'), JSON.stringify({ steps: { work: BROKEN } }));
    const fix = await fixRun(runDir, await runDoctor(runDir), { newSessionId: () => COPY });
    expect(fix.fixed[0]?.steps).toEqual([]);
    expect(fix.lineageProblem).toBe(
      `${join(runDir, 'lineage.json')} names no workspace, so it was left as it is`,
    );
    expect(JSON.parse(readFileSync(join(runDir, 'lineage.json'), 'utf8'))).toEqual({
      steps: { work: BROKEN },
    });
  });
});
