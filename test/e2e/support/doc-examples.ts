/**
 * The fenced TypeScript and JavaScript examples of the README and the docs pages, as a user copies them: each
 * one a module of its own, type-checked under strict rules against the installed package, and those marked
 * `test` run by vitest against the fake Messages API. New pages are picked up by reading the folder.
 *
 * A fence's info string is the language, then attributes:
 * - `fragment="why"`: a deliberately partial example (a value, one option, a signature), not checked; the
 *   reason is required, so "partial" is always a decision someone wrote down;
 * - `file=name.mjs`: the module's file name, for an example another example imports (`./review.mjs`);
 * - `test`: a vitest test file, run against the fake after it type-checks.
 *
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import ts from 'typescript';

/** The languages whose examples are checked, and the extension each is written with. */
const LANGUAGES: Readonly<Record<string, 'ts' | 'mjs'>> = {
  ts: 'ts',
  typescript: 'ts',
  js: 'mjs',
  javascript: 'mjs',
  mjs: 'mjs',
};

/** One fenced example. */
export interface DocExample {
  /** The page, relative to the package root (`docs/testing.md`, `README.md`). */
  page: string;
  /** 1-based line of the example's first code line in the page. */
  line: number;
  language: 'ts' | 'mjs';
  /** The reason given by `fragment="…"`, or null for a whole example. */
  fragment: string | null;
  /** The `file=` name, or null. */
  file: string | null;
  /** True with the `test` attribute. */
  test: boolean;
  code: string;
}

/** The attributes of an info string after the language: `key="value"`, `key=value` or a bare `key`. */
function attributesOf(rest: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of rest.matchAll(/(\w+)(?:=(?:"([^"]*)"|(\S+)))?/g)) {
    attributes.set(match[1]!, match[2] ?? match[3] ?? '');
  }
  return attributes;
}

/** Every TypeScript or JavaScript example of `pages` (paths under `root`). */
export function docExamples(root: string, pages: readonly string[]): DocExample[] {
  const examples: DocExample[] = [];
  for (const page of pages) {
    const lines = readFileSync(join(root, page), 'utf8').split('\n');
    for (let index = 0; index < lines.length; index++) {
      const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]+)?(.*)$/.exec(lines[index]!);
      if (open === null) continue;
      const [, indent, fence, language, rest] = open;
      const body: string[] = [];
      let end = index + 1;
      const close = new RegExp(`^\\s*${fence![0] === '`' ? '`' : '~'}{${fence!.length},}\\s*$`);
      while (end < lines.length && !close.test(lines[end]!)) {
        body.push(lines[end]!.startsWith(indent!) ? lines[end]!.slice(indent!.length) : lines[end]!);
        end++;
      }
      const extension = language === undefined ? undefined : LANGUAGES[language];
      if (extension !== undefined) {
        const attributes = attributesOf(rest ?? '');
        examples.push({
          page,
          line: index + 2,
          language: extension,
          fragment: attributes.has('fragment') ? (attributes.get('fragment') ?? '') : null,
          file: attributes.get('file') ?? null,
          test: attributes.has('test'),
          code: body.join('\n') + '\n',
        });
      }
      index = end;
    }
  }
  return examples;
}

/** README.md and every page of docs/ under `root`, as paths relative to it. */
export function documentationPages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** Where one example was written, and where it came from. */
export interface WrittenExample {
  example: DocExample;
  path: string;
}

/** The file name of an example: its `file=` name, or one made from the page and line. */
function fileNameOf(example: DocExample): string {
  if (example.file !== null) return example.file;
  const stem = `${basename(example.page, '.md').toLowerCase()}-line-${example.line}`;
  return `${stem}${example.test ? '.test' : ''}.${example.language}`;
}

/**
 * Writes every example that is not a fragment into `folder` (one module each: `export {}` is appended so
 * that two examples declaring the same name do not collide) and returns where each went.
 */
export function writeExamples(folder: string, examples: readonly DocExample[]): WrittenExample[] {
  mkdirSync(folder, { recursive: true });
  return examples
    .filter((example) => example.fragment === null)
    .map((example) => {
      const path = join(folder, fileNameOf(example));
      writeFileSync(path, `${example.code}export {};\n`);
      return { example, path };
    });
}

/**
 * Type-checks the written examples as a user's strict TypeScript project would (NodeNext, `strict`, JavaScript
 * checked too) and returns each problem as `page:line: message`, the line being the page's own.
 */
export function typeCheckExamples(project: string, written: readonly WrittenExample[]): string[] {
  const program = ts.createProgram(
    written.map(({ path }) => path),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      allowJs: true,
      checkJs: true,
      noEmit: true,
      // The package's own declaration files are checked by the package-exports test; here only the examples.
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(project, 'node_modules', '@types')],
    },
  );
  const byPath = new Map(written.map((entry) => [entry.path, entry.example]));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...written.flatMap(({ path }) => {
      const file = program.getSourceFile(path);
      return file === undefined
        ? []
        : [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    }),
  ];
  return diagnostics.map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const example = diagnostic.file === undefined ? undefined : byPath.get(diagnostic.file.fileName);
    if (diagnostic.file === undefined || example === undefined) {
      return `${diagnostic.file === undefined ? '' : relative(project, diagnostic.file.fileName) + ': '}${text}`;
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    return `${example.page}:${example.line + line}: ${text}`;
  });
}
