// Truncation fuzz: a multi-tool session recorded with the real SDK is cut after every entry; for every cut,
// load() through all three layers must give a transcript that passes the validator, and resuming it with the
// real SDK must produce a request that a fake API enforcing the tool_use/tool_result rule (400, like the real
// API) accepts. A crash can leave a transcript cut anywhere, so every cut must stay resumable.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import type { HookCallbackMatcher, SDKSystemMessage } from '../../src/agent/claude-sdk.js';
import { valueText } from '../../src/internal/value-text.js';
import type { Entry } from '../../src/session/entry-content.js';
import { EphemeralPolicy } from '../../src/session/ephemeral-policy.js';
import { expireLayer } from '../../src/session/expire-layer.js';
import { journalLayer } from '../../src/session/journal-layer.js';
import { layeredStore } from '../../src/session/layered-store.js';
import { emptyLoadReport, type LoadReport } from '../../src/session/load-report.js';
import { PgSessionStore } from '../../src/session/pg-session-store.js';
import { pruneLayer } from '../../src/session/prune-layer.js';
import { PrunePolicy } from '../../src/session/prune-policy.js';
import { PruningSessionStore } from '../../src/session/pruning-session-store.js';
import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import { trimLayer } from '../../src/session/trim-layer.js';
import { TrimPolicy } from '../../src/session/trim-policy.js';
import { validateTranscript } from '../../src/session/validate-transcript.js';
import {
  FakeAnthropicServer,
  message,
  scratchEnvironment,
  text,
  thinking,
  toolUse,
  type FakeRequest,
  type ScratchEnvironment,
} from '../../src/testing/index.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { runQuery } from './support/run-query.js';

/** Denies `rm …` (recorded as `toolDenialKind: 'permission-rule'`), allows everything else. */
const guard: HookCallbackMatcher = {
  hooks: [
    (input) => {
      const command = (input as { tool_input?: { command?: unknown } }).tool_input?.command;
      const deny = typeof command === 'string' && command.startsWith('rm ');
      return Promise.resolve({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: deny ? 'deny' : 'allow',
          ...(deny ? { permissionDecisionReason: 'rm is not allowed here' } : {}),
        },
      });
    },
  ],
};

interface Recording {
  projectKey: string;
  sessionId: string;
  main: Entry[];
  subagents: Array<{ subpath: string; entries: Entry[] }>;
}

let scratch: ScratchEnvironment;
let recording: Recording;

/**
 * Main-thread replies by turn, packed so the transcript stays short (each cut costs one resume): thinking,
 * text and two parallel Bash calls (a glance and a large output); a Read; an Edit in parallel with a glance
 * and a denied call; a foreground subagent; a lone denied call; a closing text.
 */
function mainTurn(turn: number, workspace: string): ReturnType<typeof message> {
  const file = join(workspace, 'notes.txt');
  const turns = [
    [
      thinking('Look around first.'),
      text('Looking.'),
      toolUse('Bash', { command: 'ls -la' }),
      toolUse('Bash', { command: 'seq 1 1200' }),
    ],
    [toolUse('Read', { file_path: file })],
    [
      toolUse('Edit', { file_path: file, old_string: 'line 7\n', new_string: 'line seven\n' }),
      toolUse('Bash', { command: 'ls' }),
      toolUse('Bash', { command: 'rm -rf junk' }),
    ],
    [
      toolUse('Agent', {
        description: 'count',
        prompt: 'Count the files.',
        subagent_type: 'counter',
        run_in_background: false,
      }),
    ],
    [toolUse('Bash', { command: 'rm -rf build' })],
    [text('All done.')],
  ];
  return message(turns[Math.min(turn, turns.length - 1)] ?? [text('All done.')]);
}

