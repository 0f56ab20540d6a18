import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import stringWidth from 'string-width';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { analysisHtml } from './analysis-html.js';
import { analysisLines } from './analysis-text.js';
import { analyzeRun } from './analyze-run.js';

let scratch: string | null = null;

afterEach(() => {
  if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  scratch = null;
});

/** A workspace with a run directory, both empty. */
function folders(): { workspace: string; runDir: string } {
  scratch = mkdtempSync(join(tmpdir(), 'flower-analyze-'));
  const workspace = join(scratch, 'app');
  const runDir = join(workspace, 'runs');
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, 'lineage.json'), JSON.stringify({ workspace, steps: {} }));
  return { workspace, runDir };
}

let clock = Date.parse('2026-12-01T10:00:00Z');
function at(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

/** One assistant entry of response `id` with `usage` and `content`. */
function assistant(id: string, context: number, content: unknown[], output = 10): Record<string, unknown> {
  return {
    type: 'assistant',
    uuid: `${id}-${Math.random()}`,
    timestamp: at(),
    message: {
      id,
      model: 'claude-sonnet-4-5',
      content,
      usage: { input_tokens: 10, cache_read_input_tokens: context - 10, output_tokens: output },
    },
  };
}

function toolUse(id: string, name: string, input: unknown): Record<string, unknown> {
  return { type: 'tool_use', id, name, input };
}

async function write(path: string, transcripts: Record<string, Record<string, unknown>[]>): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const store = new SqliteSessionStore(path);
  try {
    for (const [key, entries] of Object.entries(transcripts)) {
      const [projectKey = '', sessionId = '', ...rest] = key.split('/');
      await store.append(
        rest.length === 0 ? { projectKey, sessionId } : { projectKey, sessionId, subpath: rest.join('/') },
        // Entries of the SDK's shape, written as plain objects: every one has a `type`.
        entries as Parameters<SqliteSessionStore['append']>[1],
      );
    }
  } finally {
    store.close();
  }
}

function manifestRow(step: string, sessionId: string, cost: number, extra: Record<string, unknown> = {}) {
  return {
    step,
    session_id: sessionId,
    ok: true,
    cost_usd: cost,
    num_turns: 1,
    text: '',
    error: null,
    started_at: 0,
    ended_at: 0,
    attempts: 1,
    errors: [],
    resumed: false,
    retired: [],
    context: 0,
    duration_s: 3600,
    run: 'r1',
    ...extra,
  };
}

