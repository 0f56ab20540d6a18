// The update notice end to end: the built CLI, copied into a scratch npm prefix the way `npm install -g` lays
// it out (a checkout's `.git` turns the check off, so the repository's own dist/ cannot show it), runs a
// trivial workflow with `npm_config_registry` pointing at a registry stub on 127.0.0.1. The check runs in a
// detached child that writes CFG/.update-node.json; the notice appears on the run after it.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { readUpdateState, updateStateFile, writeUpdateState } from '../../src/config/update-state.js';
import { closedPortUrl } from '../../src/testing/index.js';

const root = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const VERSION = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const NOTICE = 'is available (this is';

/** A registry stub: answers `GET /flower-agent/latest` with `version`, or holds the request open. */
interface RegistryStub {
  url: string;
  requests: string[];
  /** Requests held open (`version: null`), with whether their connection closed before the test looked. */
  held: Array<{ closed: boolean }>;
  /** Resolves once `count` requests have arrived. */
  arrived(count: number): Promise<void>;
  close(): Promise<void>;
}

async function startRegistry(version: string | null): Promise<RegistryStub> {
  const requests: string[] = [];
  const held: Array<{ closed: boolean }> = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(`${request.method} ${request.url}`);
    for (const waiter of waiters.filter((entry) => requests.length >= entry.count)) waiter.resolve();
    if (version === null) {
      const entry = { closed: false };
      held.push(entry);
      request.socket.on('close', () => {
        entry.closed = true;
      });
      return;
    }
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ name: 'flower-agent', version, dist: { tarball: 'http://unused/' } }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    held,
    arrived: (count) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise((resolveArrival) => waiters.push({ count, resolve: resolveArrival })),
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

interface Installed {
  dir: string;
  cli: string;
  workspace: string;
  stateFile: string;
  env: Record<string, string>;
}

let installed: Installed | null = null;
let registry: RegistryStub | null = null;

afterEach(async () => {
  await registry?.close();
  if (installed !== null) rmSync(installed.dir, { recursive: true, force: true });
  registry = null;
  installed = null;
});

/** The built package laid out as a global npm install (no `.git`), and a workspace with an empty workflow. */
function install(registryUrl: string, extraEnv: Record<string, string> = {}): Installed {
  const dir = mkdtempSync(join(tmpdir(), 'flower-installed-'));
  const packageRoot = join(dir, 'prefix', 'lib', 'node_modules', 'flower-agent');
  mkdirSync(packageRoot, { recursive: true });
  cpSync(join(root, 'package.json'), join(packageRoot, 'package.json'));
  cpSync(join(root, 'dist'), join(packageRoot, 'dist'), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(packageRoot, 'node_modules'));
  symlinkSync(join(root, 'plugin'), join(packageRoot, 'plugin'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  writeFileSync(
    join(workspace, 'flow.mjs'),
    'export const main = { steps: [], async run() { return {}; } };\n',
  );
  const configHome = join(dir, 'config');
  installed = {
    dir,
    cli: join(packageRoot, 'dist', 'cli', 'main.js'),
    workspace,
    stateFile: updateStateFile(join(configHome, 'flower')),
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: join(dir, 'home'),
      XDG_CONFIG_HOME: configHome,
      ANTHROPIC_API_KEY: 'sk-ant-api-test-key',
      NO_COLOR: '1',
      npm_config_registry: registryUrl,
      ...extraEnv,
    },
  };
  return installed;
}

async function flowerRun(target: Installed, extraEnv: Record<string, string> = {}) {
  const run = await execa('node', [target.cli, 'run', './flow.mjs:main'], {
    cwd: target.workspace,
    env: { ...target.env, ...extraEnv },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
  return { exitCode: run.exitCode, stderr: String(run.stderr), stdout: String(run.stdout) };
}

/** Waits until the detached check has written the state file. */
async function stateWritten(target: Installed) {
  return vi.waitFor(
    () => {
      const state = readUpdateState(target.stateFile);
      if (state === null) throw new Error('no update state yet');
      return state;
    },
    { timeout: 15_000, interval: 50 },
  );
}

describe('update notice (installed copy of the built CLI, registry stub)', () => {
  test('a newer version: the first run asks the registry in the background, the next run prints one line', async () => {
    registry = await startRegistry('99.0.0');
    const target = install(registry.url);
    const first = await flowerRun(target);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).not.toContain(NOTICE);
    const state = await stateWritten(target);
    expect(state.latest).toBe('99.0.0');
    expect(Math.abs(state.checked - Date.now() / 1000)).toBeLessThan(120);
    expect(registry.requests).toEqual(['GET /flower-agent/latest']);

    const second = await flowerRun(target);
    expect(second.exitCode, second.stderr).toBe(0);
    const lines = second.stderr.split('\n').filter((line) => line.includes(NOTICE));
    expect(lines).toEqual([
      `flower-agent 99.0.0 is available (this is ${VERSION}). Update with: npm install -g flower-agent@latest`,
    ]);
    // The answer was fresh, so the second run did not ask again; and nothing went to stdout.
    expect(readUpdateState(target.stateFile)).toEqual(state);
    expect(second.stdout).toBe('');
  });

  test('the same version: the check is recorded and no line is printed', async () => {
    registry = await startRegistry(VERSION);
    const target = install(registry.url);
    expect((await flowerRun(target)).exitCode).toBe(0);
    expect((await stateWritten(target)).latest).toBe(VERSION);
    const second = await flowerRun(target);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).not.toContain(NOTICE);
  });

  test('FLOWER_NO_UPDATE: no line and no request, even with a day-old newer version on record', async () => {
    registry = await startRegistry('99.0.0');
    const target = install(registry.url);
    writeUpdateState(target.stateFile, { checked: 0, latest: '98.0.0' });
    const off = await flowerRun(target, { FLOWER_NO_UPDATE: '1' });
    expect(off.exitCode, off.stderr).toBe(0);
    expect(off.stderr).not.toContain(NOTICE);
    // A run with the check on, started after the first ended: its request is the only one the stub sees.
    const on = await flowerRun(target);
    expect(on.stderr).toContain('flower-agent 98.0.0 is available');
    await vi.waitFor(() => expect(readUpdateState(target.stateFile)?.latest).toBe('99.0.0'), {
      timeout: 15_000,
      interval: 50,
    });
    expect(registry.requests).toEqual(['GET /flower-agent/latest']);
  });

  test('registry down (connection refused): the run succeeds and prints nothing about it', async () => {
    const target = install(await closedPortUrl());
    const run = await flowerRun(target);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toContain(NOTICE);
    expect(run.stderr).not.toMatch(/fetch|ECONNREFUSED|update/i);
  });

  test('a registry that never answers: the run ends while the check is still waiting', async () => {
    registry = await startRegistry(null);
    const target = install(registry.url);
    const run = await flowerRun(target);
    expect(run.exitCode, run.stderr).toBe(0);
    // The check outlives the run: its request arrives (or has arrived) and is still open after the run ended.
    await registry.arrived(1);
    expect(registry.held).toEqual([{ closed: false }]);
    expect(readUpdateState(target.stateFile)).toBeNull();
  });
});
