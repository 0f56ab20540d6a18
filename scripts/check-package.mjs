// Checks the package as npm would publish it: packs the built dist/ (or takes a tarball already packed) and
// runs @arethetypeswrong/cli (do the entry points resolve to JavaScript and matching types?) and publint
// (is package.json's exports/files/bin consistent with what the tarball holds?) on that tarball, not on the
// source tree, because only the tarball reaches a user. Run `npm run build` first; `npm run check:package`
// does both. Usage: node scripts/check-package.mjs [path/to/flower-agent-x.y.z.tgz]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);

let tarball = process.argv[2];
let scratch = null;
if (tarball === undefined) {
  if (!existsSync(join(root, 'dist', 'index.js'))) {
    process.stderr.write('check-package: dist/index.js is missing; run `npm run build` first\n');
    process.exit(1);
  }
  scratch = mkdtempSync(join(tmpdir(), 'flower-check-package-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: root, encoding: 'utf8' }),
  );
  tarball = join(scratch, packed[0].filename);
}

// The package is ESM only (Node >= 20.3 cannot require() it), so the CommonJS and node10 resolutions are
// out of scope: the esm-only profile still fails on any ESM resolution or type problem.
const checks = [
  [bin('attw'), ['--profile', 'esm-only', tarball]],
  [bin('publint'), ['run', '--strict', tarball]],
];
let failed = 0;
for (const [command, args] of checks) {
  const run = spawnSync(command, args, { stdio: 'inherit' });
  if (run.status !== 0) {
    failed += 1;
    const name = command.split('/').pop();
    // A tool that could not start (not installed after a dependency change) says so, not "exit null".
    const why = run.error === undefined ? `exit ${run.status}` : `${run.error.message}; run npm ci first`;
    process.stderr.write(`check-package: ${name} failed on ${tarball} (${why})\n`);
  }
}
if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
process.exit(failed === 0 ? 0 : 1);