describe('analyzeRun', () => {
  test('a transcript is a subagent’s by its key depth, not by the word "subagent" in the project path', async () => {
    const { runDir } = folders();
    // The project key of /home/me/subagent-tools: the reference's substring test called this main thread a subagent.
    await write(join(runDir, 'sessions.db'), {
      '-home-me-subagent-tools/s1': [assistant('m1', 1000, [{ type: 'text', text: 'hi' }])],
      '-home-me-subagent-tools/s1/subagents/agent-a1': [assistant('m2', 500, [{ type: 'text', text: 'yo' }])],
    });
    const analysis = analyzeRun(runDir);
    expect(analysis.economics.main.transcripts).toBe(1);
    expect(analysis.economics.subagent.transcripts).toBe(1);
    expect(analysis.subagents.list.map((agent) => agent.agent)).toEqual(['agent-a1']);
  });

  test('names each subagent by its dispatch and attributes the spend by role (costBreakdown)', async () => {
    const { runDir } = folders();
    const dispatch = toolUse('tu1', 'Agent', {
      subagent_type: 'coder',
      description: 'parser',
      prompt: 'Write the parser\nwith tests',
    });
    await write(join(runDir, 'sessions.db'), {
      'p/s1': [assistant('m1', 1000, [dispatch])],
      'p/s1/subagents/agent-a1': [
        { type: 'user', message: { role: 'user', content: 'Write the parser\nwith tests' } },
        assistant('m2', 500, [{ type: 'text', text: 'done' }]),
      ],
    });
    writeFileSync(join(runDir, 'manifest.json'), JSON.stringify([manifestRow('work', 's1', 0.5)]));
    const analysis = analyzeRun(runDir);
    expect(analysis.subagents.list).toEqual([
      expect.objectContaining({ agent: 'agent-a1', worker: 'coder', task: 'Write the parser' }),
    ]);
    expect(analysis.spend?.roles.map((role) => role.role)).toEqual(['coordinator']);
    expect(analysis.spend?.subagentUsd).toBeCloseTo(analysis.economics.subagent.pricedUsd, 12);
    expect(analysis.spend?.totalUsd).toBeCloseTo(
      analysis.economics.main.pricedUsd + analysis.economics.subagent.pricedUsd,
      12,
    );
  });

  test('main sessions follow the manifest, not the store-key order, and a retired one is marked', async () => {
    const { runDir } = folders();
    // "zz…" sorts last by key but ran first.
    await write(join(runDir, 'sessions.db'), {
      'p/aa-second': [assistant('b1', 5000, [])],
      'p/zz-first': [assistant('a1', 1000, []), assistant('a2', 2000, [])],
    });
    writeFileSync(
      join(runDir, 'manifest.json'),
      JSON.stringify([
        manifestRow('work', 'zz-first', 1),
        manifestRow('work#round2', 'aa-second', 2, { retired: ['zz-first'] }),
      ]),
    );
    const analysis = analyzeRun(runDir);
    expect(analysis.context.sessions.map((session) => session.sessionId)).toEqual(['zz-first', 'aa-second']);
    expect(analysis.context.samples.map((point) => point.tokens)).toEqual([1000, 2000, 5000]);
    expect(analysis.context.first).toBe(1000);
    expect(analysis.context.min).toBe(1000);
    expect(analysis.context.sessions[0]?.retiredBy).toBe('work#round2');
    expect(analysis.ledger.steps.map((step) => step.handoffGenerations)).toEqual([0, 1]);
    expect(analysis.ledger.hours).toBe(2);
    expect(analysis.roles).toEqual([{ role: 'coordinator', steps: 2, costUsd: 3, share: 1 }]);
  });

  test('one API response stored as several entries counts once', async () => {
    const { runDir } = folders();
    const first = assistant('msg_1', 3000, [{ type: 'thinking', thinking: '…' }], 400);
    const second = { ...assistant('msg_1', 3000, [toolUse('t1', 'Read', { file_path: 'a' })], 400) };
    await write(join(runDir, 'sessions.db'), { 'p/s': [first, second] });
    const analysis = analyzeRun(runDir);
    expect(analysis.economics.main.entries).toBe(2);
    expect(analysis.economics.main.modelTurns).toBe(1);
    expect(analysis.economics.main.outputTokens).toBe(400);
    expect(analysis.cache.totalInputTokens).toBe(3000);
    expect(analysis.context.turns).toBe(1);
    expect(analysis.tools.main.calls).toBe(1);
  });

  test('no ratio divides by zero: an empty run gives nulls, never NaN', () => {
    const { runDir } = folders();
    writeFileSync(join(runDir, 'manifest.json'), '[]');
    const analysis = analyzeRun(runDir);
    expect(analysis.cache.hitRate).toBeNull();
    expect(analysis.tools.main.denialRate).toBeNull();
    expect(analysis.tools.callsPerDispatch).toBeNull();
    expect(analysis.economics.subagentShare.entries).toBeNull();
    expect(analysis.subagents.outputTokens).toBeNull();
    expect(analysis.scriptReuse.ratio).toBeNull();
    expect(JSON.stringify(analysis)).not.toMatch(/NaN|Infinity/);
    expect(analysisLines(analysis, 60).join('\n')).not.toMatch(/NaN|Infinity/);
  });

  test('a folder with no run is refused with a message that says what to give', () => {
    const { workspace } = folders();
    expect(() => analyzeRun(join(workspace, 'nothing'))).toThrow(/neither sessions\.db nor manifest\.json/);
  });

  test('denials are counted by the kind the transcript recorded, per group', async () => {
    const { runDir } = folders();
    const denied = (kind: string) => ({
      type: 'user',
      toolDenialKind: kind,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'x', content: 'no', is_error: true }],
      },
    });
    await write(join(runDir, 'sessions.db'), {
      'p/s': [
        assistant('m1', 100, [toolUse('t1', 'Bash', { command: 'which node' }), toolUse('t2', 'Agent', {})]),
        denied('permission-rule'),
      ],
      'p/s/subagents/agent-1': [
        assistant('m2', 100, [toolUse('t3', 'Bash', { command: 'ls' })]),
        denied('user-rejected'),
      ],
    });
    const analysis = analyzeRun(runDir);
    expect(analysis.tools.main.denialsByKind).toEqual([{ kind: 'permission-rule', count: 1 }]);
    expect(analysis.tools.main.denialRate).toBe(0.5);
    expect(analysis.tools.subagent.denialsByKind).toEqual([{ kind: 'user-rejected', count: 1 }]);
    expect(analysis.tools.mainBashVerbs).toEqual([{ verb: 'which', count: 1 }]);
    expect(analysis.tools.dispatches).toBe(1);
    expect(analysis.tools.callsPerDispatch).toBe(1);
  });

  test('the workbench is found where -W or --isolate put it; trim’s archives and the aside store are included', async () => {
    const { workspace, runDir } = folders();
    // -W: the workbench in the run directory; trim still archives under <workspace>/.flower/spill.
    mkdirSync(join(runDir, 'workbench', 'spill'), { recursive: true });
    writeFileSync(join(runDir, 'workbench', 'spill', 'a.txt'), 'x'.repeat(100));
    mkdirSync(join(workspace, '.flower', 'spill'), { recursive: true });
    writeFileSync(join(workspace, '.flower', 'spill', 'b.txt'), 'y'.repeat(250));
    await write(join(runDir, 'sessions.db'), { 'p/s': [assistant('m1', 100, [])] });
    await write(join(runDir, 'aside', 'sessions.db'), {
      'p/o': [assistant('o1', 700, [toolUse('t1', 'Read', { file_path: 'x' })])],
    });
    writeFileSync(join(runDir, 'aside', 'manifest.json'), JSON.stringify([manifestRow('aside', 'o', 0.5)]));
    const analysis = analyzeRun(runDir);
    expect(analysis.workbench.placement).toBe('run-dir');
    expect(analysis.workbench.spill).toMatchObject({ files: 1, bytes: 100 });
    expect(analysis.workbench.trimArchives).toMatchObject({ files: 1, bytes: 250 });
    expect(analysis.economics.aside.modelTurns).toBe(1);
    expect(analysis.tools.perRole).toContainEqual({ role: 'oracle', calls: 1 });
    expect(analysis.roles).toContainEqual({ role: 'oracle', steps: 1, costUsd: 0.5, share: 1 });

    // --isolate: beside the workspace, as .flower-<name>.
    rmSync(join(runDir, 'workbench'), { recursive: true });
    const isolated = join(dirname(workspace), `.flower-${basename(workspace)}`);
    mkdirSync(join(isolated, 'notes'), { recursive: true });
    expect(analyzeRun(runDir).workbench).toMatchObject({ path: isolated, placement: 'isolated' });
  });

  test('script reuse: writes and runs of workbench scripts', async () => {
    const { workspace, runDir } = folders();
    mkdirSync(join(workspace, '.flower', 'scripts'), { recursive: true });
    writeFileSync(join(workspace, '.flower', 'scripts', 'verify.sh'), 'desc: verify\n');
    const script = join(workspace, '.flower', 'scripts', 'verify.sh');
    await write(join(runDir, 'sessions.db'), {
      'p/s/subagents/agent-1': [
        assistant('m1', 100, [toolUse('t1', 'Write', { file_path: script, content: '#!/bin/sh' })]),
        assistant('m2', 100, [toolUse('t2', 'Edit', { file_path: '.flower/scripts/once.sh' })]),
        assistant('m3', 100, [toolUse('t3', 'Edit', { file_path: script })]),
        assistant('m4', 100, [
          toolUse('t4', 'Bash', { command: 'bash .flower/scripts/verify.sh && echo ok' }),
        ]),
        assistant('m5', 100, [toolUse('t5', 'Bash', { command: `sh ${script}` })]),
        assistant('m6', 100, [toolUse('t6', 'Bash', { command: 'bash .flower/scripts/verify.sh' })]),
      ],
    });
    const reuse = analyzeRun(runDir).scriptReuse;
    expect(reuse).toMatchObject({ scripts: 2, writes: 3, runs: 3, neverRun: 1, reusedShare: 0.5, ratio: 1 });
    expect(reuse.top[0]).toEqual({ script: 'verify.sh', writes: 2, runs: 3 });
  });

  test('the terminal view fits 60 columns and the report is one file with no script and no fetch', async () => {
    const { runDir } = folders();
    await write(join(runDir, 'sessions.db'), {
      'p/s': [assistant('m1', 1000, [toolUse('t1', 'mcp__a_very_long_server_name__and_a_long_tool', {})])],
    });
    writeFileSync(
      join(runDir, 'manifest.json'),
      JSON.stringify([manifestRow('a-custom-step-with-a-rather-long-name/verdict#12', 's', 1)]),
    );
    const analysis = analyzeRun(runDir);
    const lines = analysisLines(analysis, 60);
    // Block elements are East Asian Ambiguous: one column on the terminals bars are drawn for.
    const tooWide = lines.filter(
      (line) => stringWidth(line, { ambiguousIsNarrow: true }) > 60 && !line.includes(runDir),
    );
    expect(tooWide).toEqual([]);
    expect(lines.join('\n')).toContain('Main-thread context: 1 turns');
    const html = analysisHtml(analysis);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
  });
});
