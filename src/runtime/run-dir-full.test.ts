import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AgentBackend, AgentQuery, AgentRequest } from '../agent/agent-backend.js';
import { agentSpec } from '../agent/agent-spec.js';
import type { HookInput } from '../agent/claude-sdk.js';
import { isFlowerError } from '../errors.js';
import { JOURNAL_FAILED_REASON } from '../guards/journal-hook.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { ScriptedBackend } from '../testing/scripted-backend.js';
import { scriptedTurn } from '../testing/scripted-turn.js';
import { FileRunRecords } from './file-run-records.js';
import type { RowsChange, RunRecords } from './run-records.js';
import { isNoSpaceError, runDirFullText } from './run-dir-full.js';
import { Runtime } from './runtime.js';

const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const spec = agentSpec({ name: 'ad-hoc', instructions: 'be brief' });

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-run-dir-full-')));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The error Node's fs gives a write that found no space. */
function noSpace(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
}

/** The manifest files of `runDir`, whose row writes fail with `failure()` while it returns an error. */
function failingRecords(runDir: string, failure: () => Error | null): RunRecords {
  const real = new FileRunRecords(runDir);
  return Object.assign(Object.create(real) as RunRecords, {
    updateRows: (...args: Parameters<RunRecords['updateRows']>) => {
      const error = failure();
      if (error !== null) throw error;
      return real.updateRows(...args);
    },
  });
}

/**
 * The scripted backend, with `before` run as each query starts: there a test writes to the store or asks
 * the hooks as Claude Code would, before the turn's messages come.
 */
class WritingBackend implements AgentBackend {
  readonly scripted: ScriptedBackend;
  readonly #before: (request: AgentRequest, index: number) => Promise<void>;
  #index = 0;

  constructor(scripted: ScriptedBackend, before: (request: AgentRequest, index: number) => Promise<void>) {
    this.scripted = scripted;
    this.#before = before;
  }

  query(request: AgentRequest, signal: AbortSignal): AgentQuery {
    const index = this.#index++;
    const inner = this.scripted.query(request, signal);
    const before = this.#before;
    return Object.assign(
      (async function* () {
        await before(request, index);
        yield* inner;
      })(),
      { interrupt: () => inner.interrupt(), close: () => inner.close() },
    );
  }
}

/** The PreToolUse answers every hook of `request` gives a call, as Claude Code would ask them. */
async function askPreToolUse(request: AgentRequest, sessionId: string): Promise<unknown[]> {
  const input = {
    hook_event_name: 'PreToolUse',
    session_id: sessionId,
    transcript_path: '/tmp/t.jsonl',
    cwd: '/workspace',
    tool_name: 'Write',
    tool_input: { file_path: 'a.txt', content: 'a' },
    tool_use_id: 'toolu_write',
  } as HookInput;
  const answers: unknown[] = [];
  for (const matcher of request.options.hooks?.PreToolUse ?? []) {
    for (const hook of matcher.hooks) {
      answers.push(await hook(input, 'toolu_write', { signal: new AbortController().signal }));
    }
  }
  return answers;
}

