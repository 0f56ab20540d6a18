import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { ReadableStream } from 'node:stream/web';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { answerFilePath } from '../human/answer-file.js';
import { eventLogPath } from '../runtime/event-log.js';
import { startDashboard, type Dashboard, type DashboardOptions } from './dashboard-server.js';

const TOKEN = 'test-token-0123456789-abcdefghijklmnop';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function runDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flower-dashboard-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function serve(options: Partial<DashboardOptions> & { runDir: string }): Promise<Dashboard> {
  const dashboard = await startDashboard({ token: TOKEN, ...options });
  cleanups.push(() => dashboard.close());
  return dashboard;
}

const line = (n: number): string =>
  JSON.stringify({ kind: 'text', text: `event ${n}`, at: n, step: null, pid: 1 });

interface Frame {
  event: string;
  id: string | null;
  data: string;
}

/**
 * An SSE client: reads `url`'s event stream (sending `lastEventId` when given) until `enough(frames)` holds,
 * then hangs up, as a browser closing its tab does.
 */
async function readStream(
  url: string,
  enough: (frames: Frame[]) => boolean,
  lastEventId?: string,
): Promise<Frame[]> {
  const controller = new AbortController();
  const response = await fetch(`${url}events`, {
    signal: controller.signal,
    headers: lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId },
  });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  // The web stream type of node:stream/web: this project compiles without the DOM library.
  const reader = (response.body as unknown as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffered = '';
  try {
    while (!enough(frames)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let end = -1;
      // Frame by frame: a connection lost after `enough` has seen nothing past it.
      while (!enough(frames) && (end = buffered.indexOf('\n\n')) >= 0) {
        const frame: Frame = { event: 'message', id: null, data: '' };
        for (const field of buffered.slice(0, end).split('\n')) {
          if (field.startsWith('event: ')) frame.event = field.slice(7);
          else if (field.startsWith('id: ')) frame.id = field.slice(4);
          else if (field.startsWith('data: ')) frame.data = field.slice(6);
        }
        buffered = buffered.slice(end + 2);
        if (frame.event !== 'hello') frames.push(frame);
      }
    }
  } finally {
    controller.abort();
  }
  return frames;
}

const messages = (frames: Frame[]): Frame[] => frames.filter((frame) => frame.event === 'message');

describe('the event stream', () => {
  test('a browser that reconnects with Last-Event-ID gets every later line once: no duplicate, no gap', async () => {
    const runDir = runDirectory();
    const log = eventLogPath(runDir);
    writeFileSync(log, [1, 2, 3, 4, 5].map((n) => `${line(n)}\n`).join(''));
    const dashboard = await serve({ runDir });

    // First visit: reads three events and goes away mid-stream.
    const first = messages(await readStream(dashboard.url, (frames) => messages(frames).length >= 3));
    expect(first.map((frame) => frame.data)).toEqual([line(1), line(2), line(3)]);

    // Meanwhile the run writes on, the last line still half-written.
    appendFileSync(log, `${line(6)}\n${line(7)}\n{"kind":"te`);
    const resumed = messages(
      await readStream(dashboard.url, (frames) => messages(frames).length >= 4, first[2]!.id!),
    );
    expect(resumed.map((frame) => frame.data)).toEqual([line(4), line(5), line(6), line(7)]);

    // Together: the whole log in order, each line once; each id is where the next read starts.
    const lines = readFileSync(log, 'utf8').split('\n').slice(0, 7);
    expect([...first, ...resumed].map((frame) => frame.data)).toEqual(lines);
    let offset = 0;
    for (const [index, frame] of [...first, ...resumed].entries()) {
      offset += Buffer.byteLength(lines[index]!) + 1;
      expect(Number(frame.id)).toBe(offset);
    }
  });

  test('a line appended while the page is open arrives, and a torn line only once it is whole', async () => {
    const runDir = runDirectory();
    const log = eventLogPath(runDir);
    writeFileSync(log, `${line(1)}\n`);
    const dashboard = await serve({ runDir });
    const reading = readStream(dashboard.url, (frames) => messages(frames).length >= 3);
    const torn = line(3);
    appendFileSync(log, `${line(2)}\n${torn.slice(0, 10)}`);
    // Written in two parts, as a slow writer would: the reader must wait for the newline.
    setTimeout(() => appendFileSync(log, `${torn.slice(10)}\n`), 300);
    const frames = messages(await reading);
    expect(frames.map((frame) => frame.data)).toEqual([line(1), line(2), line(3)]);
  });

  test('an id this log cannot have sent starts over with a reset, so the page drops what it showed', async () => {
    const runDir = runDirectory();
    writeFileSync(eventLogPath(runDir), `${line(1)}\n${line(2)}\n`);
    const dashboard = await serve({ runDir });
    // Not at a line's start (inside line 1), and past the end.
    for (const stale of ['5', '999999']) {
      const frames = await readStream(dashboard.url, (read) => messages(read).length >= 2, stale);
      expect(frames[0]).toMatchObject({ event: 'reset', id: '0' });
      expect(messages(frames).map((frame) => frame.data)).toEqual([line(1), line(2)]);
    }
  });

  test('a log that does not exist yet streams from its first line once it appears', async () => {
    const runDir = runDirectory();
    const dashboard = await serve({ runDir });
    const reading = readStream(dashboard.url, (frames) => messages(frames).length >= 1);
    setTimeout(() => writeFileSync(eventLogPath(runDir), `${line(1)}\n`), 200);
    expect(messages(await reading).map((frame) => frame.data)).toEqual([line(1)]);
  });
});

