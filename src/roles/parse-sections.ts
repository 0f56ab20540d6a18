/**
 * The section parser shared by the documents flower reads back from a model or a human: brief, goal,
 * verdict, handoff and bequest (docs/go-path.md, decisions.md D109). It finds labelled sections in Markdown,
 * in English or Chinese, and is strict about what counts as a heading so that a body line such as
 * "Goal: keep it small" or a heading inside pasted code never opens a section.
 *
 * @module
 */

/** `3.` `3、` `3)` `3）` before a label. */
const NUMBER_PREFIX = /^\d+\s*(?:[.)]\s+|[、）]\s*)/;
/** `-` `*` `+` bullets and `1.` `1、` `1)` numbers that open a list item. */
const LIST_MARKER = /^(\s*)(?:[-*+]\s+|\d+\s*(?:[.)]\s+|[、）]\s*))(.*)$/;
const HORIZONTAL_RULE = /^\s*([-*_])(?:\s*\1){2,}\s*$/;
const COLON = /^\s*[:：]\s*/;

interface Label<K extends string> {
  key: K;
  name: string;
}

interface Heading<K extends string> {
  key: K;
  rest: string;
}

/**
 * The sections of `text` by key. `aliases` maps each key to the labels that open it, compared without case.
 * A label must be the whole heading text (or be followed by a colon), so "未知" never takes a heading meant
 * for "未知与假设", in whatever order the aliases are listed.
 *
 * A heading is a line that is one of:
 * - a Markdown heading `#`…`######` whose text is the label, optionally followed by a colon and a body;
 * - a bold label, `**Label**` or `__Label__` (colon inside or outside), optionally followed by a body;
 * - the label alone on its line, optionally followed by a colon.
 * Each may start with a number (`3.` `3、` `3)`). A section's body runs to the next heading of any key;
 * other headings (`## Added during the run …`) stay in the body. Fenced code (``` or ~~~) is removed first,
 * and an unclosed fence drops everything after it, so truncated output loses its sections rather than
 * gaining false ones. A repeated section keeps its first non-empty body. Bodies are trimmed, leading and
 * trailing horizontal rules dropped, and runs of blank lines collapsed to one. Empty sections are absent.
 */
export function parseSections<K extends string>(
  text: string,
  aliases: Record<K, string[]>,
): Partial<Record<K, string>> {
  const labels = (Object.entries(aliases) as Array<[K, string[]]>)
    .flatMap(([key, names]) => names.map((name) => ({ key, name: name.trim().toLowerCase() })))
    .filter((label) => label.name !== '');
  const result: Partial<Record<K, string>> = {};
  let current: { key: K; lines: string[] } | null = null;
  const finish = (): void => {
    if (current === null) return;
    const body = cleanBody(current.lines);
    if (body !== '' && result[current.key] === undefined) result[current.key] = body;
  };
  for (const line of withoutFences(text)) {
    const heading = matchHeading(line, labels);
    if (heading === null) {
      current?.lines.push(line);
      continue;
    }
    finish();
    current = { key: heading.key, lines: heading.rest === '' ? [] : [heading.rest] };
  }
  finish();
  return result;
}

/**
 * The items of a list section: each `-` `*` `+` or numbered item with its marker removed; deeper-indented
 * lines continue the item above them. A section with no list markers gives one item per non-empty line.
 */
export function listItems(body: string): string[] {
  const lines = body.split(/\r?\n/);
  const markers = lines.map((line) => LIST_MARKER.exec(line));
  const first = markers.find((match) => match !== null);
  if (first === undefined || first === null) {
    return lines.map((line) => line.trim()).filter((line) => line !== '');
  }
  const baseIndent = first[1]?.length ?? 0;
  const items: string[] = [];
  lines.forEach((line, index) => {
    const marker = markers[index];
    if (marker !== null && marker !== undefined && (marker[1]?.length ?? 0) <= baseIndent) {
      items.push((marker[2] ?? '').trim());
    } else if (items.length > 0 && line.trim() !== '') {
      items[items.length - 1] = `${items[items.length - 1] ?? ''}\n${line.trim()}`.trim();
    }
  });
  return items.filter((item) => item !== '');
}

function matchHeading<K extends string>(line: string, labels: readonly Label<K>[]): Heading<K> | null {
  let text = line.trim();
  let marked = false;
  const hashes = /^#{1,6}(?!#)\s*/.exec(text);
  if (hashes !== null) {
    marked = true;
    text = text.slice(hashes[0].length).replace(/\s+#+\s*$/, '');
  }
  text = text.replace(NUMBER_PREFIX, '');
  const emphasis = /^(\*\*|__)(.+?)\1(.*)$/.exec(text);
  if (emphasis !== null) {
    const inner = (emphasis[2] ?? '').trim().replace(NUMBER_PREFIX, '');
    const label = labels.find((candidate) => labelOf(inner) === candidate.name);
    if (label === undefined) return null;
    return { key: label.key, rest: (emphasis[3] ?? '').replace(COLON, '').trim() };
  }
  const lower = text.toLowerCase();
  for (const label of labels) {
    if (!lower.startsWith(label.name)) continue;
    const after = text.slice(label.name.length);
    if (after.trim() === '' || /^\s*[:：]\s*$/.test(after)) return { key: label.key, rest: '' };
    // A body on the heading line needs markup (decisions.md D109): plain "Goal: keep it small" is a sentence.
    if (marked && COLON.test(after)) return { key: label.key, rest: after.replace(COLON, '').trim() };
  }
  return null;
}

/** The label inside bold markup, without a trailing colon. */
function labelOf(inner: string): string {
  return inner.replace(/\s*[:：]\s*$/, '').toLowerCase();
}

/** The lines of `text` outside fenced code blocks; an unclosed fence ends the text. */
function withoutFences(text: string): string[] {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null) {
      if (opener !== null) fence = opener[1] ?? null;
      else kept.push(line);
      continue;
    }
    const closer = /^\s{0,3}(`{3,}|~{3,})\s*$/.exec(line);
    if (closer !== null && closer[1]?.[0] === fence[0] && (closer[1]?.length ?? 0) >= fence.length) {
      fence = null;
    }
  }
  return kept;
}

function cleanBody(lines: readonly string[]): string {
  const body = [...lines];
  const ignorable = (line: string | undefined): boolean =>
    line !== undefined && (line.trim() === '' || HORIZONTAL_RULE.test(line));
  while (ignorable(body[0])) body.shift();
  while (ignorable(body[body.length - 1])) body.pop();
  return body
    .join('\n')
    .replace(/\n[ \t]*\n(?:[ \t]*\n)+/g, '\n\n')
    .trim();
}
