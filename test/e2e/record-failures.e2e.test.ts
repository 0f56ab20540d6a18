// A run whose record cannot be written, through the built CLI with the real SDK and Claude Code binary against
// the fake Messages API: the failure is shown at once and in the closing line, the exit code says the record
// is incomplete, the old manifest is kept and no temporary file is left beside it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { message, text } from '../../src/testing/index.js';
import { flowerCli, type FlowerCli } from './support/flower-cli.js';

let cli: FlowerCli | null = null;
let immutable: string | null = null;

afterEach(async () => {
  if (immutable !== null) execFileSync('chattr', ['-i', immutable]);
  immutable = null;
  await cli?.close();
  cli = null;
});

async function firstRun(): Promise<{ flower: FlowerCli; runDir: string; manifest: string; before: string }> {
  cli = await flowerCli(() => message([text('done')]));
  const first = await cli.run(['once', 'hello']);
  expect(first.exitCode, first.stderr).toBe(0);
  const runDir = join(cli.scratch.workspace, 'runs');
  const manifest = join(runDir, 'manifest.json');
  return { flower: cli, runDir, manifest, before: readFileSync(manifest, 'utf8') };
}

function expectSurfaced(outcome: { exitCode: number | undefined; stderr: string }, manifest: string): void {
  expect(outcome.exitCode).toBe(1);
  const lines = outcome.stderr.split('\n');
  const warning = lines.findIndex((line) => line.startsWith('! Not recorded: manifest: '));
  const closing = lines.findIndex((line) => line.startsWith('Total cost $'));
  // At once: the warning comes while the run goes on, before its result line and the closing line.
  expect(warning).toBeGreaterThanOrEqual(0);
  expect(warning).toBeLessThan(lines.findIndex((line) => line.startsWith('  + done')));
  expect(lines[closing]).toMatch(/ · record incomplete: (?:1 failure|(?!1 )\d+ failures) above$/);
  expect(lines.at(-1)).toMatch(
    new RegExp(
      `^The run's record is incomplete \\((?:1 failure|(?!1 )\\d+ failures) above\\), so ${manifest} may be stale\\.`,
    ),
  );
}

describe('a record that cannot be written (e2e)', () => {
  test('a manifest write that fails is shown at once and in the closing line, and the exit code is 1', async () => {
    const { flower, manifest, before } = await firstRun();
    // A directory where the temporary manifest goes: every write of this run fails.
    mkdirSync(join(`${manifest}.tmp`, 'in-the-way'), { recursive: true });

    const outcome = await flower.run(['once', 'hello again']);

    expectSurfaced(outcome, manifest);
    expect(outcome.stderr).toContain(
      `manifest: Error: EISDIR: illegal operation on a directory, open '${manifest}.tmp'`,
    );
    expect(readFileSync(manifest, 'utf8')).toBe(before);
  });

  test('a manifest that cannot be replaced keeps its old contents and leaves no temporary file', async () => {
    const { flower, runDir, manifest, before } = await firstRun();
    // As root the manifest is made immutable, so the rename over it fails after the temporary is written
    // (the acceptance round's case). Without root, chattr is refused and the directory obstacle stands in.
    if (process.getuid?.() === 0) {
      execFileSync('chattr', ['+i', manifest]);
      immutable = manifest;
    } else {
      mkdirSync(join(`${manifest}.tmp`, 'in-the-way'), { recursive: true });
    }

    const outcome = await flower.run(['once', 'hello again']);

    expectSurfaced(outcome, manifest);
    expect(readFileSync(manifest, 'utf8')).toBe(before);
    const leftovers = readdirSync(runDir).filter((name) => /^manifest\.json\.tmp/.test(name));
    expect(leftovers).toEqual(immutable === null ? ['manifest.json.tmp'] : []);
    expect(existsSync(join(runDir, 'manifest.json.lock'))).toBe(false);
  });
});