async function record(): Promise<Recording> {
  let failing = false;
  const server = await FakeAnthropicServer.start((request: FakeRequest) => {
    if (failing) return { kind: 'status', status: 529 };
    if (request.thread !== 'main') {
      return request.turn === 0
        ? message([toolUse('Bash', { command: 'ls | wc -l' })])
        : message([text('3 files.')]);
    }
    return mainTurn(request.turn, scratch.workspace);
  });
  try {
    const store = new SqliteSessionStore(join(scratch.dir, 'recording.db'));
    const options = {
      env: { ...scratch.env, ANTHROPIC_BASE_URL: server.url, CLAUDE_CODE_MAX_RETRIES: '1' },
      cwd: scratch.workspace,
      settingSources: [],
      hooks: { PreToolUse: [guard] },
      agents: { counter: { description: 'Counts files', prompt: 'You count files.', tools: ['Bash'] } },
      sessionStore: store,
      sessionStoreFlush: 'eager' as const,
    };
    const first = await runQuery('Tidy the notes.', options);
    expect(first.result).toMatchObject({ is_error: false, result: 'All done.' });
    const init = first.messages.find(
      (entry): entry is SDKSystemMessage => entry.type === 'system' && entry.subtype === 'init',
    );
    const sessionId = init?.session_id ?? '';
    // A second prompt that fails with 529s: leaves a system api_error entry and a synthetic API-error leaf.
    failing = true;
    const second = await runQuery('And the rest?', { ...options, resume: sessionId });
    expect(second.result?.is_error).toBe(true);
    const projectKey = store.projects()[0] ?? '';
    const main = (await store.load({ projectKey, sessionId })) ?? [];
    const subagents = [];
    for (const subpath of await store.listSubkeys({ projectKey, sessionId })) {
      subagents.push({ subpath, entries: (await store.load({ projectKey, sessionId, subpath })) ?? [] });
    }
    store.close();
    return { projectKey, sessionId, main, subagents };
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  scratch = await scratchEnvironment();
  writeFileSync(
    join(scratch.workspace, 'notes.txt'),
    Array.from({ length: 300 }, (_, index) => `line ${index}\n`).join(''),
  );
  recording = await record();
}, 90_000);

afterAll(async () => {
  await scratch.cleanup();
});

/** Runs `work` over `items` with at most `limit` at once (two cores: one Claude Code child per core). */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: limit }, async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

