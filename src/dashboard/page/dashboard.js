// The dashboard page (docs/dashboard.md): follows the run's event log over Server-Sent Events, folds each
// event into the view (run-view.js) and draws it with plain DOM, CSS bars and no library. Text from the run
// is only ever set as textContent, never as HTML. Writes (answers, oracle questions) carry the run's token
// from the URL's fragment.
import { checkStates, emptyView, foldEvent, pendingAsk } from './run-view.js';

const $ = (id) => document.getElementById(id);

const token = new URLSearchParams(location.hash.slice(1)).get('token');
let view = emptyView();
let run = {
  runDir: '',
  live: false,
  budgetUsd: null,
  goal: null,
  canAsk: false,
  report: false,
  spenders: [],
};
let drawQueued = false;

function seconds(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const total = Math.max(0, Math.round(value));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const two = (number) => String(number).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}

const dollars = (value) => `$${(value ?? 0).toFixed(4)}`;
const thousands = (value) =>
  value >= 1e6
    ? `${(value / 1e6).toFixed(1)}M`
    : value >= 1000
      ? `${(value / 1000).toFixed(1)}K`
      : String(value);
const now = () => Date.now() / 1000;

function element(tag, attributes = {}, text = '') {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== '') node.textContent = text;
  return node;
}

/** A CSS bar; `limit` bars (spend, context) turn red once full, proportion bars (durations) never do. */
function bar(fraction, marker, limit = true) {
  const meter = element('div', { class: 'meter' });
  const fill = element('div', { class: 'fill' });
  fill.style.width = `${Math.min(100, Math.max(0, fraction * 100)).toFixed(1)}%`;
  if (limit && fraction >= 1) fill.classList.add('over');
  meter.append(fill);
  if (marker !== undefined) {
    const line = element('div', { class: 'marker' });
    line.style.left = `${Math.min(100, marker * 100).toFixed(1)}%`;
    meter.append(line);
  }
  return meter;
}

function drawSteps() {
  const list = $('timeline');
  list.replaceChildren();
  const ends = view.steps.map((step) => step.endAt ?? (view.closed ? view.lastAt : now()));
  const longest = Math.max(1, ...view.steps.map((step, index) => ends[index] - step.startAt));
  view.steps.forEach((step, index) => {
    const duration = ends[index] - step.startAt;
    const item = element('li', { 'data-step': step.name, 'data-state': step.state });
    item.append(element('span', { class: 'name' }, step.name));
    item.append(element('span', { class: 'state' }, step.resumed ? `${step.state} (resumed)` : step.state));
    item.append(bar(duration / longest, undefined, false));
    const cost = step.costUsd === null ? '' : ` · ${dollars(step.costUsd)}`;
    item.append(element('span', { class: 'duration' }, `${seconds(duration)}${cost}`));
    list.append(item);
  });
}

function drawGoal() {
  const goal = run.goal;
  $('goal-statement').textContent = goal === null ? 'No goal yet.' : goal.statement;
  const list = $('checklist');
  list.replaceChildren();
  for (const { check, state } of checkStates(goal?.checks ?? [], view)) {
    list.append(element('li', { 'data-state': state }, check));
  }
  const verdicts = $('verdicts');
  verdicts.replaceChildren();
  for (const verdict of view.verdicts) {
    const item = element('li', { 'data-round': verdict.round, 'data-state': verdict.state });
    item.append(element('strong', {}, `Round ${verdict.round}: ${verdict.state || '?'}`));
    item.append(element('p', { class: 'reason' }, verdict.reason));
    if (verdict.failed.length > 0) {
      const failed = element('ul', { class: 'failed' });
      for (const check of verdict.failed) failed.append(element('li', {}, check));
      item.append(failed);
    }
    verdicts.append(item);
  }
}

function drawSpend() {
  const cap = view.capUsd ?? run.budgetUsd;
  const fraction = cap === null || cap <= 0 ? 0 : view.runUsd / cap;
  const fill = $('spend-bar');
  fill.style.width = `${Math.min(100, fraction * 100).toFixed(1)}%`;
  fill.classList.toggle('over', fraction >= 1);
  $('spend-text').textContent =
    cap === null
      ? `${dollars(view.runUsd)} spent · no budget set`
      : `${dollars(view.runUsd)} of ${dollars(cap)}`;
  // Where it went: the top spenders the server read from the run's store (role, thread or subagent).
  const spenders = $('spenders');
  spenders.replaceChildren();
  for (const spender of run.spenders ?? []) {
    const item = document.createElement('li');
    item.textContent = `${spender.label} · ${dollars(spender.usd)}`;
    spenders.append(item);
  }
}

function drawSessions() {
  const list = $('sessions');
  list.replaceChildren();
  for (const session of view.sessions.values()) {
    const item = element('li', { 'data-session': session.id ?? '' });
    const window = session.window ?? 0;
    const label = `${session.step ?? '-'} · ${thousands(session.tokens)}${window > 0 ? ` / ${thousands(window)}` : ''}`;
    const threshold = session.threshold === null ? '' : ` · handoff at ${thousands(session.threshold)}`;
    item.append(element('span', { class: 'name' }, `${label}${threshold}`));
    if (window > 0)
      item.append(
        bar(session.tokens / window, session.threshold === null ? undefined : session.threshold / window),
      );
    list.append(item);
  }
}

