/**
 * The terminal view of a {@link RunAnalysis}: one heading per section, aligned tables, Unicode bars. Returns
 * lines; the command decides where they go. Every line fits `width` columns, so a terminal never wraps one;
 * piped, the caller passes a fixed width and no colour.
 *
 * @module
 */
import { bytes, compact, dollars, hours, percent, times } from './figure-format.js';
import type { FolderSize, RunAnalysis, ToolUse } from './run-analysis.js';
import { tableLines } from './text-table.js';

/** Colours of the view; identity functions for none. */
export interface TextPaint {
  heading: (text: string) => string;
  bar: (text: string) => string;
  dim: (text: string) => string;
}

/** No colour at all. */
export const PLAIN: TextPaint = { heading: same, bar: same, dim: same };

function same(text: string): string {
  return text;
}

/** The analysis as lines of at most `width` columns. */
export function analysisLines(analysis: RunAnalysis, width: number, paint: TextPaint = PLAIN): string[] {
  const out: string[] = [];
  const heading = (text: string): void => {
    if (out.length > 0) out.push('');
    out.push(...wrap(text, width, '').map((line) => paint.heading(line)));
  };
  const note = (text: string): void => {
    out.push(...wrap(text, width, '  '));
  };
  const table = (parameters: Parameters<typeof tableLines>[0]): void => {
    out.push(...tableLines(parameters, width, paint.bar));
  };

  out.push(...wrap(`Run ${analysis.runDir}`, width, ''));
  if (analysis.workspace !== null) out.push(...wrap(`Workspace ${analysis.workspace}`, width, ''));

  const { ledger } = analysis;
  heading(
    `Ledger: ${ledger.stepCount} steps, ${ledger.runCount} run${ledger.runCount === 1 ? '' : 's'}, ` +
      `${dollars(ledger.costUsd)}, ${hours(ledger.hours)}`,
  );
  if (ledger.stepCount === 0) note('No manifest rows.');
  else
    table({
      headers: ['step', 'cost', 'turns', 'att', 'res', 'gen', 'hours'],
      rows: ledger.steps.map((step) => [
        step.step,
        dollars(step.costUsd),
        String(step.turns),
        String(step.attempts),
        step.resumed ? 'yes' : 'no',
        step.handoffGenerations > 0 ? String(step.handoffGenerations) : '',
        hours(step.hours),
      ]),
      right: [1, 2, 3, 5, 6],
    });
  if (ledger.runCount > 1) {
    table({
      headers: ['run', 'steps', 'cost', 'hours'],
      rows: ledger.runs.map((run) => [run.run, String(run.steps), dollars(run.costUsd), hours(run.hours)]),
      right: [1, 2, 3],
    });
  }

  heading('Cost per role');
  table({
    headers: ['role', 'steps', 'cost', 'share'],
    rows: analysis.roles.map((role) => [
      role.role,
      String(role.steps),
      dollars(role.costUsd),
      percent(role.share),
    ]),
    right: [1, 2, 3],
    bars: analysis.roles.map((role) => role.costUsd),
  });

  const { economics } = analysis;
  heading(`Context economics: main thread vs ${economics.subagentCount} subagents`);
  const share = economics.subagentShare;
  const economyRows: [string, number, number, number | null][] = [
    ['entries', economics.main.entries, economics.subagent.entries, share.entries],
    ['model turns', economics.main.modelTurns, economics.subagent.modelTurns, share.modelTurns],
    ['body chars', economics.main.bodyChars, economics.subagent.bodyChars, share.bodyChars],
    ['output tokens', economics.main.outputTokens, economics.subagent.outputTokens, share.outputTokens],
    ['tool calls', analysis.tools.main.calls, analysis.tools.subagent.calls, share.toolCalls],
    ['input', economics.main.inputTokens, economics.subagent.inputTokens, null],
    ['cache read', economics.main.cacheReadTokens, economics.subagent.cacheReadTokens, null],
    ['cache write', economics.main.cacheCreationTokens, economics.subagent.cacheCreationTokens, null],
    ['thinking', economics.main.thinkingTokens, economics.subagent.thinkingTokens, null],
  ];
  table({
    headers: ['', 'main', 'subagents', 'sub share'],
    rows: economyRows.map(([label, main, sub, ratio]) => [
      label,
      compact(main),
      compact(sub),
      percent(ratio),
    ]),
    right: [1, 2, 3],
    bars: economyRows.map(([, , , ratio]) => ratio ?? 0),
    barMax: 1,
  });
  if (economics.aside.transcripts > 0) {
    note(
      `Side questions (aside/): ${economics.aside.transcripts} transcripts, ${compact(economics.aside.modelTurns)} ` +
        `model turns, ${compact(economics.aside.outputTokens)} output tokens.`,
    );
  }

  const { context } = analysis;
  heading(
    `Main-thread context: ${context.turns} turns` +
      (context.turns === 0
        ? ''
        : `, first ${compact(context.first ?? 0)}, max ${compact(context.max ?? 0)}, last ${compact(context.last ?? 0)}`),
  );
  if (context.turns > 0) {
    table({
      headers: ['turn', 'step', 'context'],
      rows: context.samples.map((point) => [`t${point.turn}`, point.step ?? '-', compact(point.tokens)]),
      right: [0, 2],
      bars: context.samples.map((point) => point.tokens),
    });
    note(
      context.drops.count === 0
        ? 'No significant drop (a fall below 70% of the turn before).'
        : `${context.drops.count} significant drop${context.drops.count === 1 ? '' : 's'} (below 70% of the turn ` +
            `before: a new session, a handoff, a compaction or a pruned load) at turn ` +
            `${context.drops.firstTurns.map((turn) => `t${turn}`).join(', ')}` +
            `${context.drops.count > context.drops.firstTurns.length ? ', …' : ''}.`,
    );
    for (const handoff of context.handoffs) {
      note(
        `Handoff in ${handoff.step} at ${compact(handoff.context)} (threshold ${compact(handoff.threshold)}).`,
      );
    }
  }

  const { cache } = analysis;
  heading(`Cache: hit rate ${percent(cache.hitRate)} of ${compact(cache.totalInputTokens)} input tokens`);
  note(
    `hits ${compact(cache.hitTokens)}, written ${compact(cache.creationTokens)}, uncached ${compact(cache.uncachedTokens)}; ` +
      `output ${compact(cache.outputTokens)} (thinking ${compact(cache.thinkingTokens)})`,
  );
  if (cache.perStep.length > 0) {
    table({
      headers: ['step', 'input', 'hit rate'],
      rows: cache.perStep.map((step) => [step.step, compact(step.totalInputTokens), percent(step.hitRate)]),
      right: [1, 2],
      bars: cache.perStep.map((step) => step.hitRate ?? 0),
      barMax: 1,
    });
  }

  const { tools } = analysis;
  heading(
    `Tool use: ${tools.main.calls} main vs ${tools.subagent.calls} subagent calls; ` +
      `${tools.dispatches} dispatches, ${times(tools.callsPerDispatch)} calls each`,
  );
  table({
    headers: ['role', 'calls'],
    rows: tools.perRole.map((role) => [role.role, String(role.calls)]),
    right: [1],
    bars: tools.perRole.map((role) => role.calls),
  });
  toolTable('main thread', tools.main);
  toolTable('subagents', tools.subagent);
  if (tools.mainBashVerbs.length > 0) {
    out.push('');
    table({
      headers: ['main Bash', 'calls'],
      rows: tools.mainBashVerbs.map((verb) => [verb.verb, String(verb.count)]),
      right: [1],
      bars: tools.mainBashVerbs.map((verb) => verb.count),
    });
  }

  const { subagents } = analysis;
  const spread = subagents.outputTokens;
  heading(
    `Subagents: ${subagents.count}` +
      (spread === null
        ? ''
        : `; output tokens max ${compact(spread.max)} / median ${compact(spread.median)} / min ${compact(spread.min)}`),
  );
  if (subagents.count > 0) {
    table({
      headers: ['agent', 'worker', 'step', 'turns', 'calls', 'output', 'cost', 'task'],
      rows: subagents.list.map((agent) => [
        agent.agent.replace(/^agent-/, ''),
        agent.worker ?? '-',
        agent.step ?? '-',
        String(agent.modelTurns),
        String(agent.toolCalls),
        compact(agent.outputTokens),
        dollars(agent.pricedUsd),
        shortTask(agent.task),
      ]),
      right: [3, 4, 5, 6],
    });
    note('Cost priced from each response’s usage at list price.');
  }

  const { workbench, scriptReuse, savings } = analysis;
  heading(
    workbench.path === null
      ? 'Workbench: none found'
      : `Workbench (${workbench.placement ?? ''}): ${workbench.path}`,
  );
  const folders: [string, FolderSize | null][] = [
    ['spill', workbench.spill],
    ['trim archives', workbench.trimArchives],
    ['scripts', workbench.scripts],
    ['artifacts', workbench.artifacts],
    ['notes', workbench.notes],
  ];
  const present = folders.filter((entry): entry is [string, FolderSize] => entry[1] !== null);
  if (present.length > 0) {
    table({
      headers: ['folder', 'files', 'size'],
      rows: present.map(([name, size]) => [name, String(size.files), bytes(size.bytes)]),
      right: [1, 2],
      bars: present.map(([, size]) => size.bytes),
    });
  }
  note(
    `Scripts: ${scriptReuse.scripts} written ${scriptReuse.writes}× and run ${scriptReuse.runs}×; ` +
      `reused ${percent(scriptReuse.reusedShare)}, never run ${scriptReuse.neverRun}, ` +
      `runs per write ${times(scriptReuse.ratio)}.`,
  );

  heading('Kept out of the context');
  note(
    `spill: ${savings.spill.results} results, ${compact(savings.spill.chars)} chars; ` +
      `trim: ${savings.trim.loads} loads, ${savings.trim.cleared} results archived (${compact(savings.trim.charsSaved)} ` +
      `chars saved); expire: ${savings.trim.expired} stale results; prune: ${savings.trim.pruned} entries, ` +
      `${savings.trim.denialsDropped} denials dropped.`,
  );
  return out;

  function toolTable(label: string, use: ToolUse): void {
    out.push('');
    table({
      headers: [label, 'calls'],
      rows: use.top.map((tool) => [tool.tool, String(tool.calls)]),
      right: [1],
      bars: use.top.map((tool) => tool.calls),
    });
    note(
      `denials ${use.denials} of ${use.calls} calls (${percent(use.denialRate)})` +
        (use.denialsByKind.length === 0
          ? ''
          : `: ${use.denialsByKind.map((denial) => `${denial.kind} ${denial.count}`).join(', ')}`),
    );
  }
}

/** `text` wrapped at spaces to `width` columns, every line after the first indented like the first. */
function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(' ')) {
    if (line.trim() !== '' && line.length + 1 + word.length > width) {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += line.trim() === '' ? word : ` ${word}`;
  }
  if (line.trim() !== '') lines.push(line.trimEnd());
  return lines;
}

/** Longest task line shown in the subagent table; the JSON keeps it whole. */
const TASK_WIDTH = 40;

function shortTask(task: string | null): string {
  if (task === null || task === '') return '-';
  return task.length > TASK_WIDTH ? `${task.slice(0, TASK_WIDTH - 1)}…` : task;
}
