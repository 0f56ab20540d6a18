// A run with SqliteSessionStore (eager flush) is killed with SIGKILL mid-turn, then resumed from the store
// alone, with an empty CLAUDE_CONFIG_DIR: the next request must carry the whole earlier conversation and the
// run must go on. Real SDK, real Claude Code binary, flower's fake Messages API.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, test } from 'vitest';

import type { SessionStoreEntry } from '../../src/agent/claude-sdk.js';
import { SqliteSessionStore } from '../../src/session/sqlite-session-store.js';
import {
  FakeAnthropicServer,
  lastUserText,
  MAIN_THREAD,
  message,
  scratchEnvironment,
  text,
  toolUse,
} from '../../src/testing/index.js';
import type { FakeRequest, FakeScript } from '../../src/testing/index.js';
import type { AgentRunConfig, AgentRunReport } from '../fixtures/session-store-agent.js';

const register = fileURLToPath(new URL('../fixtures/register-typescript.mjs', import.meta.url));
const agentScript = fileURLToPath(new URL('../fixtures/session-store-agent.ts', import.meta.url));

const FIRST_PROMPT = 'List what is here, please.';
const SECOND_PROMPT = 'Carry on where you stopped.';
const TOOL_ID = 'toolu_before_kill';
const MARKER = 'marker-written-before-the-kill';

/** A child running session-store-agent.ts; its reports can be awaited one predicate at a time. */
class AgentChild {
  readonly process: ChildProcess;
  readonly reports: AgentRunReport[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #waiters: Array<{ match: (report: AgentRunReport) => boolean; resolve: (report: AgentRunReport) => void }> =
    [];

  constructor(config: AgentRunConfig) {
    // Its own process group, so SIGKILL reaches the Claude Code binary it spawns as well: a whole-machine crash.
    this.process = spawn(process.execPath, ['--import', register, agentScript, JSON.stringify(config)], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
    createInterface({ input: this.process.stdout! }).on('line', (line) => {
      const report = JSON.parse(line) as AgentRunReport;
      this.reports.push(report);
      this.#waiters = this.#waiters.filter((waiter) => {
        if (!waiter.match(report)) return true;
        waiter.resolve(report);
        return false;
      });
    });
    this.exited = new Promise((resolve) =>
      this.process.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  /** The first report (already seen or still to come) that matches; rejects if the child exits first. */
  waitFor(match: (report: AgentRunReport) => boolean, what: string): Promise<AgentRunReport> {
    const seen = this.reports.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      this.#waiters.push({ match, resolve });
      void this.exited.then(({ code, signal }) =>
        reject(new Error(`agent exited (${code ?? signal}) before ${what}:\n${this.stderr.join('')}`)),
      );
    });
  }

  killGroup(): void {
    process.kill(-this.process.pid!, 'SIGKILL');
  }
}

function contentBlocks(requestMessage: Record<string, unknown>): Array<Record<string, unknown>> {
  const content = requestMessage['content'];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [];
}

