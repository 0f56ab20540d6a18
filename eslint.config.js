// Flat ESLint config. The boundaries in docs/architecture.md are enforced here as rules, not prose.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerBoundaries } from './eslint-layers.js';

const sdkImport = {
  group: ['@anthropic-ai/claude-agent-sdk', '@anthropic-ai/claude-agent-sdk/*'],
  message: 'Only src/agent/claude-sdk.ts imports the Agent SDK; use the types re-exported from src/agent/.',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/out/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Type-aware rules need the program; the project service finds tsconfig.json for each file.
    languageOptions: {
      parserOptions: {
        // vitest.config.ts sits outside tsconfig.json's include: it gets a default project of its own.
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // Plain JavaScript (this file, scripts/, bench/) has no types to check.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The dashboard's page runs in the browser as written (docs/dashboard.md): browser globals, no Node.
    files: ['src/dashboard/page/**/*.js'],
    languageOptions: {
      globals: {
        document: 'readonly',
        location: 'readonly',
        fetch: 'readonly',
        EventSource: 'readonly',
        URLSearchParams: 'readonly',
        requestAnimationFrame: 'readonly',
        setInterval: 'readonly',
      },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', { patterns: [sdkImport] }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only src/config reads process.env.' },
      ],
    },
  },
  {
    // Library code never prints: events go to renderers.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/render/**', '**/*.test.ts'],
    rules: {
      'no-console': 'error',
    },
  },
  // The layers of src/: each folder imports only downward, and only the SDK-shaped folders see the SDK types
  // (the UI sees flower's event types only).
  ...layerBoundaries(sdkImport),
  {
    files: ['src/agent/claude-sdk.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
