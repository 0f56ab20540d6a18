/**
 * Hand-drawn SVG charts for the analyze report: a line chart (several series, horizontal reference lines,
 * vertical markers) and a horizontal bar chart. Plain strings, no script, no library: the report must open
 * from a file with no network (docs/architecture.md says why no chart library is inlined instead).
 *
 * @module
 */

/** A colour per series, readable on white and told apart in print. */
export const PALETTE = [
  '#2563eb',
  '#d97706',
  '#059669',
  '#7c3aed',
  '#dc2626',
  '#0891b2',
  '#65a30d',
  '#db2777',
];

/** One series of a line chart. */
export interface LineSeries {
  label: string;
  color: string;
  points: readonly { x: number; y: number; title?: string }[];
  /** Draw as steps (the value holds until the next point), e.g. cost so far. */
  stepped?: boolean;
}

/** A line chart. */
export interface LineChart {
  title: string;
  series: readonly LineSeries[];
  xLabel: string;
  yLabel: string;
  formatX(value: number): string;
  formatY(value: number): string;
  /** Dashed horizontal lines over `[x0, x1]` (a handoff threshold for one session). */
  levels?: readonly { y: number; x0: number; x1: number; label: string; color: string }[];
  /** Vertical markers (a handoff, a retired session). */
  marks?: readonly { x: number; label: string; color: string }[];
}

const WIDTH = 760;
const HEIGHT = 300;
const LEFT = 64;
const RIGHT = 16;
const TOP = 28;
const BOTTOM = 44;

/** Escapes text for HTML and SVG. */
export function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The chart as one `<svg>` element. */
export function lineChartSvg(chart: LineChart): string {
  const xs = chart.series.flatMap((series) => series.points.map((point) => point.x));
  const ys = [
    ...chart.series.flatMap((series) => series.points.map((point) => point.y)),
    ...(chart.levels ?? []).map((level) => level.y),
  ];
  const parts: string[] = [svgOpen(chart.title)];
  if (xs.length === 0) {
    parts.push(
      `<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" class="empty">no data</text></svg>`,
    );
    return parts.join('');
  }
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs, xMin + 1);
  const yMax = niceCeiling(Math.max(...ys) || 1);
  const px = (x: number): number => LEFT + ((x - xMin) / (xMax - xMin)) * (WIDTH - LEFT - RIGHT);
  const py = (y: number): number => TOP + (1 - y / yMax) * (HEIGHT - TOP - BOTTOM);
  for (let tick = 0; tick <= 4; tick += 1) {
    const value = (yMax * tick) / 4;
    const y = py(value).toFixed(1);
    parts.push(
      `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y}" y2="${y}" class="grid"/>`,
      `<text x="${LEFT - 6}" y="${y}" dy="4" text-anchor="end" class="tick">${escapeXml(chart.formatY(value))}</text>`,
    );
  }
  for (let tick = 0; tick <= 4; tick += 1) {
    const value = xMin + ((xMax - xMin) * tick) / 4;
    parts.push(
      `<text x="${px(value).toFixed(1)}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle" class="tick">${escapeXml(chart.formatX(value))}</text>`,
    );
  }
  parts.push(
    `<text x="${(LEFT + WIDTH - RIGHT) / 2}" y="${HEIGHT - 8}" text-anchor="middle" class="axis">${escapeXml(chart.xLabel)}</text>`,
    `<text x="14" y="${(TOP + HEIGHT - BOTTOM) / 2}" text-anchor="middle" class="axis" transform="rotate(-90 14 ${(TOP + HEIGHT - BOTTOM) / 2})">${escapeXml(chart.yLabel)}</text>`,
  );
  for (const level of chart.levels ?? []) {
    const y = py(level.y).toFixed(1);
    parts.push(
      `<line x1="${px(level.x0).toFixed(1)}" x2="${Math.max(px(level.x1), px(level.x0) + 4).toFixed(1)}" y1="${y}" y2="${y}" stroke="${level.color}" class="level"><title>${escapeXml(level.label)}</title></line>`,
    );
  }
  for (const series of chart.series) {
    if (series.points.length === 0) continue;
    const coordinates: string[] = [];
    let previous: { x: number; y: number } | null = null;
    for (const point of series.points) {
      if (series.stepped === true && previous !== null) {
        coordinates.push(`${px(point.x).toFixed(1)},${py(previous.y).toFixed(1)}`);
      }
      coordinates.push(`${px(point.x).toFixed(1)},${py(point.y).toFixed(1)}`);
      previous = point;
    }
    parts.push(
      `<polyline points="${coordinates.join(' ')}" fill="none" stroke="${series.color}" class="line"><title>${escapeXml(series.label)}</title></polyline>`,
    );
    for (const point of series.points) {
      parts.push(
        `<circle cx="${px(point.x).toFixed(1)}" cy="${py(point.y).toFixed(1)}" r="2.5" fill="${series.color}"><title>${escapeXml(point.title ?? `${series.label}: ${chart.formatY(point.y)}`)}</title></circle>`,
      );
    }
  }
  for (const mark of chart.marks ?? []) {
    const x = px(mark.x).toFixed(1);
    parts.push(
      `<line x1="${x}" x2="${x}" y1="${TOP}" y2="${HEIGHT - BOTTOM}" stroke="${mark.color}" class="mark"/>`,
      `<text x="${x}" y="${TOP + 12}" dx="4" class="marklabel" fill="${mark.color}">${escapeXml(mark.label)}</text>`,
    );
  }
  parts.push(legend(chart.series), '</svg>');
  return parts.join('');
}

