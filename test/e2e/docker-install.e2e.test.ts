/**
 * The Dockerfile's install steps (docker/install.sh) run for real against a scratch prefix, without a
 * container engine: the built package is copied, its production dependencies installed with `npm ci`
 * from the lock file, the `flower` command linked and started. better-sqlite3's prebuilt binary comes
 * from a local mirror (its `binary_host` setting) serving this machine's own build, so the test needs no
 * internet and no compiler; npm works offline from its cache, which the repository's own `npm ci` filled (production dependencies are a part of all of them). The Dockerfile's own lines are checked to call that
 * script and to keep credentials out of the image.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
let scratch: string;
let server: Server;
let mirror: string;
const npmCache = join(process.env['HOME'] ?? '/root', '.npm');

beforeAll(async () => {
  if (!existsSync(join(root, 'dist', 'cli', 'main.js')))
    throw new Error('dist/ is missing: run npm run build');
  scratch = mkdtempSync(join(tmpdir(), 'flower-install-'));
  const prebuilt = join(scratch, 'prebuilt.tar.gz');
  await create({ gzip: true, file: prebuilt, cwd: join(root, 'node_modules', 'better-sqlite3') }, [
    'build/Release/better_sqlite3.node',
  ]);
  const body = readFileSync(prebuilt);
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  mirror = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  // prebuild-install keeps what it downloaded in npm's cache, named by a digest of the URL: this run's
  // mirror URL (its port) is unique, so its copy is removed and the cache is left as it was.
  const version = (
    JSON.parse(readFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const url = `${mirror}/v${version}/${name}`;
  const digest = createHash('sha512').update(url).digest('hex').slice(0, 6);
  rmSync(join(npmCache, '_prebuilds', `${digest}-${name}`), { force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('Dockerfile install steps', () => {
  test('install.sh installs the built package into a prefix and links a flower that starts', async () => {
    const packageDir = join(scratch, 'opt', 'flower');
    const binDir = join(scratch, 'usr', 'local', 'bin');
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    // Not spawnSync: the mirror is served from this process, whose event loop must stay free.
    const run = await execa('sh', [join(root, 'docker', 'install.sh'), root, packageDir, binDir], {
      reject: false,
      extendEnv: false,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: join(scratch, 'home'),
        npm_config_cache: npmCache,
        npm_config_offline: 'true',
        npm_config_better_sqlite3_binary_host: mirror,
      },
      timeout: 110_000,
    });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)).toContain(version);
    // Production dependencies only.
    expect(existsSync(join(packageDir, 'node_modules', 'better-sqlite3'))).toBe(true);
    expect(existsSync(join(packageDir, 'node_modules', 'vitest'))).toBe(false);
    expect(existsSync(join(packageDir, 'plugin'))).toBe(true);
    const sqlite = spawnSync(
      process.execPath,
      [
        '-e',
        "const D=require('better-sqlite3'); console.log(new D(':memory:').prepare('select 7 as n').get().n)",
      ],
      { cwd: packageDir, encoding: 'utf8' },
    );
    expect(sqlite.stdout.trim()).toBe('7');
    const started = spawnSync(join(binDir, 'flower'), ['--version'], { encoding: 'utf8' });
    expect(started.stdout).toContain(version);
  });

  test('the Dockerfile runs that script, as a non-root user, with the workspace a volume and no secret', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(
      /^RUN .*sh \/tmp\/flower-source\/install\.sh \/tmp\/flower-source \/opt\/flower \/usr\/local\/bin/m,
    );
    expect(dockerfile).toMatch(/^COPY docker\/install\.sh /m);
    const user = /^USER (\S+)$/m.exec(dockerfile)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(dockerfile).toMatch(/^VOLUME \/project$/m);
    expect(dockerfile).toMatch(/^WORKDIR \/project$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["flower"\]$/m);
    for (const line of dockerfile.split('\n').filter((text) => /^(ENV|ARG) /.test(text))) {
      expect(line).not.toMatch(/KEY|TOKEN|SECRET|PASSWORD/);
    }
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toContain('**/.env');
    expect(ignored).toContain('node_modules/');
  });
});