function drawAgents() {
  const tree = $('agent-tree');
  tree.replaceChildren();
  const running = view.steps.find((step) => step.state === 'running');
  const main = element(
    'li',
    { class: 'main' },
    `main thread${running === undefined ? '' : ` · ${running.name}`}`,
  );
  const children = element('ul');
  for (const agent of view.agents.values()) {
    const elapsed = (agent.endAt ?? (view.closed ? view.lastAt : now())) - agent.startAt;
    const item = element('li', { 'data-agent': agent.key, 'data-state': agent.state });
    item.append(element('strong', {}, agent.type));
    item.append(element('span', {}, ` ${agent.description} · ${agent.state} · ${seconds(elapsed)}`));
    if (agent.lastTool !== null)
      item.append(element('div', { class: 'dim tool' }, `last tool: ${agent.lastTool}`));
    children.append(item);
  }
  main.append(children);
  tree.replaceChildren(main);
}

function drawQuestion() {
  const ask = pendingAsk(view);
  const section = $('question');
  section.hidden = ask === null;
  if (ask === null) {
    // Nothing pending: what the form showed is gone, so a reload and a live page show the same.
    delete section.dataset.ask;
    $('question-text').textContent = '';
    $('question-options').replaceChildren();
    return;
  }
  if (section.dataset.ask === ask.key) return;
  section.dataset.ask = ask.key;
  const latest = view.verdicts[view.verdicts.length - 1];
  $('question-title').textContent =
    latest?.state === 'UNREACHABLE' ? 'The judge finds the goal unreachable' : 'The run asks';
  $('question-text').textContent = ask.question;
  const options = $('question-options');
  options.replaceChildren();
  ask.options.forEach((option, index) => {
    const label = element('label', { class: 'option' });
    const radio = element('input', { type: 'radio', name: 'option', value: option, 'data-index': index + 1 });
    label.append(radio, document.createTextNode(` ${option}`));
    options.append(label);
  });
  $('answer-text').value = '';
  $('answer-note').textContent = token === null ? 'Answering needs the URL with the token.' : '';
  $('answer-send').disabled = token === null;
}

function drawNetwork() {
  const line = $('network-state');
  line.dataset.state = view.network.state;
  line.textContent = view.network.text;
}

const NO_ORACLE = 'The oracle is not available here.';
const NO_TOKEN = 'Asking needs the URL with the token.';

function drawHeader() {
  $('run-dir').textContent = run.runDir;
  const state = run.live && !view.closed ? 'live' : 'finished';
  $('run-state').dataset.state = state;
  $('run-state').textContent = state;
  $('report-link').hidden = !run.report;
  $('oracle-send').disabled = !run.canAsk || token === null;
  const note = $('oracle-note');
  // Only the "cannot ask" notes are the header's; an answer's cost line stays until the next answer.
  if (!run.canAsk) note.textContent = NO_ORACLE;
  else if (token === null) note.textContent = NO_TOKEN;
  else if (note.textContent === NO_ORACLE || note.textContent === NO_TOKEN) note.textContent = '';
}

function draw() {
  drawQueued = false;
  drawHeader();
  drawQuestion();
  drawSteps();
  drawGoal();
  drawSpend();
  drawSessions();
  drawAgents();
  drawNetwork();
}

function queueDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(draw);
}

async function refreshRun() {
  try {
    const response = await fetch('/api/run', { cache: 'no-store' });
    if (response.ok) run = await response.json();
  } catch {
    // The dashboard went away; the stream's state says so.
  }
  queueDraw();
}

async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const reply = await response.json().catch(() => ({ ok: false, error: `HTTP ${response.status}` }));
  return { status: response.status, ...reply };
}

$('answer-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const ask = pendingAsk(view);
  if (ask === null || token === null) return;
  const picked = document.querySelector('#question-options input:checked');
  const typed = $('answer-text').value.trim();
  const text = typed !== '' ? typed : (picked?.value ?? '');
  if (text === '') {
    $('answer-note').textContent = 'Pick an option or write an answer.';
    return;
  }
  $('answer-send').disabled = true;
  const reply = await post('/api/answer', { askId: ask.id, text });
  $('answer-note').textContent = reply.ok ? 'Sent; waiting for the run to take it…' : reply.error;
  $('answer-send').disabled = reply.ok;
});

$('oracle-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const question = $('oracle-question').value.trim();
  if (question === '' || token === null) return;
  $('oracle-send').disabled = true;
  $('oracle-note').textContent = 'Asking…';
  const reply = await post('/api/ask', { question });
  $('oracle-send').disabled = false;
  $('oracle-note').textContent = reply.ok
    ? `${dollars(reply.costUsd)}; the run was not disturbed`
    : reply.error;
  $('oracle-answer').hidden = !reply.ok;
  $('oracle-answer').textContent = reply.ok ? reply.text : '';
});

const REFRESH_KINDS = new Set(['step', 'step_end', 'verdict', 'budget']);

function follow() {
  const source = new EventSource('/events');
  source.addEventListener('open', () => {
    $('connection').dataset.state = 'open';
    $('connection').textContent = 'following';
  });
  source.addEventListener('error', () => {
    $('connection').dataset.state = 'lost';
    $('connection').textContent = 'reconnecting';
  });
  source.addEventListener('reset', () => {
    view = emptyView();
    queueDraw();
  });
  source.addEventListener('message', (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    foldEvent(view, event);
    document.body.dataset.lastEventId = message.lastEventId;
    if (REFRESH_KINDS.has(event.kind) || event.log !== undefined) void refreshRun();
    queueDraw();
  });
}

void refreshRun();
follow();
// Elapsed times of what is still running move on between events.
setInterval(() => {
  if (!view.closed) queueDraw();
}, 1000);
