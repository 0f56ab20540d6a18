/**
 * The dashboard's web server (docs/dashboard.md): a hono app on 127.0.0.1 that serves one page for one run
 * directory, streams the run's event log to it as Server-Sent Events, and takes the two writes a person may
 * make — an answer to the pending question (appended to the run's answer file, which the running process
 * hands to its human channel) and a side question for the oracle. Reads are open; writes need the run's
 * token. The page folds the events into what it shows, so a reload replays the log and shows the same state.
 *
 * Library code: it never prints. The caller prints the URL and owns the process.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { appendAnswer } from '../human/answer-file.js';
import { isRecord } from '../internal/is-record.js';
import { EVENT_LOG_FILE, eventLogPath, eventLogStatus } from '../runtime/event-log.js';
import { logSize, readLinesFrom, resumeOffset } from './event-feed.js';
import { LogWatch } from './log-watch.js';
import { bearerToken, tokenMatches } from './run-token.js';

/** The only address the dashboard listens on: the run's files are nobody else's business. */
export const DASHBOARD_HOST = '127.0.0.1';

/** How long a browser waits before reconnecting a dropped stream, in milliseconds. */
export const RECONNECT_MS = 1_000;

/** The longest answer or question the server takes, in characters. */
export const MAX_INPUT_CHARS = 20_000;

/** The oracle's answer as the page shows it. */
export interface DashboardOracleAnswer {
  ok: boolean;
  text: string;
  costUsd: number;
}

/** The frozen goal as the page shows it. */
export interface DashboardGoal {
  statement: string;
  checks: readonly string[];
}

/** Options of {@link createDashboardApp} and {@link startDashboard}. */
export interface DashboardOptions {
  /** The run directory whose `events.jsonl` the page shows. */
  runDir: string;
  /** The run's token; writes without it are refused with 401. */
  token: string;
  /** The run's dollar cap, when known, to show spend against. */
  budgetUsd?: number | null;
  /** The frozen goal, read when the page asks (it changes when the goal step runs); null when there is none. */
  goal?: () => DashboardGoal | null;
  /** Answers a side question; absent: the page's oracle box says it is not available. */
  ask?: (question: string, signal: AbortSignal) => Promise<DashboardOracleAnswer>;
  /** The analyze report as one HTML document, or null when there is none yet. */
  report?: () => string | null | Promise<string | null>;
  /**
   * The run's top spenders (role, main thread or subagent, and dollars), largest first, read from its store
   * when the page asks; absent or null when the run has nothing priced yet.
   */
  spenders?: () =>
    Array<{ label: string; usd: number }> | null | Promise<Array<{ label: string; usd: number }> | null>;
  /** The clock for answer records, in epoch milliseconds. */
  now?: () => number;
}

/** The page's files, read once from beside this module (copied into `dist/` by the build). */
const PAGE_FILES = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/dashboard.js': { file: 'dashboard.js', type: 'text/javascript; charset=utf-8' },
  '/run-view.js': { file: 'run-view.js', type: 'text/javascript; charset=utf-8' },
  '/dashboard.css': { file: 'dashboard.css', type: 'text/css; charset=utf-8' },
} as const;

function pageFile(name: string): string {
  // Through `../dashboard/` rather than `./`: the same path holds from src/dashboard/, from tsc's
  // dist/dashboard/ and from the bundled CLI, whose chunks sit in dist/cli/.
  return readFileSync(new URL(`../dashboard/page/${name}`, import.meta.url), 'utf8');
}

/** A running dashboard. */
export interface Dashboard {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  /** The URL with the token in its fragment: what a person opens to answer and ask too. */
  urlWithToken: string;
  port: number;
  /** Stops the server, ending every open stream. */
  close(): Promise<void>;
}

