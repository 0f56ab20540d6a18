/**
 * Aligned text tables with an optional Unicode bar column, fitted to a width: the first column gives way
 * (cut with `...`) before anything else, the bar takes what is left (between 8 and 44 cells). Widths are
 * display columns, so wide characters in a step name do not break the alignment.
 *
 * @module
 */
import { displayWidth, fitLine } from '../render/display-width.js';

/** Eighth blocks, so a bar's end is drawn to an eighth of a cell. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const FULL = '█';
const MIN_BAR = 8;
const MAX_BAR = 44;
const GAP = '  ';

/** A bar of `value / max` of `cells` cells; empty for a zero or missing maximum. */
export function bar(value: number, max: number, cells: number): string {
  if (!(max > 0) || !(value > 0)) return '';
  const eighths = Math.max(1, Math.round((Math.min(value, max) / max) * cells * 8));
  return FULL.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? '');
}

/** One table. */
export interface TextTable {
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  /** Columns aligned right (by index); the others are aligned left. */
  right?: readonly number[];
  /** A value per row, drawn as a bar after the last column, scaled to the largest. */
  bars?: readonly number[];
  /** The scale of the bars, when not the largest value. */
  barMax?: number;
}

/** The table's lines, indented by two columns, each at most `width` columns wide. */
export function tableLines(table: TextTable, width: number, paint: (text: string) => string): string[] {
  const indent = '  ';
  const all = [table.headers, ...table.rows];
  const widths = table.headers.map((_, column) =>
    Math.max(...all.map((row) => displayWidth(row[column] ?? ''))),
  );
  const rest = widths.slice(1).reduce((total, value) => total + value + GAP.length, 0);
  const barCells = table.bars === undefined ? 0 : MIN_BAR + GAP.length;
  const firstBudget = width - indent.length - rest - barCells;
  if (widths[0] !== undefined && widths[0] > firstBudget) widths[0] = Math.max(4, firstBudget);
  const used =
    indent.length + widths.reduce((total, value) => total + value, 0) + GAP.length * (widths.length - 1);
  const cells = Math.max(MIN_BAR, Math.min(MAX_BAR, width - used - GAP.length));
  const max = table.barMax ?? Math.max(0, ...(table.bars ?? []));
  const right = new Set(table.right ?? []);
  const line = (row: readonly string[], barValue: number | null): string => {
    const cellsText = widths.map((columnWidth, column) => {
      const text = fitLine(row[column] ?? '', columnWidth);
      const pad = ' '.repeat(Math.max(0, columnWidth - displayWidth(text)));
      return right.has(column) ? pad + text : text + pad;
    });
    const drawn = barValue === null ? '' : bar(barValue, max, cells);
    const text = indent + cellsText.join(GAP) + (drawn === '' ? '' : GAP + paint(drawn));
    return text.trimEnd();
  };
  return [
    line(table.headers, null),
    ...table.rows.map((row, index) => line(row, table.bars?.[index] ?? null)),
  ];
}
