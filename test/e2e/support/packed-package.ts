/**
 * The package as a user gets it: `npm pack` of the built tree, unpacked into `node_modules/flower-agent` of a
 * scratch project outside the repository, and what that project sees when it imports `flower-agent` — at run
 * time under Node and at compile time under tsc.
 *
 * The dependencies are linked from the repository's own install instead of fetched, so the test needs no
 * registry and no 200 MB copy of the Claude Code binary. Only the packed `dependencies` are linked (plus
 * `@types/node`, which a TypeScript user has anyway), and the scratch project is outside the repository, so an
 * import of a package the manifest forgot does not resolve.
 *
 * @module
 */
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import ts from 'typescript';

/** Repository root (the folder holding package.json and dist/). */
export const REPOSITORY_ROOT = resolve(import.meta.dirname, '../../..');

/** The two entry points a user imports. */
export const ENTRY_POINTS = ['flower-agent', 'flower-agent/testing'] as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

/** What one export is: a class, a function, a constant (by `typeof`), or a name that exists only for tsc. */
export type ExportKind = 'class' | 'function' | 'object' | 'string' | 'number' | 'type';

/** Export name → kind, per entry point. */
export type ExportTable = Record<EntryPoint, Record<string, ExportKind>>;

/** A scratch project with the packed tarball installed. */
export interface InstalledPackage {
  /** The `.tgz` that `npm pack` wrote. */
  tarball: string;
  /** The scratch project's folder (its `node_modules/flower-agent` is the unpacked tarball). */
  project: string;
}

/** Packs the built repository into `scratch` and installs the tarball into `<scratch>/project`. */
export async function installPackedPackage(scratch: string): Promise<InstalledPackage> {
  const packed = await execa('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: REPOSITORY_ROOT,
    env: { npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  const [{ filename }] = JSON.parse(String(packed.stdout)) as [{ filename: string }];
  const tarball = join(scratch, filename);

  const project = join(scratch, 'project');
  const installed = join(project, 'node_modules', 'flower-agent');
  mkdirSync(installed, { recursive: true });
  // npm's tarballs hold everything under `package/`.
  await execa('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );

  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    bin?: Record<string, string>;
  };
  // The peers (vitest, for the store suite and the docs' test examples) are what a user testing with
  // flower-agent/testing installs beside it.
  const linked = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    '@types/node',
  ];
  for (const name of linked) {
    const link = join(project, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(REPOSITORY_ROOT, 'node_modules', name), link, 'dir');
  }
  // What npm's install does for `bin`: a link in node_modules/.bin, its target made executable, so `npx flower`
  // runs the installed package's own command.
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  for (const [command, target] of Object.entries(manifest.bin ?? {})) {
    chmodSync(join(installed, target), 0o755);
    symlinkSync(join('..', 'flower-agent', target), join(project, 'node_modules', '.bin', command));
  }
  return { tarball, project };
}

/** A module run by Node inside the scratch project: every runtime export of each entry point, with its kind. */
const RUNTIME_LISTER = `
const kindOf = (value) =>
  typeof value !== 'function'
    ? typeof value
    : /^class[\\s{]/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
const table = {};
for (const entry of ${JSON.stringify(ENTRY_POINTS)}) {
  const module = await import(entry);
  table[entry] = Object.fromEntries(Object.keys(module).sort().map((name) => [name, kindOf(module[name])]));
}
process.stdout.write(JSON.stringify(table));
`;

/** Imports both entry points by package name under Node in `project` and lists what they export. */
export async function runtimeExports(project: string, env: Record<string, string>): Promise<ExportTable> {
  writeFileSync(join(project, 'list-exports.mjs'), RUNTIME_LISTER);
  const run = await execa('node', ['list-exports.mjs'], { cwd: project, env, extendEnv: false });
  return JSON.parse(String(run.stdout)) as ExportTable;
}

/** What tsc makes of the installed package: compile errors, and every export of each entry point with its kind. */
export interface CompiledView {
  diagnostics: string[];
  exports: ExportTable;
}

/**
 * Writes `consumer.ts` importing every name of `expected` by package name (values with `import`, types with
 * `import type`), type-checks it under the NodeNext rules a Node TypeScript user has, and lists the exports tsc
 * sees in the installed `.d.ts` files — so a type that is missing, not shipped or only reachable through a
 * source path fails here.
 */
export function compiledExports(project: string, expected: ExportTable): CompiledView {
  const lines: string[] = [];
  for (const entry of ENTRY_POINTS) {
    const names = Object.entries(expected[entry]);
    const values = names.filter(([, kind]) => kind !== 'type').map(([name]) => name);
    const types = names.filter(([, kind]) => kind === 'type').map(([name]) => name);
    lines.push(`import { ${values.join(', ')} } from '${entry}';`);
    lines.push(`export type { ${types.join(', ')} } from '${entry}';`);
    lines.push(`export const values${lines.length} = [${values.join(', ')}];`);
  }
  const consumer = join(project, 'consumer.ts');
  writeFileSync(consumer, lines.join('\n') + '\n');

  const program = ts.createProgram([consumer], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    // Declaration files are checked (below, flower's own only): one that refers to a file the tarball lacks
    // shows up here.
    skipLibCheck: false,
    types: ['node'],
    typeRoots: [join(project, 'node_modules', '@types')],
  });
  // Only the consumer and flower's own .d.ts files are checked: checking every library would take a minute.
  const ours = program
    .getSourceFiles()
    .filter((file) => file.fileName === consumer || file.fileName.includes('/node_modules/flower-agent/'));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ]),
  ].map((diagnostic) => {
    const where =
      diagnostic.file === undefined ? '' : `${diagnostic.file.fileName.slice(project.length + 1)}: `;
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  });

  const checker = program.getTypeChecker();
  const source = program.getSourceFile(consumer);
  const exports = {} as ExportTable;
  for (const entry of ENTRY_POINTS) {
    exports[entry] = {};
    const declaration = source?.statements.find(
      (statement): statement is ts.ImportDeclaration =>
        ts.isImportDeclaration(statement) &&
        ts.isStringLiteral(statement.moduleSpecifier) &&
        statement.moduleSpecifier.text === entry,
    );
    const module =
      declaration === undefined ? undefined : checker.getSymbolAtLocation(declaration.moduleSpecifier);
    if (module === undefined) continue;
    for (const symbol of checker.getExportsOfModule(module).sort((a, b) => a.name.localeCompare(b.name))) {
      exports[entry][symbol.name] = compiledKind(checker, symbol);
    }
  }
  return { diagnostics, exports };
}

function compiledKind(checker: ts.TypeChecker, symbol: ts.Symbol): ExportKind {
  const typeOnly = (symbol.declarations ?? []).some(
    (declaration) =>
      ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly),
  );
  if (typeOnly) return 'type';
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  if (target.flags & ts.SymbolFlags.Class) return 'class';
  if (target.flags & ts.SymbolFlags.Function) return 'function';
  if (target.flags & ts.SymbolFlags.Variable) {
    const type = checker.getTypeOfSymbol(target);
    if (type.flags & ts.TypeFlags.StringLike) return 'string';
    return type.flags & ts.TypeFlags.NumberLike ? 'number' : 'object';
  }
  return 'type';
}