/** One bar. */
export interface Bar {
  label: string;
  value: number;
  /** The text written after the bar. */
  text: string;
  color?: string;
}

/** A horizontal bar chart; bars scale to `max` (default: the largest value). */
export function barChartSvg(title: string, bars: readonly Bar[], max?: number): string {
  const rowHeight = 24;
  const labelWidth = 170;
  const textWidth = 110;
  const height = TOP + Math.max(1, bars.length) * rowHeight + 8;
  const scale = max ?? Math.max(0, ...bars.map((entry) => entry.value));
  const room = WIDTH - labelWidth - textWidth - RIGHT;
  const parts = [svgOpen(title, height)];
  if (bars.length === 0) {
    parts.push(
      `<text x="${WIDTH / 2}" y="${TOP + 14}" text-anchor="middle" class="empty">no data</text></svg>`,
    );
    return parts.join('');
  }
  bars.forEach((entry, index) => {
    const y = TOP + index * rowHeight;
    const length = scale > 0 ? Math.max(entry.value > 0 ? 1 : 0, (entry.value / scale) * room) : 0;
    parts.push(
      `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end" class="tick">${escapeXml(entry.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 4}" width="${length.toFixed(1)}" height="${rowHeight - 8}" fill="${entry.color ?? PALETTE[0]}"><title>${escapeXml(`${entry.label}: ${entry.text}`)}</title></rect>`,
      `<text x="${(labelWidth + length + 6).toFixed(1)}" y="${y + 15}" class="tick">${escapeXml(entry.text)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

function svgOpen(title: string, height = HEIGHT): string {
  return (
    `<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeXml(title)}">` +
    `<title>${escapeXml(title)}</title>`
  );
}

function legend(series: readonly LineSeries[]): string {
  let x = LEFT;
  const parts: string[] = [];
  for (const entry of series) {
    parts.push(
      `<rect x="${x}" y="6" width="10" height="10" fill="${entry.color}"/>`,
      `<text x="${x + 14}" y="15" class="legend">${escapeXml(entry.label)}</text>`,
    );
    x += 24 + entry.label.length * 7;
    if (x > WIDTH - 120) break;
  }
  return parts.join('');
}

/** A round number at or above `value`: 1, 2 or 5 times a power of ten. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
