/**
 * The reasons live in the repository: every comment that cites a reason must point at something a reader of
 * the repository has. A decision is cited as `decisions.md D30` and must have the anchor `#d30` in
 * docs/decisions.md; a page is cited as `docs/<name>.md` and must exist. Citations of documents outside the
 * repository (spec section signs, "decision 30", spec file names, bare `D13`) are refused, because the reader
 * cannot follow them and the same bare number meant different things in different spec files.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['src', 'test', 'bench', 'scripts'];
const SOURCE = /\.(ts|mts|js|mjs)$/;
/** This file, whose examples of refused citations are data, not citations. */
const SELF = fileURLToPath(import.meta.url);

/** A decision citation: `decisions.md D5`, `decisions.md D5, D9 and D23`, `decisions.md D401–D403`. */
const DECISIONS = /decisions\.md (D\d+(?:(?:, | and | or |–)D\d+)*)/g;
/** A page citation: `docs/resilience.md`. */
const PAGE = /\bdocs\/([a-z-]+)\.md/g;
/** What may not be left once the valid citations are taken out of a line. */
const OUTSIDE = [
  { name: 'a section sign of an outside document', pattern: /\u00a7/ },
  { name: 'a decision number without decisions.md', pattern: /\bD\d+\b/ },
  { name: 'a numbered decision of an outside list', pattern: /\b[Dd]ecisions? \d/ },
  // `runtime.md` and `api.md` are docs pages too, so only the names that exist nowhere in the repository.
  {
    name: 'a spec or research file',
    pattern:
      /\b(?:roles-and-mechanisms|cli-and-config|context-and-stores|sdk-feasibility|ecosystem|aesthetics)\.md\b/,
  },
];

/** The decision anchors docs/decisions.md defines (`<a id="d30"></a>`). */
function decisionAnchors(text: string): Set<string> {
  return new Set([...text.matchAll(/<a id="(d\d+)"><\/a>/g)].map((match) => match[1]!.toUpperCase()));
}

/** Every problem with the citations of one text, as `line: what`. */
function citationProblems(text: string, anchors: Set<string>, pageExists: (name: string) => boolean) {
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    const at = `${index + 1}`;
    let rest = line.replace(DECISIONS, (_whole, list: string) => {
      for (const id of list.match(/D\d+/g) ?? []) {
        if (!anchors.has(id)) problems.push(`${at}: decisions.md has no ${id}`);
      }
      return '';
    });
    rest = rest.replace(PAGE, (whole, name: string) => {
      if (!pageExists(name)) problems.push(`${at}: ${whole} does not exist`);
      return '';
    });
    for (const { name, pattern } of OUTSIDE) {
      const found = pattern.exec(rest);
      if (found) problems.push(`${at}: ${name} (${found[0]}): ${line.trim()}`);
    }
  });
  return problems;
}

function sourceFiles(): string[] {
  return FOLDERS.filter((folder) => existsSync(join(root, folder))).flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
      .filter(
        (entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.parentPath.includes('node_modules'),
      )
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => file !== SELF),
  );
}

const decisionsText = readFileSync(join(root, 'docs/decisions.md'), 'utf8');
const anchors = decisionAnchors(decisionsText);
const pageExists = (name: string) => existsSync(join(root, 'docs', `${name}.md`));

describe('references to reasons', () => {
  test('docs/decisions.md defines its records', () => {
    expect(anchors.size).toBeGreaterThan(30);
    expect(anchors).toContain('D30');
  });

  test('every citation in src/, test/, bench/ and scripts/ resolves inside the repository', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((file) =>
      citationProblems(readFileSync(file, 'utf8'), anchors, pageExists).map(
        (problem) => `${relative(root, file)}:${problem}`,
      ),
    );
    expect(problems).toEqual([]);
  });

  test('the cross-references inside docs/decisions.md resolve too', () => {
    const crossReferences = [...decisionsText.matchAll(/\bD(\d+)\b/g)].map((match) => `D${match[1]}`);
    expect(crossReferences.filter((id) => !anchors.has(id))).toEqual([]);
  });

  test('refuses outside citations and names unknown decisions and pages', () => {
    const text = [
      '// ok (decisions.md D30, docs/resilience.md)',
      '// rt \u00a73.2',
      '// decision 30',
      '// (D13)',
      '// sdk-feasibility.md',
      '// decisions.md D999',
      '// docs/no-such-page.md',
    ].join('\n');
    const problems = citationProblems(text, new Set(['D30']), (name) => name === 'resilience');
    expect(problems.map((problem) => problem.split(':')[0])).toEqual(['2', '3', '4', '5', '6', '7']);
  });
});
