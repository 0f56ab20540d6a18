import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runCliScripted } from '../../../test/support/cli-session.js';
import { CLOCK_BRIEF as BRIEF } from '../../../test/support/go-path.js';
import { sdk, type LikeStep } from '../../../test/support/sdk-like-backend.js';

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-go-conventions-')));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const clarified: LikeStep = [
  sdk.init(),
  sdk.text(BRIEF, { id: 'm1', tokens: 1000 }),
  sdk.result({ total_cost_usd: 0.25 }),
];

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

describe('flower go: the conventions of other CLIs', () => {
  test("in a git repository the new runs/ ignores itself; --json prints exactly the event log's events on stdout", async () => {
    git('init', '-q');
    const outcome = await runCliScripted(
      dir,
      ['go', '--json', '--clarify-only', '--timeout', '0', 'build me a clock'],
      [clarified],
    );
    expect(outcome.code, outcome.stderr).toBe(0);

    expect(readFileSync(join(dir, 'runs', '.gitignore'), 'utf8')).toBe('*\n');
    const porcelain = git('status', '--porcelain', '--untracked-files=all');
    expect(porcelain).not.toContain('runs/');
    expect(porcelain).toContain('.flower/notes/brief.md');

    // Same serialiser, same lines: stdout is the log without its open and close markers.
    const logged = readFileSync(join(dir, 'runs', 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('{"log":'));
    const printed = outcome.stdout.split('\n').filter((line) => line !== '');
    expect(printed.length).toBeGreaterThan(3);
    expect(printed).toEqual(logged);
    expect(printed.map((line) => (JSON.parse(line) as { kind: string }).kind)).toContain('step');
    // The human view is on stderr as without --json.
    expect(outcome.stderr).toContain('== clarify ');
    expect(outcome.stderr).toContain('Total cost $0.2500');
  });

  test('without --json stdout stays empty', async () => {
    const outcome = await runCliScripted(
      dir,
      ['go', '--clarify-only', '--timeout', '0', 'build me a clock'],
      [clarified],
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toBe('');
  });
});