describe('truncation fuzz', () => {
  test('the recording covers the shapes the pipeline rewrites', () => {
    const types = recording.main.map((entry) => `${entry.type}/${valueText(entry['subtype'])}`);
    expect(types).toContain('system/api_error');
    expect(recording.main.filter((entry) => entry['isApiErrorMessage'] === true)).toHaveLength(1);
    expect(recording.main.filter((entry) => entry['toolDenialKind'] === 'permission-rule')).toHaveLength(2);
    expect(recording.subagents).toHaveLength(1);
    expect(recording.main.length).toBeGreaterThan(30);
  });

  test('every cut loads into a valid transcript and resumes against an API that enforces tool pairs', async () => {
    const server = await FakeAnthropicServer.start(() => message([text('Resumed.')]), {
      enforceToolPairs: true,
    });
    const agentCall = recording.main.findIndex((entry) =>
      JSON.stringify(entry['message'] ?? '').includes('"name":"Agent"'),
    );
    const invalid: string[] = [];
    const failedResumes: string[] = [];
    let rawInvalid = 0;
    let resumed = 0;
    const totals: LoadReport = emptyLoadReport();
    try {
      const cuts = Array.from({ length: recording.main.length }, (_, index) => index + 1);
      await eachLimited(cuts, 2, async (cut) => {
        const directory = join(scratch.dir, `cut-${cut}`);
        mkdirSync(directory);
        const store = new PruningSessionStore(join(directory, 'sessions.db'), scratch.workspace, {
          trim: new TrimPolicy({ keepRecent: 1 }),
          ephemeral: new EphemeralPolicy({ keepRecent: 1 }),
        });
        try {
          const key = { projectKey: recording.projectKey, sessionId: recording.sessionId };
          const raw = recording.main.slice(0, cut);
          if (validateTranscript(raw).length > 0) rawInvalid += 1;
          await store.append(key, raw);
          // A subagent transcript exists once its Agent call has started.
          if (cut > agentCall) {
            for (const subagent of recording.subagents)
              await store.append({ ...key, subpath: subagent.subpath }, subagent.entries);
          }
          const loaded = (await store.load(key)) ?? [];
          const problems = validateTranscript(loaded);
          if (problems.length > 0) invalid.push(`cut ${cut}: ${JSON.stringify(problems)}`);
          const report = store.reportFor(key) ?? emptyLoadReport();
          for (const field of ['expired', 'cleared', 'pruned', 'denialsDropped', 'healed'] as const)
            totals[field] += report[field];

          const configDir = join(directory, 'claude-config');
          mkdirSync(configDir);
          const prompt = `Carry on (cut ${cut}).`;
          const outcome = await runQuery(prompt, {
            env: { ...scratch.env, ANTHROPIC_BASE_URL: server.url, CLAUDE_CONFIG_DIR: configDir },
            cwd: scratch.workspace,
            settingSources: [],
            hooks: { PreToolUse: [guard] },
            sessionStore: store,
            resume: recording.sessionId,
          });
          const conversation = raw.some((entry) => entry.type === 'user' || entry.type === 'assistant');
          if (!conversation) {
            // Nothing but queue markers: the CLI has no conversation to resume and says so.
            const sent = server.calls.some((call) => JSON.stringify(call.body).includes(prompt));
            if (!String(outcome.error?.message).includes('No conversation found') || sent) {
              failedResumes.push(
                `cut ${cut}: expected "No conversation found", got ${outcome.error?.message ?? 'none'}`,
              );
            }
            return;
          }
          resumed += 1;
          // The store was the only source (empty CLAUDE_CONFIG_DIR): the request carries the first prompt.
          const sent = server.calls.some((call) => {
            const body = JSON.stringify(call.body);
            return call.path === '/v1/messages' && body.includes(prompt) && body.includes('Tidy the notes.');
          });
          if (outcome.result?.is_error !== false || !sent) {
            failedResumes.push(
              `cut ${cut}: ${outcome.result?.subtype ?? 'no result'} ${outcome.error?.message ?? ''}`,
            );
          }
        } finally {
          store.close();
        }
      });
    } finally {
      await server.close();
    }
    expect(invalid).toEqual([]);
    expect(failedResumes).toEqual([]);
    expect(server.rejectedCalls).toEqual([]);
    // The pipeline did real work on the way: raw cuts that broke the rules, and every layer fired somewhere.
    expect(resumed).toBeGreaterThan(recording.main.length - 5);
    expect(rawInvalid).toBeGreaterThan(0);
    for (const field of ['expired', 'cleared', 'pruned', 'denialsDropped', 'healed'] as const) {
      expect(totals[field], field).toBeGreaterThan(0);
    }
  }, 300_000);
});

