// The docs and the pinned export list (test/e2e/support/public-exports.ts, which the package test checks against
// the packed package) say the same thing: docs/api.md lists exactly the public names under their kinds, and
// every `import … from 'flower-agent'` in the docs names something a user can import.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { EntryPoint, ExportKind } from '../e2e/support/packed-package.js';
import { PUBLIC_EXPORTS } from '../e2e/support/public-exports.js';

const root = resolve(import.meta.dirname, '../..');
const docsFolder = join(root, 'docs');

const LABEL_KINDS: Record<string, readonly ExportKind[]> = {
  Classes: ['class'],
  Functions: ['function'],
  Constants: ['object', 'string', 'number'],
  Types: ['type'],
};

/** `name → label` for every `- Label: \`a\`, \`b()\`` line in one entry point's section of docs/api.md. */
function listedInApiPage(entry: EntryPoint): Map<string, string> {
  const page = readFileSync(join(docsFolder, 'api.md'), 'utf8');
  const sections = page.split(/^## /m);
  const section = sections.find((text) => text.startsWith(`\`${entry}\`\n`)) ?? '';
  const listed = new Map<string, string>();
  for (const line of section.split('\n')) {
    const match = /^- (\w+): (.*)$/.exec(line);
    if (match === null) continue;
    for (const [, name] of match[2]!.matchAll(/`(\w+)(?:\(\))?`/g)) listed.set(name!, match[1]!);
  }
  return listed;
}

/** Every name imported from `entry` in an `import { … } from '<entry>'` statement of a docs page or README. */
function importedInDocs(entry: EntryPoint): Array<{ page: string; name: string }> {
  const pages = [
    ...readdirSync(docsFolder)
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(docsFolder, name)),
    join(root, 'README.md'),
  ];
  const found: Array<{ page: string; name: string }> = [];
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    const quoted = entry.replace('/', '\\/');
    for (const [, names] of text.matchAll(
      new RegExp(`import(?: type)? \\{([^}]*)\\} from '${quoted}'`, 'g'),
    )) {
      for (const part of names!.split(',')) {
        const name = part.trim().replace(/^type\s+/, '');
        if (name !== '') found.push({ page: page.slice(root.length + 1), name });
      }
    }
  }
  return found;
}

describe('docs against the pinned public API', () => {
  for (const entry of ['flower-agent', 'flower-agent/testing'] as const) {
    test(`docs/api.md lists exactly the ${entry} exports, each under its kind`, () => {
      const listed = listedInApiPage(entry);
      expect([...listed.keys()].sort()).toEqual(Object.keys(PUBLIC_EXPORTS[entry]).sort());
      const misfiled = [...listed].filter(
        ([name, label]) => !LABEL_KINDS[label]?.includes(PUBLIC_EXPORTS[entry][name]!),
      );
      expect(misfiled).toEqual([]);
    });

    test(`every name the docs import from '${entry}' is exported`, () => {
      const imported = importedInDocs(entry);
      if (entry === 'flower-agent') expect(imported.length).toBeGreaterThan(20);
      expect(imported.filter(({ name }) => !(name in PUBLIC_EXPORTS[entry]))).toEqual([]);
    });
  }
});
