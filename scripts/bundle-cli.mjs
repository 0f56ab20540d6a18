// Bundles the `flower` binary (dist/cli/main.js) with esbuild, after tsc has written dist/: Node pays for
// start-up per module file, and `flower once` imported about 175 of flower's modules before the agent could
// start. The bundle replaces only tsc's dist/cli/main.js; the library (`flower-agent`, `flower-agent/testing`)
// stays tsc's output, module for module. Each command stays a chunk of its own, loaded when it runs (the
// dynamic imports in run-cli.ts become chunk imports), so `--version` and `--help` still load no runtime.
//
// Kept external, imported from node_modules as before:
// - the Agent SDK (it starts its own platform binary), better-sqlite3 (a native addon);
// - zod, @anthropic-ai/sdk and @modelcontextprotocol/sdk: the Agent SDK imports them too, and a second
//   bundled copy would hand it objects of another copy (zod schemas, an MCP server) than its own.
// The chunks sit beside main.js in dist/cli/, two folders below the package root, so the few paths the code
// builds from import.meta.url (package.json, the update worker, the role prompts) resolve as from tsc's output.
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const external = [
  '@anthropic-ai/claude-agent-sdk',
  '@anthropic-ai/sdk',
  '@modelcontextprotocol/sdk',
  'better-sqlite3',
  'zod',
];

// Packages whose evaluation costs a command more than its start-up can afford, and which no command needs
// before its agent starts: the bundle evaluates them on first use instead. An ES module cannot import lazily
// and synchronously, but in a bundle a `require()` of bundled code is both: esbuild wraps the package in an
// initialiser that runs on the first call. string-width builds Unicode-set regular expressions and a
// segmenter when it loads (over 100 ms; docs/cli.md "Start-up time"), and only drawing a line needs it;
// marked builds its grammar's regular expressions when it loads, and only drawing the model's text needs it.
// The library (tsc's output) keeps the plain import. A replacement that no longer matches its source fails
// the build, so an edit cannot silently bring the cost back (docs/decisions.md D227).
const deferred = [
  {
    file: 'src/render/display-width.ts',
    statement: "import stringWidth from 'string-width';",
    replacement:
      'const stringWidth = (text: string, options: { ambiguousIsNarrow: boolean }): number =>\n' +
      "  (require('string-width') as typeof import('string-width')).default(text, options);",
  },
  {
    file: 'src/render/markdown-lines.ts',
    statement: "import { Lexer, type Token, type Tokens } from 'marked';",
    replacement:
      "import type { Token, Tokens } from 'marked';\n" +
      "type Marked = typeof import('marked');\n" +
      "const Lexer = function lazyLexer(options: ConstructorParameters<Marked['Lexer']>[0]) {\n" +
      "  return new (require('marked') as Marked).Lexer(options);\n" +
      "} as unknown as Marked['Lexer'];",
  },
];

/** The esbuild plugin that applies `deferred`. */
const deferPackages = {
  name: 'defer-packages',
  setup(build) {
    for (const { file, statement, replacement } of deferred) {
      const filter = new RegExp(`${file.replace(/[.]/g, '\\.').replaceAll('/', '[\\\\/]')}$`);
      build.onLoad({ filter }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(statement)) throw new Error(`${file} no longer holds: ${statement}`);
        return { contents: source.replace(statement, replacement), loader: 'ts' };
      });
    }
  },
};

// Chunk names carry a content hash: drop the previous build's, or dist/ (and the package) would keep them.
for (const name of readdirSync('dist/cli')) {
  if (name.startsWith('bundle-')) rmSync(join('dist/cli', name));
}

await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  external: external.flatMap((name) => [name, `${name}/*`]),
  chunkNames: 'bundle-[name]-[hash]',
  // No source maps, as for the library (docs/decisions.md D33, D226): a stack names a bundle file's line, and
  // the `// src/…` line esbuild writes before each module's code names its source.
  sourcemap: false,
  // commander is CommonJS and requires Node's built-ins: an ES module has no `require` of its own.
  banner: {
    js: "import { createRequire as __flowerCreateRequire } from 'node:module';\nconst require = __flowerCreateRequire(import.meta.url);",
  },
  plugins: [deferPackages],
  logLevel: 'warning',
});
