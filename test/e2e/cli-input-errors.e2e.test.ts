// Bad input through the built CLI (`node dist/cli/main.js`) with the real SDK and Claude Code binary against
// the fake Messages API: a `.env` Claude Code cannot start with, directories that cannot be used, a session
// that does not exist, an empty tool list. Each ends at once with one line that says what to do.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, test } from 'vitest';
import { readManifest } from '../../src/runtime/manifest.js';
import { message, text, type FakeScript } from '../../src/testing/index.js';
import { flowerCli, type FlowerCli } from './support/flower-cli.js';
import { FLOWER_CLI } from './support/flower-process.js';

let cli: FlowerCli | null = null;

afterEach(async () => {
  await cli?.close();
  cli = null;
});

async function start(script: FakeScript = () => message([text('done')])): Promise<FlowerCli> {
  cli = await flowerCli(script);
  return cli;
}

describe('bad input through the CLI (e2e)', () => {
  test('a NUL byte in a .env value stops flower at once, naming file and line but never the value', async () => {
    const { run, scratch, server } = await start();
    writeFileSync(join(scratch.workspace, '.env'), '# settings\nFLOWER_LANG=en\nSECRET_THING=hunter\0two\n');

    const outcome = await run(['once', 'hello']);

    expect(outcome.exitCode).toBe(1);
    const dotenv = join(scratch.workspace, '.env');
    expect(outcome.stderr).toBe(
      `The .env file ${dotenv} holds a NUL byte on line 3; no environment variable can carry one. ` +
        'Remove it (the file may have been saved in UTF-16 or as binary) and run again.',
    );
    expect(outcome.stderr).not.toContain('hunter');
    expect(server.calls).toEqual([]);
  });

  test('a spawn error is not retried: a .env value too long to pass to Claude Code fails on the first attempt', async () => {
    const { run, scratch, server } = await start();
    // One environment string longer than Linux's 128 KiB limit: Node's spawn of Claude Code fails (E2BIG).
    writeFileSync(join(scratch.workspace, '.env'), `HUGE_SETTING=${'y'.repeat(200_000)}\n`);

    const outcome = await run(['once', 'hello']);

    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr).not.toMatch(/Attempt \d+ failed/);
    expect(outcome.stderr).toContain(
      '! Claude Code could not be started (Error: spawn E2BIG); retrying would not help.',
    );
    expect(outcome.stderr).not.toContain('yyyy');
    const [row] = readManifest(join(scratch.workspace, 'runs'));
    expect(row).toMatchObject({ ok: false, attempts: 1, error: 'Error: spawn E2BIG' });
    expect(server.calls).toEqual([]);
  });

  test('-w and -r naming a file say so in one line, without "Unexpected error"', async () => {
    const { run, scratch } = await start();
    const file = join(scratch.dir, 'notes.txt');
    writeFileSync(file, 'keep me\n');

    const workspace = await run(['-w', file, 'once', 'hello']);
    expect(workspace.exitCode).toBe(1);
    expect(workspace.stderr).toBe(
      `The workspace (-w) ${file} cannot be a directory: it, or a folder above it, is a file (EEXIST). ` +
        'Give a directory path; it is created when missing.',
    );

    const runDir = await run(['-r', join(file, 'runs'), 'once', 'hello']);
    expect(runDir.exitCode).toBe(1);
    expect(runDir.stderr).toContain(`The run directory (-r) ${join(file, 'runs')} cannot be a directory`);
    expect(runDir.stderr).not.toContain('Unexpected error');
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');
  });

  test('an unwritable run directory is named as such, not as a damaged sessions.db to move aside', async () => {
    const { run, scratch } = await start();
    const first = await run(['once', 'hello']);
    expect(first.exitCode, first.stderr).toBe(0);
    const runDir = join(scratch.workspace, 'runs');
    const database = readFileSync(join(runDir, 'sessions.db'));

    // Root ignores permissions, so as root the second run is started as `nobody`; the scratch tree is opened
    // to it except the run directory, which stays the root's and read-only.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      for (const path of [scratch.dir, ...readdirSync(scratch.dir).map((name) => join(scratch.dir, name))])
        chmodSync(path, 0o777);
    }
    chmodSync(runDir, 0o555);
    try {
      const second = await run(['once', 'hello again'], {
        extra: asRoot ? { uid: 65534, gid: 65534 } : {},
      });
      expect(second.exitCode).toBe(1);
      expect(second.stderr).toBe(
        `The run directory (-r) ${runDir} cannot be written (EACCES). ` +
          'Make it writable for this user, or give another directory.',
      );
      expect(second.stderr).not.toMatch(/sessions\.db|move it aside/);
    } finally {
      chmodSync(runDir, 0o755);
    }
    expect(readFileSync(join(runDir, 'sessions.db')).equals(database)).toBe(true);
  });

  test('a sessions.db that is not a database stops once with its one line and exit 1, the file untouched', async () => {
    const { run, scratch, server } = await start();
    const runDir = join(scratch.workspace, 'runs');
    mkdirSync(runDir, { recursive: true });
    const store = join(runDir, 'sessions.db');
    writeFileSync(store, 'notes, not a database\n'.repeat(50));

    // The store opens while Claude Code starts (docs/decisions.md D228): its error still ends the command
    // with the same single line and code as when it was opened first, before any request or manifest row.
    const outcome = await run(['once', 'hello']);

    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr).toBe(
      `${store} cannot be read as a session store (file is not a database). It was left untouched: move it ` +
        'aside (with any -wal and -shm files beside it) to start with an empty store, or restore it from a copy.',
    );
    expect(readFileSync(store, 'utf8')).toBe('notes, not a database\n'.repeat(50));
    expect(existsSync(join(runDir, 'manifest.json'))).toBe(false);
    expect(server.calls).toEqual([]);
  });

  test('once --resume with an id that is not a stored session exits 2 at once, offering no other id', async () => {
    const { run, server } = await start();

    const outcome = await run(['once', '--resume', '3f0c8a52-0000-4000-8000-000000000000', 'go on']);

    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toMatch(
      /^error: No session 3f0c8a52-0000-4000-8000-000000000000 is stored for this workspace in .*sessions\.db\./,
    );
    expect(outcome.stderr).not.toMatch(/Attempt \d+ failed|continue it with/);
    expect(server.calls).toEqual([]);
  });

  test('once -t with no tool name in the list is a usage error', async () => {
    const { run, server } = await start();

    const outcome = await run(['once', '-t', ',,,', 'hello']);

    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toContain("argument ',,,' is invalid. Name at least one tool, e.g. -t Read,Grep.");
    expect(server.calls).toEqual([]);
  });

  test('the probe timeout says "no answer within 20 s", not the raw TimeoutError', async () => {
    // The probe runs only when stdin is a terminal: `script` gives the CLI one. The probe call is told
    // apart by its body (max_tokens 16, "hi"); the fake never answers it.
    const flower = await start((request) =>
      request.body?.max_tokens === 16 ? { kind: 'hang' } : message([text('done')]),
    );
    const command = `node ${JSON.stringify(FLOWER_CLI)} once hello`;

    const outcome = await underTerminal(command, flower);

    expect(outcome).toContain(
      'Could not reach the server: no answer within 20 s — treating it as a network problem and starting anyway',
    );
    expect(outcome).not.toContain('TimeoutError');
  });
});

/** Runs `command` under `script` (a pseudo-terminal) in the scratch workspace; returns what it printed. */
async function underTerminal(command: string, flower: FlowerCli): Promise<string> {
  const result = await execa('script', ['-qec', command, '/dev/null'], {
    env: { ...flower.scratch.env, TERM: 'dumb' },
    extendEnv: false,
    cwd: flower.scratch.workspace,
    reject: false,
    timeout: 90_000,
    stdin: 'ignore',
  });
  return String(result.stdout);
}