/** The rejection of `promise`, or null when it resolved. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

describe('isNoSpaceError', () => {
  test('knows the file system, quota and SQLite codes, also as a cause', () => {
    expect(isNoSpaceError(noSpace())).toBe(true);
    expect(isNoSpaceError(Object.assign(new Error('quota'), { code: 'EDQUOT' }))).toBe(true);
    expect(
      isNoSpaceError(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })),
    ).toBe(true);
    expect(isNoSpaceError(new Error('write failed', { cause: noSpace() }))).toBe(true);
    expect(isNoSpaceError(Object.assign(new Error('denied'), { code: 'EACCES' }))).toBe(false);
    expect(isNoSpaceError(new Error('ENOSPC in the text only'))).toBe(false);
    expect(isNoSpaceError('ENOSPC')).toBe(false);
    expect(isNoSpaceError(null)).toBe(false);
  });
});

describe('Runtime with a full run directory', () => {
  test('a manifest write that finds no space cuts the step and stops the run before its next step', async () => {
    let full = false;
    const runDir = join(dir, 'ws', 'runs');
    const backend = new ScriptedBackend([
      scriptedTurn('sess-1', 'first'),
      scriptedTurn('sess-2', 'second'),
      scriptedTurn('sess-3', 'never'),
    ]);
    const runtime = new Runtime({
      workspace: join(dir, 'ws'),
      config,
      backend,
      records: failingRecords(runDir, () => (full ? noSpace() : null)),
    });
    expect((await runtime.run(spec, 'one')).ok).toBe(true);

    full = true;
    // Cut at its first write (the in-flight row): it did not finish, its session stays resumable, and the
    // step itself says why (it may be the run's last).
    const second = await rejection(runtime.run(spec, 'two'));
    expect(isFlowerError(second) && second.code).toBe('RUN_DIR_FULL');
    expect(runtime.results.at(-1)?.ok).toBe(false);
    expect(runtime.uiErrors).toContain('manifest: Error: ENOSPC: no space left on device, write');

    full = false;
    const third = await runtime.run(spec, 'three').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isFlowerError(third) && third.code).toBe('RUN_DIR_FULL');
    expect((third as Error).message).toBe(runDirFullText(runDir));
    expect((third as Error).message.split('\n')).toHaveLength(1);
    expect(backend.requests).toHaveLength(2);
    await runtime.close();
  });

  test('a write that fails for another reason is recorded and the run goes on', async () => {
    const runDir = join(dir, 'ws', 'runs');
    const denied = Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' });
    let failing = true;
    const runtime = new Runtime({
      workspace: join(dir, 'ws'),
      config,
      backend: new ScriptedBackend([scriptedTurn('sess-1', 'first'), scriptedTurn('sess-2', 'second')]),
      records: failingRecords(runDir, () => (failing ? denied : null)),
    });
    expect((await runtime.run(spec, 'one')).ok).toBe(true);
    expect(runtime.uiErrors[0]).toBe('manifest: Error: EACCES: permission denied, open');
    failing = false;
    expect((await runtime.run(spec, 'two')).ok).toBe(true);
    await runtime.close();
  });

  test('a transcript append that finds no space cuts the step at once and stops the run', async () => {
    const runDir = join(dir, 'ws', 'runs');
    const store = new SqliteSessionStore(join(dir, 'sessions.db'));
    let full = false;
    const appended: string[] = [];
    const failing = Object.assign(Object.create(store) as SqliteSessionStore, {
      append: async (...args: Parameters<SqliteSessionStore['append']>) => {
        if (full) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
        appended.push(args[0].sessionId);
        return store.append(...args);
      },
    });
    const backend = new WritingBackend(
      new ScriptedBackend([scriptedTurn('sess-1', 'first'), scriptedTurn('sess-2', 'second')]),
      async (request, index) => {
        full = index === 1;
        // Claude Code's mirror: the SDK hears the refusal and goes on, so the error stops here.
        await request.options.sessionStore
          ?.append({ projectKey: 'p', sessionId: `sess-${index + 1}` }, [{ type: 'user', uuid: `u${index}` }])
          .catch(() => undefined);
      },
    );
    const runtime = new Runtime({
      workspace: join(dir, 'ws'),
      config,
      backend,
      store: failing,
      records: new FileRunRecords(runDir),
    });
    expect((await runtime.run(spec, 'one')).ok).toBe(true);
    // The scripted turn of the second step would succeed: the refused append cut it before its result.
    const second = await rejection(runtime.run(spec, 'two'));
    expect(isFlowerError(second) && second.code).toBe('RUN_DIR_FULL');
    expect(runtime.results.at(-1)?.error).toBe('killed-by-signal');
    expect(appended).toEqual(['sess-1']);
    // Its row stays unfinished, as a kill leaves it, for the next process to complete from every record.
    expect(new FileRunRecords(runDir).readRows().map((row) => row.ended_at === 0)).toEqual([false, true]);
    const third = await rejection(runtime.run(spec, 'three'));
    expect(isFlowerError(third) && third.code).toBe('RUN_DIR_FULL');
    expect(backend.scripted.requests).toHaveLength(2);
    await runtime.close();
    store.close();
  });

  test('a journal row that finds no space denies the call and stops the run', async () => {
    const runDir = join(dir, 'ws', 'runs');
    const store = new SqliteSessionStore(join(dir, 'sessions.db'));
    let full = false;
    const journal = {
      record: () => {
        if (full) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    };
    const withJournal = Object.assign(Object.create(store) as SqliteSessionStore, { toolJournal: journal });
    const answers: unknown[][] = [];
    const backend = new WritingBackend(
      new ScriptedBackend([scriptedTurn('sess-1', 'first'), scriptedTurn('sess-2', 'second')]),
      async (request, index) => {
        full = index === 1;
        answers.push(await askPreToolUse(request, `sess-${index + 1}`));
      },
    );
    const runtime = new Runtime({
      workspace: join(dir, 'ws'),
      config,
      backend,
      store: withJournal,
      records: new FileRunRecords(runDir),
    });
    expect((await runtime.run(spec, 'one')).ok).toBe(true);
    expect(JSON.stringify(answers[0])).not.toContain('deny');
    const second = await rejection(runtime.run(spec, 'two'));
    expect(isFlowerError(second) && second.code).toBe('RUN_DIR_FULL');
    expect(runtime.results.at(-1)?.ok).toBe(false);
    expect(answers[1]).toContainEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: JOURNAL_FAILED_REASON,
      },
    });
    const third = await rejection(runtime.run(spec, 'three'));
    expect(isFlowerError(third) && third.code).toBe('RUN_DIR_FULL');
    expect(backend.scripted.requests).toHaveLength(2);
    await runtime.close();
    store.close();
  });

  test('a step whose last row finds no space did not finish: a gate must not freeze its product', async () => {
    const runDir = join(dir, 'ws', 'runs');
    const real = new FileRunRecords(runDir);
    let full = false;
    const records = Object.assign(Object.create(real) as RunRecords, {
      updateRows: (tag: string, change: RowsChange) =>
        real.updateRows(tag, (current) => {
          // Only the finished row of the second step fails: every write while it ran went through.
          const next = change(current);
          if (full && next?.some((row) => row.step === 'second' && row.ended_at !== 0)) throw noSpace();
          return next;
        }),
    });
    const backend = new WritingBackend(
      new ScriptedBackend([scriptedTurn('sess-1', 'first'), scriptedTurn('sess-2', 'second')]),
      (_request, index) => {
        full = index === 1;
        return Promise.resolve();
      },
    );
    const runtime = new Runtime({ workspace: join(dir, 'ws'), config, backend, records });
    expect((await runtime.run(spec, 'one', { stepName: 'first' })).ok).toBe(true);
    const second = await rejection(runtime.run(spec, 'two', { stepName: 'second' }));
    expect(isFlowerError(second) && second.code).toBe('RUN_DIR_FULL');
    expect(runtime.results.at(-1)?.error).toBe('killed-by-signal');
    // The manifest still holds the row the step wrote while it ran: the rerun resumes it.
    const row = real.readRows().find((each) => each.step === 'second');
    expect(row?.ended_at).toBe(0);
    const third = await rejection(runtime.run(spec, 'three'));
    expect(isFlowerError(third) && third.code).toBe('RUN_DIR_FULL');
    await runtime.close();
  });
});
