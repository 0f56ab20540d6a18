// The dashboard's state, folded from the run's events in log order (docs/dashboard.md). Pure: no DOM, so the
// same fold runs in the browser and in a Node test, and a reload that replays the log gets the same view.

/** A new, empty view. */
export function emptyView() {
  return {
    steps: [],
    verdicts: [],
    asks: new Map(),
    runUsd: 0,
    capUsd: null,
    sessions: new Map(),
    agents: new Map(),
    network: { state: 'ok', text: 'ok', at: null },
    lastAt: null,
    closed: false,
  };
}

const baseName = (name) => name.split('#')[0];

function closeRunning(view, at, state) {
  for (const step of view.steps) {
    if (step.state === 'running') {
      step.state = state;
      step.endAt = at;
    }
  }
}

/** Folds one logged event (a parsed line of events.jsonl) into `view`. Unknown kinds are ignored. */
export function foldEvent(view, event) {
  if (event === null || typeof event !== 'object') return view;
  if (typeof event.at === 'number') view.lastAt = event.at;
  if (event.log === 'open') view.closed = false;
  if (event.log === 'close') {
    view.closed = true;
    closeRunning(view, event.at, 'stopped');
  }
  switch (event.kind) {
    case 'step': {
      // A new round of the same step ends the one before it; any other new step too.
      closeRunning(view, event.at, 'done');
      view.steps.push({
        name: event.name,
        index: event.index,
        total: event.total,
        resumed: event.resumed === true,
        state: 'running',
        startAt: event.at,
        endAt: null,
        costUsd: null,
      });
      break;
    }
    case 'step_end': {
      // The step's last round ends with it; earlier rounds were ended by the next round ('done').
      const last = [...view.steps].reverse().find((step) => baseName(step.name) === baseName(event.name));
      if (last !== undefined) {
        if (last.state === 'running' || last.state === 'done') last.state = event.ok ? 'passed' : 'failed';
        last.endAt = event.at;
        last.costUsd = event.costUsd;
        last.error = event.error;
      }
      break;
    }
    case 'verdict':
      view.verdicts.push({
        round: event.round,
        state: event.state,
        reason: event.reason,
        failed: Array.isArray(event.failed) ? event.failed : [],
        step: event.step,
        at: event.at,
      });
      break;
    case 'ask':
      view.asks.set(`${event.pid}:${event.id}`, {
        key: `${event.pid}:${event.id}`,
        id: event.id,
        pid: event.pid,
        question: event.question,
        options: Array.isArray(event.options) ? event.options : [],
        askedAt: event.at,
        state: 'asked',
        answer: null,
      });
      break;
    case 'answer': {
      const ask = view.asks.get(`${event.pid}:${event.id}`);
      if (ask !== undefined && event.state !== 'asked') {
        ask.state = event.state;
        ask.answer = event.answer;
      }
      break;
    }
    case 'cost':
      view.runUsd = event.runUsd;
      break;
    case 'budget':
      if (event.scope === 'run') view.capUsd = event.capUsd;
      break;
    case 'context':
      view.sessions.set(event.sessionId ?? event.step ?? '?', {
        id: event.sessionId,
        step: event.step,
        tokens: event.tokens,
        window: event.window,
        threshold: event.threshold,
        at: event.at,
      });
      view.network = { state: 'ok', text: 'ok', at: event.at };
      break;
    case 'handoff':
      if (event.phase === 'done') {
        for (const [key, session] of view.sessions)
          if (session.step === event.step) view.sessions.delete(key);
      }
      break;
    case 'subagent_start':
      view.agents.set(event.toolUseId ?? event.taskId, {
        key: event.toolUseId ?? event.taskId,
        type: event.agentType ?? 'agent',
        description: event.description,
        step: event.step,
        state: 'running',
        startAt: event.at,
        endAt: null,
        lastTool: null,
      });
      break;
    case 'subagent_stop': {
      const agent = view.agents.get(event.toolUseId ?? event.taskId);
      if (agent !== undefined) {
        agent.state = event.status;
        agent.endAt = event.at;
      }
      break;
    }
    case 'tool_call': {
      const agent = event.subagent ? view.agents.get(event.parentToolUseId) : undefined;
      if (agent !== undefined) agent.lastTool = event.text || event.tool;
      break;
    }
    case 'wait':
      view.network = { state: 'waiting', text: `waiting for ${event.host}:${event.port}`, at: event.at };
      break;
    case 'waiting':
      view.network = {
        state: 'waiting',
        text: `waiting for ${event.host}:${event.port} for ${Math.round(event.waitedS)} s, next check in ${Math.round(event.nextCheckS)} s`,
        at: event.at,
      };
      break;
    case 'recovered':
      view.network = { state: 'ok', text: `back after ${Math.round(event.waitedS)} s`, at: event.at };
      break;
    case 'retry':
      view.network = {
        state: 'backoff',
        text: `retry ${event.attempt} after ${event.cause} in ${event.delayS} s`,
        at: event.at,
      };
      break;
    case 'stall':
      view.network = { state: 'stall', text: `no progress for ${Math.round(event.idleS)} s`, at: event.at };
      break;
    default:
      break;
  }
  return view;
}

/** The question waiting for an answer: the newest ask not yet settled, or null. */
export function pendingAsk(view) {
  let pending = null;
  for (const ask of view.asks.values()) if (ask.state === 'asked') pending = ask;
  return pending;
}

/** Each goal check with its state in the latest verdict: 'passed', 'failed' or 'open' (not judged yet). */
export function checkStates(checks, view) {
  const verdict = view.verdicts[view.verdicts.length - 1];
  return checks.map((check) => {
    if (verdict === undefined) return { check, state: 'open' };
    const failed = verdict.failed.some((item) => item.includes(check) || check.includes(item));
    return { check, state: failed ? 'failed' : 'passed' };
  });
}
