// What a person reads during and after a run, through the built CLI with the real SDK and Claude Code binary
// against the fake Messages API: one budget-stop line, singular counts, and whole lines when the output is
// a pipe (a pipe has no width, so nothing is wrapped or cut).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Brief } from '../../src/roles/brief.js';
import { Goal } from '../../src/roles/goal.js';
import { message, text, type FakeScript } from '../../src/testing/index.js';
import { flowerCli, type FlowerCli } from './support/flower-cli.js';

let cli: FlowerCli | null = null;

afterEach(async () => {
  await cli?.close();
  cli = null;
});

async function start(script: FakeScript): Promise<FlowerCli> {
  cli = await flowerCli(script);
  return cli;
}

const LONG_ANSWER = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');

describe('run output (e2e)', () => {
  test('piped output is not wrapped: a long answer and the budget line stay whole; one turn is "1 turn"', async () => {
    const { run } = await start(() => message([text(LONG_ANSWER)]));

    const outcome = await run(['once', '-b', '0.001', 'say many words']);

    expect(outcome.exitCode).toBe(1);
    const lines = outcome.stderr.split('\n');
    expect(LONG_ANSWER.length).toBeGreaterThan(200);
    expect(lines).toContain(`  ${LONG_ANSWER}`);
    expect(lines.some((line) => /^ {2}\+ done 1 turn · |^ {2}x failed 1 turn · /.test(line))).toBe(true);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}! Step budget \$0\.00 used up \(\$[\d.]+ spent\); stopped here, the session stays resumable$/,
      ),
    );
  });

  test('a side question asked from a pipe gets its answer written whole, not wrapped at 80 columns', async () => {
    const { run } = await start((request) =>
      JSON.stringify(request.body).includes('what are you doing now')
        ? message([text(LONG_ANSWER)])
        : message([text('ok')]),
    );

    const outcome = await run(['go', '--timeout', '0'], { input: 'build it\n?what are you doing now\n' });

    expect(outcome.stderr).toContain('# Aside');
    expect(outcome.stderr.split('\n')).toContain(`  ${LONG_ANSWER}`);
  });

  test('the run budget stop is said once, though the bequest still runs after it', async () => {
    const { run } = await start(() => message([text('ok')]));

    const outcome = await run(['go', '-b', '0.001', '--timeout', '0', 'build a thing']);

    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr).toContain('== bequest');
    expect(outcome.stderr.match(/Run budget \$0\.00 used up/g)).toHaveLength(1);
  });

  test('the wake banner counts "1 goal check"', async () => {
    const { run, scratch } = await start(() => ({
      kind: 'status',
      status: 400,
      errorType: 'invalid_request_error',
      message: 'not scripted',
    }));
    const notes = join(scratch.workspace, '.flower', 'notes');
    mkdirSync(notes, { recursive: true });
    writeFileSync(
      join(notes, 'brief.md'),
      new Brief({
        goal: 'A clock.',
        accept: 'It shows the time.',
        bounds: 'Node only.',
        unknowns: 'None.',
      }).toMarkdown(),
    );
    writeFileSync(
      join(notes, 'goal.md'),
      new Goal({ statement: 'The clock works.', checks: ['run clock → see the time'] }).toMarkdown(),
    );

    const outcome = await run(['go', '--timeout', '0', 'keep going']);

    expect(outcome.stderr).toMatch(/^<- Resuming in .* · brief confirmed · 1 goal check · wake #1$/m);
  });
});
