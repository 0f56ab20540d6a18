// The dashboard in a real browser (docs/dashboard.md): a scripted `flower go` (the demo's scripted model on
// flower's fake Messages API, the real CLI, SDK and Claude Code binary) in one process, `flower dashboard` in
// another, and the page open in Debian's Chromium. The page must show each new step within 2 s of its event,
// the clarifier's question with a form whose answer reaches the model in its next request, the judge's
// verdict with its reasons, and the same state after a reload.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Browser, Page } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';

import { demoScenario } from '../../src/demo/demo-scenario.js';
import { DEMO_TOOL_IDS } from '../../src/demo/demo-tool-ids.js';
import { DEMO_OPTIONS, DEMO_QUESTION, DEMO_REQUEST } from '../../src/demo/demo-replies.js';
import { FakeAnthropicServer, scratchEnvironment } from '../../src/testing/index.js';
import type { FakeRequest } from '../../src/testing/index.js';
import { launchChromium } from './support/chromium.js';
import { FlowerProcess, killStrayFlowers, until } from './support/flower-process.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  await killStrayFlowers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The docs folder: `UPDATE_SCREENSHOTS=1` copies the test's screenshots there for docs/dashboard.md. */
const DOCS = resolve(fileURLToPath(new URL('../../docs/images/', import.meta.url)));

/** How late a step may show on the page after its event was written (the bound). */
const STEP_SHOWN_WITHIN_MS = 2_000;

interface LoggedLine {
  kind?: string;
  name?: string;
  at?: number;
  reason?: string;
  round?: number;
  state?: string;
}

/** The run's logged events so far; none while the run has not opened its log yet. */
function eventsSoFar(runDir: string): LoggedLine[] {
  try {
    return loggedEvents(runDir);
  } catch {
    return [];
  }
}

function loggedEvents(runDir: string): LoggedLine[] {
  return readFileSync(join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LoggedLine);
}

/** The text of the first tool result the fake received for a call whose id starts with `idBase`. */
function answerSeen(calls: readonly FakeRequest[], idBase: string): string | undefined {
  for (const request of calls) {
    const messages = (request.body as { messages?: unknown }).messages;
    if (!Array.isArray(messages)) continue;
    for (const entry of messages as Array<{ content?: unknown }>) {
      if (!Array.isArray(entry.content)) continue;
      for (const block of entry.content as Array<Record<string, unknown>>) {
        const id = block['tool_use_id'];
        if (block['type'] !== 'tool_result' || typeof id !== 'string' || !id.startsWith(idBase)) continue;
        return JSON.stringify(block['content']);
      }
    }
  }
  return undefined;
}

// Scripts that run in the page. Strings, because this project compiles for Node (no DOM types); each is
// small and its result is compared as plain data.

/** What the page shows, without the clocks that move on their own (durations, elapsed times). */
const SHOWN_STATE = `(() => {
  const all = (selector) => [...document.querySelectorAll(selector)];
  const text = (selector) => document.querySelector(selector)?.textContent ?? '';
  return {
    steps: all('#timeline li').map((item) => [
      item.getAttribute('data-step'),
      item.getAttribute('data-state'),
      item.querySelector('.state')?.textContent,
    ]),
    verdicts: all('#verdicts li[data-round]').map((item) => item.textContent),
    checklist: all('#checklist li').map((item) => [item.getAttribute('data-state'), item.textContent]),
    question: document.querySelector('#question').hidden ? null : text('#question-text'),
    options: all('#question-options label').map((label) => label.textContent),
    spend: text('#spend-text'),
    sessions: all('#sessions li .name').map((item) => item.textContent),
    agents: all('#agent-tree [data-agent]').map((item) => [
      item.getAttribute('data-state'),
      item.querySelector('strong')?.textContent,
      item.querySelector('.tool')?.textContent,
    ]),
    network: text('#network-state'),
  };
})()`;