describe('writes need the run token', () => {
  const answer = (dashboard: Dashboard, authorization?: string): Promise<Response> =>
    fetch(`${dashboard.url}api/answer`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(authorization === undefined ? {} : { Authorization: authorization }),
      },
      body: JSON.stringify({ askId: 'q1', text: 'Standard input' }),
    });

  test('an answer without the token, or with another, is refused and nothing is written', async () => {
    const runDir = runDirectory();
    const dashboard = await serve({ runDir });
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const response = await answer(dashboard, authorization);
      expect(response.status, String(authorization)).toBe(401);
    }
    expect(() => readFileSync(answerFilePath(runDir))).toThrow();
  });

  test('an answer with the token is appended to the run answer file', async () => {
    const runDir = runDirectory();
    const dashboard = await serve({ runDir, now: () => 1_000_000 });
    const response = await answer(dashboard, `Bearer ${TOKEN}`);
    expect(response.status).toBe(202);
    expect(readFileSync(answerFilePath(runDir), 'utf8')).toBe(
      `${JSON.stringify({ askId: 'q1', text: 'Standard input', at: 1000 })}\n`,
    );
  });

  test('the oracle is asked only with the token; reading the run needs none', async () => {
    const runDir = runDirectory();
    const asked: string[] = [];
    const dashboard = await serve({
      runDir,
      budgetUsd: 2.5,
      ask: (question) => {
        asked.push(question);
        return Promise.resolve({ ok: true, text: 'It is writing tests.', costUsd: 0.01 });
      },
    });
    const ask = (authorization: string): Promise<Response> =>
      fetch(`${dashboard.url}api/ask`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: authorization },
        body: JSON.stringify({ question: 'what is it doing?' }),
      });
    expect((await ask('Bearer nope')).status).toBe(401);
    expect(asked).toEqual([]);
    const reply = await ask(`Bearer ${TOKEN}`);
    expect(await reply.json()).toEqual({ ok: true, text: 'It is writing tests.', costUsd: 0.01 });
    expect(asked).toEqual(['what is it doing?']);

    const run = await fetch(`${dashboard.url}api/run`);
    expect(run.status).toBe(200);
    expect(await run.json()).toMatchObject({ runDir, budgetUsd: 2.5, canAsk: true });
    const page = await fetch(dashboard.url);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain(TOKEN);
  });

  test("the run's top spenders are read when the page asks for the run, and none is an empty list", async () => {
    const runDir = runDirectory();
    let spenders: Array<{ label: string; usd: number }> | null = null;
    const dashboard = await serve({ runDir, spenders: () => spenders });
    const read = async (): Promise<unknown> =>
      ((await (await fetch(`${dashboard.url}api/run`)).json()) as { spenders: unknown }).spenders;
    expect(await read()).toEqual([]);
    spenders = [{ label: 'explore: find the tests', usd: 0.25 }];
    expect(await read()).toEqual([{ label: 'explore: find the tests', usd: 0.25 }]);
  });
});
