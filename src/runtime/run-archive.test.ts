import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract, list } from 'tar';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { projectKey } from '../agent/project-key.js';
import { isFlowerError } from '../errors.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { CredentialScanner } from './credential-scan.js';
import { Lineage } from './lineage.js';
import { exportRun, importRun } from './run-archive.js';

let scratch: string;
let workspace: string;
let runDir: string;

const SESSION = '11111111-2222-4333-8444-555555555555';

function entry(uuid: string, text: string): { type: string; uuid: string; message: unknown } {
  return { type: 'user', uuid, message: { role: 'user', content: text } };
}

/** A run whose store stays open (a live writer): its last lines are only in the -wal file. */
async function makeRun(text = 'hello'): Promise<SqliteSessionStore> {
  mkdirSync(join(workspace, '.flower', 'notes'), { recursive: true });
  writeFileSync(join(workspace, '.flower', 'notes', 'goal.md'), '# Goal\n- [ ] ship it\n');
  writeFileSync(join(workspace, 'CLAUDE.md'), '<!-- flower bequest -->\nnotes\n');
  const store = new SqliteSessionStore(join(runDir, 'sessions.db'));
  await store.append({ projectKey: projectKey(workspace), sessionId: SESSION }, [entry('a-1', text)]);
  const lineage = Lineage.open(runDir, workspace);
  lineage.remember('work', SESSION);
  writeFileSync(join(runDir, 'manifest.json'), '[]\n');
  mkdirSync(join(runDir, 'claude'), { recursive: true });
  writeFileSync(
    join(runDir, 'claude', '.credentials.json'),
    '{"token":"sk-ant-oat01-not-for-export-000000"}',
  );
  writeFileSync(join(runDir, 'processes.json'), '[]');
  return store;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isFlowerError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'flower-archive-'));
  workspace = join(scratch, 'here');
  runDir = join(workspace, 'runs');
  mkdirSync(runDir, { recursive: true });
});

afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe('exportRun', () => {
  test('packs a consistent snapshot, the lineage, manifest, notes and bequest; never the Claude folder', async () => {
    const store = await makeRun();
    const output = join(scratch, 'run.tar.gz');
    // The store is still open: its entry is in the -wal file, which a plain file copy would miss.
    expect(existsSync(join(runDir, 'sessions.db-wal'))).toBe(true);
    const summary = await exportRun({ workspace, runDir, output, credentialValues: [] });
    store.close();
    const names: string[] = [];
    await list({ file: output, onReadEntry: (item) => names.push(item.path) });
    expect(names.sort()).toEqual(
      [
        'flower-run.json',
        'run/lineage.json',
        'run/manifest.json',
        'run/sessions.db',
        'workspace/.flower/notes/goal.md',
        'workspace/CLAUDE.md',
      ].sort(),
    );
    expect(summary.transcripts).toBe(1);
    const unpacked = join(scratch, 'unpacked');
    mkdirSync(unpacked);
    await extract({ file: output, cwd: unpacked });
    const copy = new SqliteSessionStore(join(unpacked, 'run', 'sessions.db'), { readonly: true });
    try {
      const entries = await copy.load({ projectKey: projectKey(workspace), sessionId: SESSION });
      expect(JSON.stringify(entries)).toContain('hello');
    } finally {
      copy.close();
    }
  });

  test('refuses a key in a note, a .env file, a key in a transcript, and the user’s own credential value', async () => {
    const store = await makeRun('the token is MY-OWN-CREDENTIAL-VALUE');
    const output = join(scratch, 'run.tar.gz');
    expect(
      await refusal(exportRun({ workspace, runDir, output, credentialValues: ['MY-OWN-CREDENTIAL-VALUE'] })),
    ).toMatch(
      /^EXPORT_CREDENTIAL: Not exported: run\/sessions\.db \(transcript .+\) holds the value of one of your credential variables/,
    );
    await store.append({ projectKey: projectKey(workspace), sessionId: SESSION }, [
      entry('a-2', 'export ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123'),
    ]);
    expect(await refusal(exportRun({ workspace, runDir, output, credentialValues: [] }))).toContain(
      'holds an Anthropic API key',
    );
    store.close();
    rmSync(join(runDir, 'sessions.db'));
    rmSync(join(runDir, 'sessions.db-wal'), { force: true });
    rmSync(join(runDir, 'sessions.db-shm'), { force: true });
    writeFileSync(join(workspace, '.flower', 'notes', 'aws.md'), 'id AKIAABCDEFGHIJKLMNOP\n');
    expect(await refusal(exportRun({ workspace, runDir, output, credentialValues: [] }))).toContain(
      'workspace/.flower/notes/aws.md (line 1) holds an AWS access key id',
    );
    rmSync(join(workspace, '.flower', 'notes', 'aws.md'));
    writeFileSync(join(workspace, '.flower', '.env.local'), 'X=1\n');
    expect(await refusal(exportRun({ workspace, runDir, output, credentialValues: [] }))).toContain(
      'workspace/.flower/.env.local (the file) holds a credentials file',
    );
    expect(existsSync(output)).toBe(false);
    // Nothing was left behind either: no partial archive, no staging folder.
    expect(existsSync(join(scratch, 'run.tar.gz'))).toBe(false);
    expect(
      readdirSync(scratch).filter((name) => name.includes('staging') || name.includes('partial')),
    ).toEqual([]);
  });

  test('refuses an existing output and a folder without a run', async () => {
    const store = await makeRun();
    store.close();
    const output = join(scratch, 'exists.tar.gz');
    writeFileSync(output, 'mine');
    expect(await refusal(exportRun({ workspace, runDir, output, credentialValues: [] }))).toMatch(
      /^RUN_ARCHIVE: .*already exists/,
    );
    expect(readFileSync(output, 'utf8')).toBe('mine');
    expect(
      await refusal(
        exportRun({
          workspace: scratch,
          runDir: join(scratch, 'none'),
          output: join(scratch, 'n.tgz'),
          credentialValues: [],
        }),
      ),
    ).toMatch(/^NO_RUN: No run to export/);
  });
});

