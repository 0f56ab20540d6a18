/**
 * `analysisHtml(analysis)`: the analyze report as one self-contained HTML file — inline CSS and inline SVG,
 * no script, no font, no image, and a Content-Security-Policy that forbids every fetch, so it opens from a
 * file or an e-mail with no network. `flower analyze --html` writes it; the dashboard links to it.
 *
 * @module
 */
import { bytes, compact, dollars, hours, percent, times } from './figure-format.js';
import type { RunAnalysis } from './run-analysis.js';
import { barChartSvg, escapeXml, lineChartSvg, PALETTE, type LineSeries } from './svg-chart.js';

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:820px;color:#111827;padding:0 12px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
.meta{color:#4b5563;font-size:13px;word-break:break-all}
table{border-collapse:collapse;margin:6px 0 10px;font-variant-numeric:tabular-nums}
th,td{padding:3px 10px 3px 0;text-align:right}th:first-child,td:first-child{text-align:left}
th{font-weight:600;color:#374151;border-bottom:1px solid #d1d5db}
svg{width:100%;height:auto;display:block;margin:4px 0 12px}
svg .grid{stroke:#e5e7eb}svg .tick{font-size:11px;fill:#4b5563}svg .axis{font-size:12px;fill:#374151}
svg .legend{font-size:11px;fill:#111827}svg .line{stroke-width:2}svg .level{stroke-dasharray:6 4;stroke-width:1.5}
svg .mark{stroke-dasharray:2 3;stroke-width:1.5}svg .marklabel{font-size:11px}svg .empty{font-size:13px;fill:#9ca3af}
.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:8px;margin:8px 0}
.figure{background:#f3f4f6;border-radius:6px;padding:8px 10px}.figure b{display:block;font-size:18px}
`;

/** The report for `analysis`, a complete HTML document. */
export function analysisHtml(analysis: RunAnalysis): string {
  const { ledger, economics, context, cache, tools, subagents, workbench, scriptReuse, savings } = analysis;
  const body: string[] = [];
  body.push(
    `<h1>flower analyze</h1><p class="meta">${escapeXml(analysis.runDir)}${analysis.workspace === null ? '' : ` · workspace ${escapeXml(analysis.workspace)}`} · schema ${analysis.schema}</p>`,
    figures([
      ['cost', dollars(ledger.costUsd)],
      ['steps', `${ledger.stepCount} in ${ledger.runCount} run${ledger.runCount === 1 ? '' : 's'}`],
      ['time', hours(ledger.hours)],
      ['cache hit rate', percent(cache.hitRate)],
      ['subagents', String(subagents.count)],
      ['tool calls', `${tools.main.calls} main · ${tools.subagent.calls} sub`],
    ]),
  );

  body.push('<h2>Context per session</h2>', contextChart(analysis));
  body.push(
    `<p>${context.turns} main-thread turns; first ${compact(context.first ?? 0)}, peak ${compact(context.max ?? 0)}, last ${compact(context.last ?? 0)}; ${context.drops.count} significant drops. Dashed: each session's handoff threshold; a red line: the session was retired by a handoff.</p>`,
  );

  body.push('<h2>Cost over time</h2>', costChart(analysis));
  body.push(
    '<h2>Ledger</h2>',
    table(
      ['step', 'role', 'cost', 'turns', 'attempts', 'resumed', 'handoffs', 'hours'],
      ledger.steps.map((step) => [
        step.step,
        step.role,
        dollars(step.costUsd),
        String(step.turns),
        String(step.attempts),
        step.resumed ? 'yes' : 'no',
        String(step.handoffGenerations),
        hours(step.hours),
      ]),
    ),
    '<h2>Cost per role</h2>',
    barChartSvg(
      'Cost per role',
      analysis.roles.map((role, index) => ({
        label: role.role,
        value: role.costUsd,
        text: `${dollars(role.costUsd)} (${percent(role.share)})`,
        color: PALETTE[index % PALETTE.length] ?? '#2563eb',
      })),
    ),
  );

  body.push(
    '<h2>Tool calls by role</h2>',
    barChartSvg(
      'Tool calls by role',
      tools.perRole.map((role, index) => ({
        label: role.role,
        value: role.calls,
        text: String(role.calls),
        color: PALETTE[index % PALETTE.length] ?? '#2563eb',
      })),
    ),
    `<p>${tools.dispatches} dispatches, ${times(tools.callsPerDispatch)} subagent calls per dispatch. Denials: main ${tools.main.denials} of ${tools.main.calls} (${percent(tools.main.denialRate)}), subagents ${tools.subagent.denials} of ${tools.subagent.calls} (${percent(tools.subagent.denialRate)}).</p>`,
    table(
      ['tool', 'main', 'subagents'],
      mergedTools(analysis).map(([tool, main, sub]) => [tool, String(main), String(sub)]),
    ),
  );

  body.push(
    '<h2>Cache hit rate per step</h2>',
    barChartSvg(
      'Cache hit rate per step',
      cache.perStep.map((step) => ({
        label: step.step,
        value: step.hitRate ?? 0,
        text: `${percent(step.hitRate)} of ${compact(step.totalInputTokens)}`,
      })),
      1,
    ),
    `<p>Overall ${percent(cache.hitRate)} of ${compact(cache.totalInputTokens)} input tokens: ${compact(cache.hitTokens)} read from cache, ${compact(cache.creationTokens)} written, ${compact(cache.uncachedTokens)} uncached. Output ${compact(cache.outputTokens)} (thinking ${compact(cache.thinkingTokens)}).</p>`,
  );

  body.push(
    '<h2>Context economics</h2>',
    table(
      ['', 'main', 'subagents', 'subagent share'],
      [
        ['entries', economics.main.entries, economics.subagent.entries, economics.subagentShare.entries],
        [
          'model turns',
          economics.main.modelTurns,
          economics.subagent.modelTurns,
          economics.subagentShare.modelTurns,
        ],
        [
          'body chars',
          economics.main.bodyChars,
          economics.subagent.bodyChars,
          economics.subagentShare.bodyChars,
        ],
        [
          'output tokens',
          economics.main.outputTokens,
          economics.subagent.outputTokens,
          economics.subagentShare.outputTokens,
        ],
        ['tool calls', tools.main.calls, tools.subagent.calls, economics.subagentShare.toolCalls],
      ].map(([label, main, sub, share]) => [
        String(label),
        compact(Number(main)),
        compact(Number(sub)),
        percent(share as number | null),
      ]),
    ),
  );

  const spread = subagents.outputTokens;
  body.push(
    '<h2>Subagents</h2>',
    `<p>${subagents.count} subagents${spread === null ? '' : `; output tokens max ${compact(spread.max)}, median ${compact(spread.median)}, min ${compact(spread.min)}`}.</p>`,
    table(
      ['agent', 'step', 'turns', 'calls', 'output tokens', 'cost (list price)'],
      subagents.list.map((agent) => [
        agent.agent,
        agent.step ?? '-',
        String(agent.modelTurns),
        String(agent.toolCalls),
        compact(agent.outputTokens),
        dollars(agent.pricedUsd),
      ]),
    ),
  );

  body.push(
    '<h2>What spill, trim and expiry kept out</h2>',
    barChartSvg('Characters kept out of the context', [
      {
        label: 'spill (at the tool)',
        value: savings.spill.chars,
        text: `${compact(savings.spill.chars)} chars, ${savings.spill.results} results`,
      },
      {
        label: 'trim (on resume)',
        value: savings.trim.charsSaved,
        text: `${compact(savings.trim.charsSaved)} chars, ${savings.trim.cleared} results`,
        color: PALETTE[1] ?? '#d97706',
      },
    ]),
    `<p>Expiry replaced ${savings.trim.expired} stale glance results; prune dropped ${savings.trim.pruned} entries and ${savings.trim.denialsDropped} denials, over ${savings.trim.loads} loads.</p>`,
    '<h2>Workbench</h2>',
    `<p class="meta">${workbench.path === null ? 'none found' : `${escapeXml(workbench.path)} (${workbench.placement ?? ''})`}</p>`,
    table(
      ['folder', 'files', 'size'],
      (
        [
          ['spill', workbench.spill],
          ['trim archives', workbench.trimArchives],
          ['scripts', workbench.scripts],
          ['artifacts', workbench.artifacts],
          ['notes', workbench.notes],
        ] as const
      )
        .filter(([, size]) => size !== null)
        .map(([name, size]) => [name, String(size?.files ?? 0), bytes(size?.bytes ?? 0)]),
    ),
    `<p>Scripts: ${scriptReuse.scripts} written ${scriptReuse.writes} times and run ${scriptReuse.runs} times; reused ${percent(scriptReuse.reusedShare)}, never run ${scriptReuse.neverRun}, runs per write ${times(scriptReuse.ratio)}.</p>`,
  );

  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>flower analyze — ${escapeXml(analysis.runDir)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    ...body,
    '</body></html>',
    '',
  ].join('\n');
}

function contextChart(analysis: RunAnalysis): string {
  const sessions = analysis.context.sessions.filter((session) => session.points.length > 0);
  const series: LineSeries[] = sessions.map((session, index) => ({
    label: session.step ?? session.sessionId.slice(0, 8),
    color: PALETTE[index % PALETTE.length] ?? '#2563eb',
    points: session.points.map((point) => ({
      x: point.turn,
      y: point.tokens,
      title: `t${point.turn} ${session.step ?? ''}: ${compact(point.tokens)}`,
    })),
  }));
  const levels = sessions.flatMap((session, index) => {
    const first = session.points[0];
    const last = session.points.at(-1);
    if (session.threshold === null || first === undefined || last === undefined) return [];
    return [
      {
        y: session.threshold,
        x0: first.turn,
        x1: last.turn,
        label: `handoff threshold ${compact(session.threshold)}`,
        color: PALETTE[index % PALETTE.length] ?? '#2563eb',
      },
    ];
  });
  const marks = sessions.flatMap((session) => {
    const last = session.points.at(-1);
    if (session.retiredBy === null || last === undefined) return [];
    return [{ x: last.turn, label: `handoff (${session.retiredBy})`, color: '#dc2626' }];
  });
  return lineChartSvg({
    title: 'Context per main session',
    series,
    xLabel: 'main-thread turn',
    yLabel: 'context tokens',
    formatX: (value) => `t${Math.round(value)}`,
    formatY: compact,
    levels,
    marks,
  });
}

function costChart(analysis: RunAnalysis): string {
  const points = analysis.costOverTime;
  const start = points[0]?.at ?? 0;
  const steps: string[] = [];
  for (const point of points) if (!steps.includes(point.step)) steps.push(point.step);
  const series: LineSeries[] = steps.map((step, index) => ({
    label: step,
    color: PALETTE[index % PALETTE.length] ?? '#2563eb',
    stepped: true,
    points: points
      .filter((point) => point.step === step)
      .map((point) => ({
        x: (point.at - start) / 60,
        y: point.costUsd,
        title: `${step}: ${dollars(point.costUsd)} so far`,
      })),
  }));
  return lineChartSvg({
    title: 'Cost so far, by step',
    series,
    xLabel: 'minutes since the first cost',
    yLabel: 'dollars so far',
    formatX: (value) => `${value.toFixed(value < 10 ? 1 : 0)}m`,
    formatY: (value) => `$${value < 1 ? value.toFixed(3) : value.toFixed(2)}`,
  });
}

function mergedTools(analysis: RunAnalysis): [string, number, number][] {
  const rows = new Map<string, [number, number]>();
  for (const tool of analysis.tools.main.top) rows.set(tool.tool, [tool.calls, 0]);
  for (const tool of analysis.tools.subagent.top) {
    const row = rows.get(tool.tool) ?? [0, 0];
    row[1] = tool.calls;
    rows.set(tool.tool, row);
  }
  return [...rows].map(([tool, [main, sub]]) => [tool, main, sub]);
}

function figures(items: readonly (readonly [string, string])[]): string {
  return `<div class="figures">${items
    .map(([label, value]) => `<div class="figure">${escapeXml(label)}<b>${escapeXml(value)}</b></div>`)
    .join('')}</div>`;
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = headers.map((header) => `<th>${escapeXml(header)}</th>`).join('');
  const lines = rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeXml(cell)}</td>`).join('')}</tr>`)
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${lines}</tbody></table>`;
}
