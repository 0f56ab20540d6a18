import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseCheckBlock, type CommandCheck } from '../roles/goal-checks.js';
import { runCheck } from './check-runner.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-runner-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const check = (body: string): CommandCheck => {
  const read = parseCheckBlock(body);
  if (typeof read === 'string' || read.kind !== 'command')
    throw new Error(`not a command check: ${JSON.stringify(read)}`);
  return read;
};

describe('runCheck', () => {
  test('passes on the expected exit code and fails on another, keeping the output tails', async () => {
    const passed = await runCheck(check('run: echo hello; echo oops >&2'), dir);
    expect(passed).toMatchObject({
      passed: true,
      exit: 0,
      why: '',
      stdoutTail: 'hello\n',
      stderrTail: 'oops\n',
    });
    const failed = await runCheck(check('run: exit 3'), dir);
    expect(failed).toMatchObject({ passed: false, exit: 3, why: 'exit 3, expected 0' });
    expect(await runCheck(check('run: exit 3\nexit: 3'), dir)).toMatchObject({ passed: true });
  });

  test('the stdout pattern must match', async () => {
    expect(await runCheck(check('run: echo 5\nstdout: ^5$'), dir)).toMatchObject({ passed: true });
    expect(await runCheck(check('run: echo 6\nstdout: ^5$'), dir)).toMatchObject({
      passed: false,
      why: 'stdout does not match /^5$/',
    });
  });

  test('runs in its cwd inside the workspace; a missing folder fails without running', async () => {
    mkdirSync(join(dir, 'sub'));
    expect(await runCheck(check('run: test "$(basename "$PWD")" = sub\ncwd: sub'), dir)).toMatchObject({
      passed: true,
    });
    expect(await runCheck(check('run: true\ncwd: nowhere'), dir)).toMatchObject({
      passed: false,
      why: 'the folder nowhere does not exist in this tree',
    });
  });

  test('a command past its timeout is killed with what it started, and fails', async () => {
    const started = Date.now();
    const run = await runCheck(check('run: sleep 30 & sleep 30\ntimeout: 1'), dir);
    expect(run).toMatchObject({ passed: false, timedOut: true, exit: null, why: 'timed out after 1 s' });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('a file check: it must exist, with its hash or content', async () => {
    writeFileSync(join(dir, 'out.txt'), 'built v2\n');
    const sha = createHash('sha256').update('built v2\n').digest('hex');
    expect(await runCheck(check(`file: out.txt\nsha256: ${sha}`), dir)).toMatchObject({ passed: true });
    expect(await runCheck(check(`file: out.txt\nsha256: ${'0'.repeat(64)}`), dir)).toMatchObject({
      passed: false,
      why: expect.stringContaining('has SHA-256') as unknown,
    });
    expect(await runCheck(check('run: true\nfile: out.txt\ncontains: v\\d'), dir)).toMatchObject({
      passed: true,
    });
    expect(await runCheck(check('file: out.txt\ncontains: v3'), dir)).toMatchObject({ passed: false });
    expect(await runCheck(check('file: missing.txt'), dir)).toMatchObject({
      passed: false,
      why: 'missing.txt does not exist',
    });
  });
});