/** The hono app and the watch its streams share; `close` ends both. */
export function createDashboardApp(options: DashboardOptions): { app: Hono; close: () => void } {
  const { runDir } = options;
  const logPath = eventLogPath(runDir);
  const watch = new LogWatch(runDir, EVENT_LOG_FILE);
  const pages = new Map<string, { body: string; type: string }>();
  for (const [route, page] of Object.entries(PAGE_FILES)) {
    pages.set(route, { body: pageFile(page.file), type: page.type });
  }
  const app = new Hono();

  for (const [route, page] of pages) {
    app.get(route, (c) => {
      c.header('Content-Type', page.type);
      c.header('Cache-Control', 'no-store');
      // Only this origin's own files: no inline script, nothing from a CDN, no frames.
      c.header(
        'Content-Security-Policy',
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
      );
      return c.body(page.body);
    });
  }

  app.get('/api/run', async (c) => {
    const status = eventLogStatus(runDir);
    return c.json({
      runDir,
      live: status.live,
      budgetUsd: options.budgetUsd ?? null,
      goal: options.goal?.() ?? null,
      canAsk: options.ask !== undefined,
      // Whether to link the report; computing it is left to a request for it.
      report: options.report !== undefined,
      spenders: (await options.spenders?.()) ?? [],
    });
  });

  app.get('/report', async (c) => {
    const html = (await options.report?.()) ?? null;
    if (html === null) {
      return c.text('No analyze report: the run has no session store or manifest yet.\n', 404);
    }
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    return c.html(html);
  });

  app.get('/events', (c) => {
    const lastId = c.req.header('Last-Event-ID');
    let offset = resumeOffset(logPath, lastId);
    // An id this log cannot have sent (the run was started anew): the page must drop what it showed.
    let reset = lastId !== undefined && lastId.trim() !== '' && lastId.trim() !== '0' && offset === 0;
    return streamSSE(
      c,
      async (stream) => {
        const aborted = new AbortController();
        stream.onAbort(() => aborted.abort());
        await stream.writeSSE({ event: 'hello', data: '', retry: RECONNECT_MS });
        while (!aborted.signal.aborted && !watch.closed) {
          if (reset) {
            await stream.writeSSE({ event: 'reset', data: '', id: '0' });
            reset = false;
          }
          const seen = watch.version;
          const read = readLinesFrom(logPath, offset);
          for (const line of read.lines) {
            if (aborted.signal.aborted) return;
            await stream.writeSSE({ data: line.text, id: String(line.id) });
          }
          offset = read.next;
          if (read.lines.length > 0) continue;
          // Replaced by a shorter log while we follow it: start over.
          if (logSize(logPath) < offset) {
            offset = 0;
            reset = true;
            continue;
          }
          await watch.changed(seen, aborted.signal);
        }
      },
      // A browser that went away mid-write: nothing to report, the stream is over.
      async () => {},
    );
  });

  app.post('/api/answer', async (c) => {
    if (!authorized(c, options.token)) return refused(c);
    const body = await jsonBody(c);
    const askId = body?.['askId'];
    const text = body?.['text'];
    if (typeof askId !== 'string' || askId === '' || typeof text !== 'string') {
      return c.json({ ok: false, error: 'send {"askId": "<question id>", "text": "<answer>"}' }, 400);
    }
    if (text.length > MAX_INPUT_CHARS) {
      return c.json({ ok: false, error: `the answer is longer than ${MAX_INPUT_CHARS} characters` }, 413);
    }
    const failure = appendAnswer(runDir, { askId, text }, options.now);
    if (failure !== null) return c.json({ ok: false, error: failure }, 500);
    return c.json({ ok: true }, 202);
  });

  app.post('/api/ask', async (c) => {
    if (!authorized(c, options.token)) return refused(c);
    const body = await jsonBody(c);
    const question = body?.['question'];
    if (typeof question !== 'string' || question.trim() === '') {
      return c.json({ ok: false, error: 'send {"question": "<what you want to know>"}' }, 400);
    }
    if (question.length > MAX_INPUT_CHARS) {
      return c.json({ ok: false, error: `the question is longer than ${MAX_INPUT_CHARS} characters` }, 413);
    }
    if (options.ask === undefined) {
      return c.json({ ok: false, error: 'this dashboard cannot ask the oracle' }, 501);
    }
    const answer = await options.ask(question, c.req.raw.signal);
    return c.json(answer);
  });

  return { app, close: () => watch.close() };
}

function authorized(c: Context, token: string): boolean {
  return tokenMatches(token, bearerToken(c.req.header('Authorization')));
}

function refused(c: Context): Response {
  return c.json({ ok: false, error: 'this needs the token printed with the dashboard URL' }, 401);
}

async function jsonBody(c: Context): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = await c.req.json();
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Serves the dashboard on 127.0.0.1:`port` (0: any free port) and resolves once it listens. Rejects when
 * the port cannot be had (for example `EADDRINUSE`).
 */
export async function startDashboard(options: DashboardOptions & { port?: number }): Promise<Dashboard> {
  const { app, close } = createDashboardApp(options);
  const server: ServerType = await new Promise((resolve, reject) => {
    const started = serve(
      { fetch: (request) => app.fetch(request), hostname: DASHBOARD_HOST, port: options.port ?? 0 },
      () => resolve(started),
    );
    started.once('error', (error: Error) => {
      close();
      reject(error);
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${DASHBOARD_HOST}:${port}/`;
  return {
    url,
    urlWithToken: `${url}#token=${options.token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        close();
        server.close(() => resolve());
        // Open event streams would hold the server open for good.
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