/** Index of the first message in `messages` at or after `from` that satisfies `match`, or -1. */
function indexOfMessage(
  messages: Array<Record<string, unknown>>,
  from: number,
  match: (requestMessage: Record<string, unknown>) => boolean,
): number {
  const found = messages.slice(from).findIndex(match);
  return found === -1 ? -1 : from + found;
}

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('SqliteSessionStore with the real SDK', () => {
  test('a run killed with SIGKILL mid-turn resumes from the store alone', async () => {
    let signalHung: () => void = () => undefined;
    const hung = new Promise<void>((resolve) => (signalHung = resolve));
    const script: FakeScript = (request: FakeRequest) => {
      if (request.thread !== MAIN_THREAD) return undefined;
      if (lastUserText(request) === SECOND_PROMPT) return message([text('Resumed and continuing.')]);
      if (request.turn === 0) {
        return message([text('Looking first.'), toolUse('Bash', { command: `echo ${MARKER}` }, TOOL_ID)]);
      }
      if (request.turn === 1) {
        signalHung();
        return { kind: 'hang' };
      }
      return undefined;
    };
    const server = await FakeAnthropicServer.start(script);
    cleanups.push(() => server.close());
    const scratch = await scratchEnvironment({ baseUrl: server.url });
    cleanups.push(() => scratch.cleanup());
    const databasePath = join(scratch.dir, 'runs', 'sessions.db');

    // 1. Run until the model's second call hangs and the tool result is committed to the store; then kill.
    const first = new AgentChild({
      databasePath,
      cwd: scratch.workspace,
      // A long API timeout: the CLI must still be waiting on the hung call when the kill lands.
      env: { ...scratch.env, API_TIMEOUT_MS: '600000' },
      prompt: FIRST_PROMPT,
    });
    cleanups.push(() => {
      if (first.process.exitCode === null && first.process.signalCode === null) first.killGroup();
    });
    const init = await first.waitFor(
      (report) => report.event === 'message' && report.type === 'system' && report.subtype === 'init',
      'system/init',
    );
    const sessionId = (init as { sessionId: string | null }).sessionId!;
    await first.waitFor(
      (report) =>
        report.event === 'append' &&
        report.key.subpath === undefined &&
        report.entries.some((entry) => entry.toolResults.includes(TOOL_ID)),
      'the tool result reached the store',
    );
    await hung;
    expect(first.reports.some((report) => report.event === 'message' && report.type === 'result')).toBe(
      false,
    );
    first.killGroup();
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // The killed writer left a consistent file (and its -wal): it opens and holds the turn so far.
    const survivor = new SqliteSessionStore(databasePath, { readonly: true });
    const projectKey = survivor.projects()[0]!;
    expect(survivor.hasSession(projectKey, sessionId)).toBe(true);
    const beforeResume = (await survivor.load({ projectKey, sessionId }))!;
    survivor.close();
    expect(JSON.stringify(beforeResume)).toContain(MARKER);

    // 2. Resume with an empty CLAUDE_CONFIG_DIR: the store is the only copy of the conversation.
    const emptyConfig = join(scratch.dir, 'empty-claude-config');
    mkdirSync(emptyConfig);
    const second = new AgentChild({
      databasePath,
      cwd: scratch.workspace,
      env: { ...scratch.env, CLAUDE_CONFIG_DIR: emptyConfig },
      prompt: SECOND_PROMPT,
      resume: sessionId,
    });
    await second.waitFor((report) => report.event === 'end', 'the resumed run ended');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.reports.filter((report) => report.event === 'error')).toEqual([]);
    expect(second.reports.filter((report) => report.event === 'message' && report.type === 'result')).toEqual(
      [
        {
          event: 'message',
          type: 'result',
          subtype: 'success',
          sessionId,
          result: 'Resumed and continuing.',
          isError: false,
        },
      ],
    );

    // The request after the resume carries the whole earlier conversation, in order.
    const resumed = server.calls.filter(
      (call) => call.path === '/v1/messages' && lastUserText(call) === SECOND_PROMPT,
    );
    expect(resumed).toHaveLength(1);
    const messages = (resumed[0]!.body as { messages: Array<Record<string, unknown>> }).messages;
    const prompt = indexOfMessage(messages, 0, (item) =>
      contentBlocks(item).some((block) => block['type'] === 'text' && block['text'] === FIRST_PROMPT),
    );
    const call = indexOfMessage(messages, prompt + 1, (item) =>
      contentBlocks(item).some((block) => block['type'] === 'tool_use' && block['id'] === TOOL_ID),
    );
    const outcome = indexOfMessage(messages, call + 1, (item) =>
      contentBlocks(item).some(
        (block) =>
          block['type'] === 'tool_result' &&
          block['tool_use_id'] === TOOL_ID &&
          JSON.stringify(block).includes(MARKER),
      ),
    );
    expect([prompt >= 0, call > prompt, outcome > call]).toEqual([true, true, true]);
    expect(messages[call]!['role']).toBe('assistant');
    expect(messages.at(-1)!['role']).toBe('user');
    expect(contentBlocks(messages.at(-1)!).some((block) => block['text'] === SECOND_PROMPT)).toBe(true);

    // The run went on in the same session: the store now holds both halves, each entry once.
    const after = new SqliteSessionStore(databasePath, { readonly: true });
    cleanups.push(() => after.close());
    const transcript = (await after.load({ projectKey, sessionId })) as SessionStoreEntry[];
    expect(transcript.slice(0, beforeResume.length)).toEqual(beforeResume);
    expect(JSON.stringify(transcript)).toContain('Resumed and continuing.');
    const uuids = transcript.flatMap((entry) => (entry.uuid === undefined ? [] : [entry.uuid]));
    expect(new Set(uuids).size).toBe(uuids.length);
  });
});
