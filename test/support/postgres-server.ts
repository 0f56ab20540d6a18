/**
 * A real, private PostgreSQL server for one test file: `initdb` into a temporary folder, `postgres` on a free
 * 127.0.0.1 port, stopped (and the folder removed) by {@link PostgresServer.stop}. Tests never assume a
 * server is already running, and never skip when the binaries are missing: they fail saying what to install.
 *
 * Tests and CI run as root, and `initdb`/`postgres` refuse to run as root. The server then runs as the
 * system user `nobody` (present on every Debian system, owns nothing), switched to with `setpriv` from
 * util-linux: no PAM session, no login shell, so it works in containers too. As any other user it runs as
 * that user.
 *
 * Settings chosen for tests only: `fsync=off` and `synchronous_commit=off` (a crashed test server is thrown
 * away anyway), trust authentication on 127.0.0.1 plus one password-protected role, so a test can check that
 * a password in a location is never shown.
 *
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

import pg from 'pg';

/** Where Debian's `postgresql-<major>` packages put their server binaries. */
const DEBIAN_ROOT = '/usr/lib/postgresql';
/** Debian's `postgresql-15`. */
const DEBIAN_BIN = join(DEBIAN_ROOT, '15', 'bin');

/** The superuser `initdb` creates (trust authentication, no password). */
export const POSTGRES_USER = 'flower';
/** A role that needs a password, for tests that check credentials never show. */
export const SECRET_USER = 'flower_secret';
/** Its password. */
export const SECRET_PASSWORD = 's3cr3t-Pa55-w0rd';

/** One running server. */
export interface PostgresServer {
  /** The TCP port on 127.0.0.1. */
  readonly port: number;
  /** `postgres://flower@127.0.0.1:<port>/<database>` (default database `postgres`). */
  url(database?: string): string;
  /** Creates a fresh database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown) and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/**
 * A fresh database on `server`, as the password-protected user: the location a careful team would write, for
 * tests that check the password never shows.
 */
export async function secretLocation(server: PostgresServer, name: string): Promise<string> {
  const url = new URL(await server.createDatabase(name));
  url.username = SECRET_USER;
  url.password = SECRET_PASSWORD;
  return url.toString();
}

/** The folder holding `initdb` and `postgres`, or a clear error naming what to install. */
export function postgresBinaries(): string {
  // Debian's 15 first (what CI installs on bookworm), then any other Debian major, newest first, then PATH.
  const others = existsSync(DEBIAN_ROOT)
    ? readdirSync(DEBIAN_ROOT)
        .filter((name) => /^\d+$/.test(name))
        .sort((first, second) => Number(second) - Number(first))
        .map((name) => join(DEBIAN_ROOT, name, 'bin'))
    : [];
  const candidates = [DEBIAN_BIN, ...others, ...(process.env['PATH'] ?? '').split(delimiter)];
  for (const folder of candidates) {
    if (folder !== '' && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'postgres'))) {
      return folder;
    }
  }
  throw new Error(
    `PostgreSQL server binaries (initdb, postgres) not found in ${DEBIAN_BIN} or on PATH: the PostgreSQL ` +
      'store tests need a real server. Install it with `apt-get install postgresql` (.ci/run does this).',
  );
}

/** A TCP port nothing listens on right now. */
async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (typeof address === 'object' && address !== null) resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/** The command prefix that runs a program as the unprivileged server user (empty when we are not root). */
function asServerUser(): string[] {
  if (process.getuid?.() !== 0) return [];
  return ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--'];
}

/** How to start the server. */
export interface StartPostgresOptions {
  /**
   * Keep PostgreSQL's durable defaults (fsync and synchronous commit on), as a real server runs: for
   * benchmarks. Default false: tests throw the server away, and skip the disk flushes.
   */
  durable?: boolean;
}

/** Starts a server; call `stop()` in `afterAll`. */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinaries();
  const root = mkdtempSync(join(tmpdir(), 'flower-pg-'));
  const data = join(root, 'data');
  const prefix = asServerUser();
  if (prefix.length > 0) chownSync(root, 65534, 65534);
  const run = (program: string, args: string[]) => [...prefix, join(bin, program), ...args];
  const [initCommand, ...initArgs] = run('initdb', [
    '-D',
    data,
    '-U',
    POSTGRES_USER,
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const init = spawnSync(initCommand!, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr || init.error?.message}`);
  }
  // A password for the secret role only, over TCP; everyone else is trusted (a private server on a private port).
  writeFileSync(
    join(data, 'pg_hba.conf'),
    `host all ${SECRET_USER} 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\nlocal all all trust\n`,
  );
  const port = await freePort();
  const [command, ...args] = run('postgres', [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    root,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=200',
    ...(options.durable === true
      ? []
      : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
  ]);
  const child = spawn(command!, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const killOnExit = () => child.kill('SIGQUIT');
  process.once('exit', killOnExit);
  await untilReady(child);
  const url = (database = 'postgres') => `postgres://${POSTGRES_USER}@127.0.0.1:${port}/${database}`;
  const admin = new pg.Client({ connectionString: url() });
  await admin.connect();
  await admin.query(`CREATE ROLE ${SECRET_USER} LOGIN SUPERUSER PASSWORD '${SECRET_PASSWORD}'`);
  await admin.end();
  let stopped = false;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // A smart shutdown (SIGTERM) waits for the sessions still closing: a fast one (SIGINT) terminates them,
        // and a client a pool is just ending then gets "terminating connection due to administrator command"
        // as an 'error' nobody listens to any more — an uncaught exception that failed a whole test run. A
        // session left open by a test would hold a smart shutdown forever, so after 10 s it becomes fast.
        child.kill('SIGTERM');
        const fast = setTimeout(() => child.kill('SIGINT'), 10_000);
        await exited;
        clearTimeout(fast);
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Resolves once the server logs that it accepts connections; rejects with its log if it exits first. */
async function untilReady(child: ChildProcess): Promise<void> {
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('database system is ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`postgres exited (${code}) before it was ready:\n${log}`)));
    child.once('error', reject);
  });
  // Keep draining its log so the server never blocks on a full pipe.
  child.stderr!.resume();
}