// The same fuzz over PostgreSQL: every cut, stored in a PgSessionStore and loaded through the same layers put
// over it with layeredStore(), gives exactly what the SQLite preset gives (so the resumes above vouch for it)
// and passes the validator; every eighth cut is also resumed by the real SDK with the PostgreSQL store as its
// session store, against the API that enforces tool pairs. Not every cut is resumed again: each resume costs
// a Claude Code process, and identical loads make identical requests.
describe('truncation fuzz on PostgreSQL', () => {
  let server: PostgresServer;
  let location: string;

  beforeAll(async () => {
    server = await startPostgres();
    location = await server.createDatabase('fuzz');
  }, 60_000);

  afterAll(async () => {
    await server.stop();
  });

  test('every cut loads from PostgreSQL through the layers exactly as from SQLite, and resumes', async () => {
    const api = await FakeAnthropicServer.start(() => message([text('Resumed.')]), {
      enforceToolPairs: true,
    });
    const agentCall = recording.main.findIndex((entry) =>
      JSON.stringify(entry['message'] ?? '').includes('"name":"Agent"'),
    );
    const different: string[] = [];
    const invalid: string[] = [];
    const failedResumes: string[] = [];
    let resumed = 0;
    try {
      const cuts = Array.from({ length: recording.main.length }, (_, index) => index + 1);
      await eachLimited(cuts, 2, async (cut) => {
        const directory = join(scratch.dir, `pg-cut-${cut}`);
        mkdirSync(directory);
        const trim = new TrimPolicy({ keepRecent: 1 });
        const ephemeral = new EphemeralPolicy({ keepRecent: 1 });
        const prune = new PrunePolicy();
        const sqlite = new PruningSessionStore(join(directory, 'sessions.db'), scratch.workspace, {
          trim,
          ephemeral,
          prune,
        });
        const store = layeredStore(
          new PgSessionStore(location, { schema: `cut_${cut}`, maxConnections: 2 }),
          [
            expireLayer(ephemeral),
            trimLayer(trim, { workspace: scratch.workspace, deferSpills: false }),
            pruneLayer(prune),
            journalLayer(prune.orphanText),
          ],
        );
        try {
          const key = { projectKey: recording.projectKey, sessionId: recording.sessionId };
          const raw = recording.main.slice(0, cut);
          for (const target of [sqlite, store]) {
            await target.append(key, raw);
            if (cut > agentCall) {
              for (const subagent of recording.subagents)
                await target.append({ ...key, subpath: subagent.subpath }, subagent.entries);
            }
          }
          const loaded = (await store.load(key)) ?? [];
          const expected = (await sqlite.load(key)) ?? [];
          if (JSON.stringify(loaded) !== JSON.stringify(expected)) different.push(`cut ${cut}`);
          const problems = validateTranscript(loaded);
          if (problems.length > 0) invalid.push(`cut ${cut}: ${JSON.stringify(problems)}`);
          if (JSON.stringify(store.reportFor(key)) !== JSON.stringify(sqlite.reportFor(key))) {
            different.push(`cut ${cut} (report)`);
          }
          const conversation = raw.some((entry) => entry.type === 'user' || entry.type === 'assistant');
          if (cut % 8 !== 0 || !conversation) return;
          const configDir = join(directory, 'claude-config');
          mkdirSync(configDir);
          const prompt = `Carry on from PostgreSQL (cut ${cut}).`;
          const outcome = await runQuery(prompt, {
            env: { ...scratch.env, ANTHROPIC_BASE_URL: api.url, CLAUDE_CONFIG_DIR: configDir },
            cwd: scratch.workspace,
            settingSources: [],
            hooks: { PreToolUse: [guard] },
            sessionStore: store,
            resume: recording.sessionId,
          });
          resumed += 1;
          const sent = api.calls.some((call) => {
            const body = JSON.stringify(call.body);
            return call.path === '/v1/messages' && body.includes(prompt) && body.includes('Tidy the notes.');
          });
          // The SDK mirrored the resumed turn back into PostgreSQL.
          const after = (await store.load(key)) ?? [];
          const mirrored = JSON.stringify(after).includes(prompt);
          if (outcome.result?.is_error !== false || !sent || !mirrored) {
            failedResumes.push(
              `cut ${cut}: ${outcome.result?.subtype ?? 'no result'} sent=${sent} mirrored=${mirrored} ${outcome.error?.message ?? ''}`,
            );
          }
        } finally {
          sqlite.close();
          await store.close();
        }
      });
    } finally {
      await api.close();
    }
    expect(different).toEqual([]);
    expect(invalid).toEqual([]);
    expect(failedResumes).toEqual([]);
    expect(api.rejectedCalls).toEqual([]);
    expect(resumed).toBeGreaterThanOrEqual(Math.floor(recording.main.length / 8) - 1);
  }, 240_000);
});