describe('importRun', () => {
  test('re-keys the sessions for the new path and points the lineage there', async () => {
    const store = await makeRun();
    store.close();
    const output = join(scratch, 'run.tar.gz');
    await exportRun({ workspace, runDir, output, credentialValues: [] });
    const other = join(scratch, 'moved', 'there');
    const summary = await importRun({ archive: output, workspace: other });
    expect(summary).toMatchObject({ fromProjectKey: projectKey(workspace), toProjectKey: projectKey(other) });
    expect(summary.steps).toEqual({ work: SESSION });
    const moved = new SqliteSessionStore(join(other, 'runs', 'sessions.db'), { readonly: true });
    try {
      expect(moved.projects()).toEqual([projectKey(other)]);
      expect(await moved.load({ projectKey: projectKey(other), sessionId: SESSION })).toHaveLength(1);
    } finally {
      moved.close();
    }
    const lineage = Lineage.open(join(other, 'runs'), other, { readonly: true });
    expect(lineage.steps).toEqual({ work: SESSION });
    expect(lineage.rekey).toBeNull();
    expect(readFileSync(join(other, '.flower', 'notes', 'goal.md'), 'utf8')).toContain('ship it');
  });

  test('never overwrites: a second import into the same place is refused and changes nothing', async () => {
    const store = await makeRun();
    store.close();
    const output = join(scratch, 'run.tar.gz');
    await exportRun({ workspace, runDir, output, credentialValues: [] });
    const other = join(scratch, 'there');
    await importRun({ archive: output, workspace: other });
    writeFileSync(join(other, 'CLAUDE.md'), 'edited here');
    expect(await refusal(importRun({ archive: output, workspace: other }))).toMatch(
      /^RUN_ARCHIVE: Not imported: .*sessions\.db.* already exist/,
    );
    expect(readFileSync(join(other, 'CLAUDE.md'), 'utf8')).toBe('edited here');
    expect(readdirSync(other).filter((name) => name.startsWith('.flower-import-'))).toEqual([]);
  });

  test('refuses a file that is not a run archive', async () => {
    const bogus = join(scratch, 'bogus.tar.gz');
    writeFileSync(bogus, 'not a tarball at all');
    expect(await refusal(importRun({ archive: bogus, workspace: join(scratch, 'x') }))).toMatch(
      /^RUN_ARCHIVE: .*is not a flower run archive/,
    );
    expect(await refusal(importRun({ archive: join(scratch, 'missing.tgz'), workspace: scratch }))).toMatch(
      /^RUN_ARCHIVE: .*is not a file/,
    );
  });
});

describe('CredentialScanner', () => {
  const scanner = new CredentialScanner(['short', 'a-long-own-value']);
  test.each([
    ['sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA', 'an Anthropic API key'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'a GitHub token'],
    ['-----BEGIN OPENSSH PRIVATE KEY-----', 'a private key'],
    ['"client_secret": "0123456789abcdef0123"', 'a value assigned to a secret variable'],
    ['uses a-long-own-value here', 'the value of one of your credential variables'],
  ])('finds %s', (text, kind) => {
    expect(scanner.kindIn(text)).toBe(kind);
  });
  test.each([
    'ANTHROPIC_API_KEY=$ANTHROPIC_API_KEY',
    'api_key: ${API_KEY}',
    'a short word',
    '[credential removed by flower]',
    'PASSWORD=<your password here>',
  ])('leaves %s alone', (text) => {
    expect(scanner.kindIn(text)).toBeNull();
  });
});
