/**
 * The layers of src/ are lint rules (docs/architecture.md, Layers): this runs the project's own ESLint
 * configuration over small import lines placed in each folder, and checks that the diagram in the docs is
 * the order the lint enforces.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const IMPORT_RULES = ['no-restricted-imports', 'no-restricted-syntax'];

type Block = { files?: unknown; ignores?: unknown; rules?: Record<string, unknown> };

let config: Linter.Config[];
let layers: string[];
let sdkShaped: string[];

beforeAll(async () => {
  // Loaded by URL: the config modules are plain JavaScript, outside the TypeScript project.
  const exported = (await import(pathToFileURL(`${root}eslint.config.js`).href)) as { default: Block[] };
  const layerModule = (await import(pathToFileURL(`${root}eslint-layers.js`).href)) as {
    LAYERS: string[];
    SDK_SHAPED: string[];
  };
  layers = layerModule.LAYERS;
  sdkShaped = layerModule.SDK_SHAPED;
  // Only the import rules of the real configuration, in its order: other rules (typed ones among them)
  // need a program, and say nothing about layers.
  const importBlocks = exported.default
    .filter((block) => block.rules !== undefined && IMPORT_RULES.some((rule) => rule in block.rules!))
    .map((block) => ({
      ...(block.files === undefined ? {} : { files: block.files }),
      ...(block.ignores === undefined ? {} : { ignores: block.ignores }),
      rules: Object.fromEntries(Object.entries(block.rules!).filter(([rule]) => IMPORT_RULES.includes(rule))),
    }));
  config = [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
    ...(importBlocks as Linter.Config[]),
  ];
});

/** The import errors ESLint reports for `code` placed at `path`. */
function errors(path: string, code: string): string[] {
  const linter = new Linter({ cwd: root });
  return linter.verify(code, config, { filename: `${root}${path}` }).map((message) => message.message);
}

describe('the layer lint', () => {
  test('reports an upward import, naming both folders', () => {
    const found = errors('src/agent/example.ts', "import { Runtime } from '../runtime/runtime.js';\n");
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('src/agent/ sits below src/runtime/');
  });

  test('lets a downward import through, from a subfolder too', () => {
    expect(
      errors('src/runtime/example.ts', "import type { AgentSpec } from '../agent/agent-spec.js';\n"),
    ).toEqual([]);
    expect(
      errors('src/cli/commands/example.ts', "import { demoScenario } from '../../demo/demo-scenario.js';\n"),
    ).toEqual([]);
  });

  test('reports an import from a subfolder that climbs to a higher folder', () => {
    expect(
      errors('src/demo/example.ts', "import type { GlobalOptions } from '../cli/program.js';\n")[0],
    ).toContain('src/demo/ sits below src/cli/');
  });

  test('reports an upward type-only import and an upward import()', () => {
    expect(
      errors('src/events/example.ts', "import type { LoadReport } from '../session/load-report.js';\n"),
    ).toHaveLength(1);
    const found = errors(
      'src/human/example.ts',
      "export const load = () => import('../workflow/step.js');\n",
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('src/human/ sits below src/workflow/');
  });

  test('keeps the SDK types to the folders written against them', () => {
    const barrel = "import type { SDKMessage } from '../agent/claude-sdk.js';\n";
    expect(errors('src/session/example.ts', barrel)).toEqual([]);
    expect(errors('src/render/example.ts', barrel)[0]).toContain('use flower types here');
    expect(errors('src/workflow/example.ts', barrel)).toHaveLength(1);
    expect(
      errors('src/cli/example.ts', "import { query } from '@anthropic-ai/claude-agent-sdk';\n")[0],
    ).toContain('Only src/agent/claude-sdk.ts imports the Agent SDK');
    expect(
      errors('src/agent/claude-sdk.ts', "export { query } from '@anthropic-ai/claude-agent-sdk';\n"),
    ).toEqual([]);
  });

  test('lets tests use the testing kit, and nothing else above their folder', () => {
    const kit = "import { ScriptedBackend } from '../testing/scripted-backend.js';\n";
    expect(errors('src/guards/example.test.ts', kit)).toEqual([]);
    expect(errors('src/guards/example.ts', kit)).toHaveLength(1);
    expect(
      errors('src/guards/example.test.ts', "import { oracle } from '../roles/oracle.js';\n"),
    ).toHaveLength(1);
  });

  test('keeps src/errors.ts under every folder and the entry points out of src/index.ts', () => {
    expect(
      errors('src/errors.ts', "import type { Env } from './config/process-environment.js';\n"),
    ).toHaveLength(1);
    expect(errors('src/index.ts', "export { runCli } from './cli/run-cli.js';\n")).toHaveLength(1);
    expect(errors('src/index.ts', "export { Runtime } from './runtime/runtime.js';\n")).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  test('draws the order the lint enforces, top layer first, and stars the SDK-shaped folders', () => {
    const docs = readFileSync(`${root}docs/architecture.md`, 'utf8');
    const section = docs.slice(docs.indexOf('### Layers'));
    const diagram = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const rows = diagram
      .split('\n')
      .map((line) => /^\s+([a-z]+)( \*)?\s/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null);
    expect(rows.map((row) => row[1])).toEqual([...layers].reverse());
    expect(rows.filter((row) => row[2] !== undefined).map((row) => row[1])).toEqual(
      [...sdkShaped].sort((a, b) => layers.indexOf(b) - layers.indexOf(a)),
    );
  });
});
