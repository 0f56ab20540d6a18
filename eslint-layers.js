// The layers of src/ as lint rules (docs/architecture.md, "Layers"): a folder imports only from the folders
// below it, so the diagram in the docs cannot drift from the code. Kept apart from eslint.config.js so the
// rest of the lint setup can change without touching the layer order.

/** The folders of src/, lowest first. `src/errors.ts` sits under all of them; `src/index.ts` over the library. */
export const LAYERS = [
  'internal',
  'config',
  'agent',
  'events',
  'workbench',
  'guards',
  'session',
  'roles',
  'human',
  'runtime',
  'workflow',
  'render',
  'analyze',
  // The dashboard's server reads the event log and writes the answer file; only the CLI starts it.
  'dashboard',
  'testing',
  'demo',
  // flower chaos's engine: drives the demo's scripted model on the fake API (testing, demo) and spawns the
  // built CLI as a child process, so it sits above both and below the command that prints its table.
  'chaos',
  'cli',
];

/**
 * The folders whose code is written against the Agent SDK's own shapes (the session store, hooks, MCP
 * servers, agent definitions, messages) and so may import the re-exports of `src/agent/claude-sdk.ts`.
 * Everything else sees flower's own types only, so an SDK upgrade cannot reach it.
 */
export const SDK_SHAPED = ['agent', 'guards', 'session', 'roles', 'human', 'runtime', 'testing'];

// A relative specifier that leaves the importing file's folder for `folder` (`../roles/x.js`,
// `../../roles/x.js` from a subfolder, `./roles/x.js` from src/ itself).
const intoFolder = (folder) => `^(?:\\./|(?:\\.\\./)+)${folder}/`;

function upward(where, folder) {
  return {
    regex: intoFolder(folder),
    message:
      `${where} sits below src/${folder}/ in the layer order (docs/architecture.md, Layers): import downward ` +
      'only — move the shared type or helper down to the lower folder, or pass it in as a parameter.',
  };
}

const barrel = {
  regex: '(?:^|/)agent/claude-sdk(?:\\.js)?$',
  message:
    'Only the folders written against the SDK shapes (docs/architecture.md, Layers) import src/agent/claude-sdk.ts; ' +
    'use flower types here.',
};

function dynamicUpward(where, folders) {
  // The same wall for `import('...')`, which no-restricted-imports does not see (the CLI loads commands lazily).
  return folders.map((folder) => ({
    selector: `ImportExpression[source.value=/${intoFolder(folder).replaceAll('/', '\\/')}/]`,
    message: upward(where, folder).message,
  }));
}

function block(files, where, above, sdkImport, allowBarrel) {
  const patterns = [sdkImport, ...above.map((folder) => upward(where, folder))];
  if (!allowBarrel) patterns.push(barrel);
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns }],
      'no-restricted-syntax': ['error', ...dynamicUpward(where, above)],
    },
  };
}

/**
 * One config block per layer folder (and one for its tests, which may also use `src/testing`), each
 * listing the folders above it; `sdkImport` is the project-wide SDK pattern, repeated because a later block
 * replaces a rule's options rather than adding to them.
 */
export function layerBoundaries(sdkImport) {
  const blocks = [
    block(['src/errors.ts'], 'src/errors.ts', LAYERS, sdkImport, false),
    // The library's public names; the testing kit and the command line are entry points of their own.
    block(['src/index.ts'], 'src/index.ts', ['testing', 'demo', 'cli'], sdkImport, true),
  ];
  LAYERS.forEach((folder, index) => {
    const above = LAYERS.slice(index + 1);
    const allowBarrel = SDK_SHAPED.includes(folder);
    blocks.push(block([`src/${folder}/**/*.ts`], `src/${folder}/`, above, sdkImport, allowBarrel));
    blocks.push(
      block(
        [`src/${folder}/**/*.test.ts`],
        `src/${folder}/`,
        above.filter((upper) => upper !== 'testing'),
        sdkImport,
        allowBarrel,
      ),
    );
  });
  return blocks;
}