/** Records when each step's row first appears, on the page's clock (the same machine's as the run's `at`). */
const RECORD_STEP_ROWS = `
  window.stepSeen = {};
  new MutationObserver(() => {
    for (const row of document.querySelectorAll('#timeline li[data-step]')) {
      window.stepSeen[row.getAttribute('data-step')] ??= Date.now();
    }
  }).observe(document, { subtree: true, childList: true });
`;

function shownState(page: Page): Promise<unknown> {
  return page.evaluate(SHOWN_STATE);
}

test('the dashboard follows a scripted go run in Chromium: steps, the question answered through its form, verdicts, reload', async () => {
  const server = await FakeAnthropicServer.start(demoScenario());
  cleanups.push(() => server.close());
  const scratch = await scratchEnvironment({ baseUrl: server.url });
  cleanups.push(() => scratch.cleanup());
  const runDir = join(scratch.workspace, 'runs');
  const shots = mkdtempSync(join(tmpdir(), 'flower-dashboard-shots-'));
  cleanups.push(() => Promise.resolve(rmSync(shots, { recursive: true, force: true })));

  // One round: the demo's judge says NOT_YET once (with its reasons), then the bequest ends the run.
  const go = new FlowerProcess(['go', '--rounds', '1', '--timeout', '90', DEMO_REQUEST], {
    cwd: scratch.workspace,
    env: scratch.env,
  });
  await until(
    () => eventsSoFar(runDir).some((event) => event.kind === 'step'),
    'the run to write its first step',
  );

  const dashboard = new FlowerProcess(['dashboard', scratch.workspace], {
    cwd: scratch.workspace,
    env: scratch.env,
  });
  await until(() => dashboard.stdout.join('').includes('#token='), 'the dashboard to print its URL');
  const url = /(http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(dashboard.stdout.join(''))![1]!;

  const browser: Browser = await launchChromium();
  cleanups.push(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => {
    if (!request.url().startsWith(url.slice(0, url.indexOf('#'))))
      problems.push(`request to ${request.url()}`);
  });
  await page.addInitScript({ content: RECORD_STEP_ROWS });
  const openedAt = Date.now();
  await page.goto(url);

  // The clarifier's question, with its options, in the form.
  await page.locator('#question-text', { hasText: DEMO_QUESTION }).waitFor();
  await page.locator('#question-options label', { hasText: DEMO_OPTIONS[1]! }).waitFor();

  // Reloading while the run waits for the answer shows the same state.
  const beforeReload = await shownState(page);
  await page.reload();
  await page.locator('#question-text', { hasText: DEMO_QUESTION }).waitFor();
  await page.locator('#timeline li[data-step="clarify"]').waitFor();
  expect(await shownState(page)).toEqual(beforeReload);
  await page.screenshot({ path: join(shots, 'dashboard-question.png'), fullPage: true });

  // Answered through the form: the second option.
  await page.locator('#question-options label', { hasText: DEMO_OPTIONS[1]! }).locator('input').check();
  await page.locator('#answer-send').click();
  await page.locator('#question').waitFor({ state: 'hidden' });

  // The verdict with its reasons, as the judge gave them.
  const verdict = page.locator('#verdicts li[data-round="1"]');
  await verdict.waitFor({ timeout: 90_000 });
  await page.locator('#timeline li[data-step="bequest"]').waitFor({ timeout: 90_000 });

  const exit = await go.exited;
  // One round and the judge said NOT_YET: the run stops with 1, after the bequest.
  expect(exit.code).toBe(1);
  const events = loggedEvents(runDir);

  // The model saw the answer picked in the browser, in the request after its question.
  expect(answerSeen(server.calls, DEMO_TOOL_IDS.ask)).toContain(DEMO_OPTIONS[1]);

  const verdictEvent = events.find((event) => event.kind === 'verdict')!;
  expect(verdictEvent.reason).not.toBe('');
  await expect.poll(() => verdict.locator('.reason').textContent()).toBe(verdictEvent.reason);
  expect(await verdict.locator('strong').textContent()).toBe(`Round 1: ${verdictEvent.state}`);

  // Every step that began after the page opened showed within 2 s of its event.
  const steps = events.filter((event) => event.kind === 'step' && event.at! * 1000 > openedAt);
  expect(steps.map((step) => step.name)).toEqual(['goal', 'work', 'bequest']);
  const seen = await page.evaluate<Record<string, number>>('window.stepSeen');
  for (const step of steps) {
    expect(seen[step.name!], step.name).toBeDefined();
    expect(seen[step.name!]! - step.at! * 1000, step.name).toBeLessThan(STEP_SHOWN_WITHIN_MS);
  }

  // Once the run is over, a reload shows exactly what the page had followed live.
  await page.locator('#run-state[data-state="finished"]').waitFor();
  const finished = await shownState(page);
  await page.screenshot({ path: join(shots, 'dashboard-finished.png'), fullPage: true });
  await page.reload();
  await page.locator('#timeline li[data-step="bequest"]').waitFor();
  await expect.poll(() => shownState(page)).toEqual(finished);
  // Where the money went: the run's top spenders, read from its store, are listed under its spend.
  expect(await page.locator('#spenders li').count()).toBeGreaterThan(0);
  // The header's report link opens the run's analyze report, computed from the run as it is now.
  expect(await page.locator('#report-link').isVisible()).toBe(true);
  await page.goto(new URL('/report', page.url()).href);
  expect(await page.locator('h1').first().textContent()).toBe('flower analyze');
  expect(problems).toEqual([]);

  // Ctrl-C stops the dashboard like every other Ctrl-C stop.
  process.kill(dashboard.child.pid!, 'SIGINT');
  expect((await dashboard.exited).code).toBe(130);

  if (process.env['UPDATE_SCREENSHOTS'] === '1') {
    for (const name of ['dashboard-question.png', 'dashboard-finished.png']) {
      copyFileSync(join(shots, name), join(DOCS, name));
    }
  }
});

test('go --dashboard serves the page from the run itself and takes an answer posted with the token', async () => {
  const server = await FakeAnthropicServer.start(demoScenario());
  cleanups.push(() => server.close());
  const scratch = await scratchEnvironment({ baseUrl: server.url });
  cleanups.push(() => scratch.cleanup());
  const runDir = join(scratch.workspace, 'runs');

  const go = new FlowerProcess(['go', '--dashboard', '--rounds', '1', '--timeout', '90', DEMO_REQUEST], {
    cwd: scratch.workspace,
    env: scratch.env,
  });
  const line = await go.waitForLine(/#token=/);
  const url = /(http:\/\/127\.0\.0\.1:\d+\/)#token=(\S+)/.exec(line)!;
  const [, base, token] = url;

  // The question is in the log the page follows; answered over HTTP as the page's form does.
  await until(
    () => eventsSoFar(runDir).some((event) => event.kind === 'ask'),
    'the clarifier to ask its question',
  );
  const ask = loggedEvents(runDir).find((event) => event.kind === 'ask') as LoggedLine & { id: string };
  const refused = await fetch(`${base}api/answer`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ askId: ask.id, text: DEMO_OPTIONS[1] }),
  });
  expect(refused.status).toBe(401);
  const accepted = await fetch(`${base}api/answer`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ askId: ask.id, text: DEMO_OPTIONS[1] }),
  });
  expect(accepted.status).toBe(202);

  expect((await go.exited).code).toBe(1);
  const answer = loggedEvents(runDir).find((event) => event.kind === 'answer') as LoggedLine & {
    answer: string;
  };
  expect(answer).toMatchObject({ state: 'answered', answer: DEMO_OPTIONS[1] });
  expect(answerSeen(server.calls, DEMO_TOOL_IDS.ask)).toContain(DEMO_OPTIONS[1]);
  // The page went with the run.
  await expect(fetch(base!)).rejects.toThrow();
});
