/**
 * The text `flower status` prints for a {@link RunStatus}: where the run is, whether a flower drives it now,
 * the brief and goal, each step of the manifest (state, cost, turns, context), the judge's verdicts, and
 * the manifest's total with the last context size. Plain lines, no colour: the command's output is meant
 * to be read, grepped and pasted.
 *
 * @module
 */
import { displayPath } from '../config/config-dir.js';
import type { Env } from '../config/process-environment.js';
import { uiText, type Lang } from '../config/ui-text.js';
import { formatContext, formatContextOf } from '../render/format-numbers.js';
import type { CostBreakdown } from '../runtime/cost-breakdown.js';
import type { RunStatus, StepStatus } from '../runtime/run-status.js';
import type { ParkedState } from '../runtime/usage-limit.js';
import { clockTime, formatElapsed } from '../config/format-elapsed.js';

/** Options of {@link statusLines}. */
export interface StatusLinesOptions {
  env: Env;
  lang: Lang;
  /** Epoch seconds, for the time left of a parked run; the clock by default. */
  now?: number;
}

/** The lines, in order; for a folder without a run, the one line that says so. */
export function statusLines(status: RunStatus, options: StatusLinesOptions): string[] {
  const { lang } = options;
  const path = displayPath(status.workspace, options.env);
  const runDir = displayPath(status.runDir, options.env);
  if (!status.found) return [uiText('status.none', { path, runDir }, lang)];
  const lines = [uiText('status.head', { path, runDir }, lang), liveLine(status, lang)];
  if (status.parked !== null) lines.push(parkedLine(status.parked, options.now ?? Date.now() / 1000, lang));
  const about = [uiText(status.briefConfirmed ? 'status.brief' : 'status.noBrief', {}, lang)];
  if (status.goalChecks > 0)
    about.push(uiText(status.goalChecks === 1 ? 'wake.goal' : 'wake.goals', { n: status.goalChecks }, lang));
  if (status.wakes > 0) about.push(uiText('status.wakes', { n: status.wakes }, lang));
  lines.push(about.join(' · '));
  lines.push(uiText('status.steps', {}, lang));
  if (status.steps.length === 0) lines.push(`  ${uiText('attach.none', {}, lang)}`);
  for (const step of status.steps) lines.push(`  ${stepLine(step, lang)}`);
  for (const verdict of status.verdicts) {
    const state = verdict.state === '' ? '?' : verdict.state;
    const reason = verdict.reason === '' ? '' : ` · ${verdict.reason}`;
    lines.push(`${uiText('status.verdict', { n: verdict.round, state }, lang)}${reason}`);
  }
  const cost = status.costUsd.toFixed(4);
  lines.push(
    status.context === null
      ? uiText('status.totalNoContext', { c: cost }, lang)
      : uiText('status.total', { c: cost, x: contextText(status.context) }, lang),
  );
  if (status.spend !== null && status.spend.responses > 0) lines.push(...spendLines(status.spend, lang));
  return lines;
}

/** Subagents listed by name in the top spenders; the rest are summed on one line. */
const SHOWN_SUBAGENTS = 5;

/** The top spenders: the roles, the main threads, then the costliest subagents with their task line. */
function spendLines(spend: CostBreakdown, lang: Lang): string[] {
  const money = (usd: number): string => `$${usd.toFixed(4)}`;
  const roles = spend.roles.map((role) => `${role.role} ${money(role.usd)}`).join(' · ');
  const lines = [
    uiText('status.spenders', { c: spend.totalUsd.toFixed(4) }, lang),
    `  ${uiText('status.byRole', { list: roles }, lang)}`,
    `  ${uiText('status.mainThreads', { c: spend.mainUsd.toFixed(4) }, lang)}`,
  ];
  for (const subagent of spend.subagents.slice(0, SHOWN_SUBAGENTS)) {
    const bits = [subagent.type, money(subagent.usd)];
    if (subagent.step !== null) bits.push(subagent.step);
    const task = subagent.task === '' ? subagent.description : subagent.task;
    if (task !== '') bits.push(`"${task}"`);
    lines.push(`  ${bits.join(' · ')}`);
  }
  const rest = spend.subagents.slice(SHOWN_SUBAGENTS);
  if (rest.length > 0) {
    const usd = rest.reduce((sum, subagent) => sum + subagent.usd, 0);
    lines.push(`  ${uiText('status.moreSubagents', { n: rest.length, c: usd.toFixed(4) }, lang)}`);
  }
  return lines;
}

function parkedLine(parked: ParkedState, now: number, lang: Lang): string {
  const at = clockTime(parked.resets_at);
  const vars = { step: parked.step, at, left: formatElapsed(Math.ceil(parked.resets_at - now)) };
  return uiText(parked.resets_at > now ? 'status.parked' : 'status.parkedOver', vars, lang);
}

function liveLine(status: RunStatus, lang: Lang): string {
  const holder = status.holder;
  if (holder !== null) {
    if (holder.since === null) return uiText('status.liveLog', { pid: holder.pid }, lang);
    const host = holder.host === null ? '' : ` on ${holder.host}`;
    return uiText('status.live', { pid: holder.pid, host, since: localTime(holder.since) }, lang);
  }
  if (status.lastActivity === null) return uiText('status.idleNever', {}, lang);
  return uiText('status.idle', { at: localTime(status.lastActivity) }, lang);
}

function stepLine(step: StepStatus, lang: Lang): string {
  const state = uiText(
    step.state === 'running' ? 'attach.running' : step.state === 'ok' ? 'attach.ok' : 'attach.failed',
    {},
    lang,
  );
  if (step.state === 'running') return `${step.step} · ${state}`;
  const bits = [step.step, state, `$${step.costUsd.toFixed(4)}`];
  bits.push(
    step.turns === 1 ? uiText('status.turn', {}, lang) : uiText('status.turns', { n: step.turns }, lang),
  );
  if (step.context > 0) bits.push(`context ${formatContext(step.context)}`);
  if (step.state === 'failed' && step.error !== null) bits.push(step.error);
  return bits.join(' · ');
}

function contextText(context: NonNullable<RunStatus['context']>): string {
  return formatContextOf(context.tokens, context.window ?? undefined);
}

/** Epoch seconds as local `YYYY-MM-DD HH:MM:SS`. */
function localTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleString('sv-SE').slice(0, 19);
}
