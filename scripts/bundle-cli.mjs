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
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const external = [
  '@anthropic-ai/claude-agent-sdk',
  '@anthropic-ai/sdk',
  '@modelcontextprotocol/sdk',
  'better-sqlite3',
  'zod',
];

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
  sourcemap: true,
  // commander is CommonJS and requires Node's built-ins: an ES module has no `require` of its own.
  banner: {
    js: "import { createRequire as __flowerCreateRequire } from 'node:module';\nconst require = __flowerCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
