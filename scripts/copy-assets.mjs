// Copies non-TypeScript assets that live beside the sources (role prompts, demo scenarios) into dist/,
// keeping their relative paths, because tsc only emits .js and .d.ts files.
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const sourceRoot = 'src';
const outputRoot = 'dist';
const assetPattern = /\.(md|json|txt|sse)$/;
// The dashboard's page is served as written (docs/dashboard.md): no build step, so its files are assets too.
const pagePattern = /[\\/]dashboard[\\/]page[\\/][^\\/]+\.(html|js|css)$/;

function walk(directory) {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (assetPattern.test(name) || pagePattern.test(path))
      cpSync(path, join(outputRoot, relative(sourceRoot, path)));
  }
}

if (existsSync(sourceRoot)) walk(sourceRoot);
