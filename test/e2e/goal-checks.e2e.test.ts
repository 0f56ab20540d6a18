// Goal checks that flower runs itself (docs/goal-checks.md), with the real SDK and Claude Code binary against
// the fake Messages API. The scripted worker writes files with Bash; the scripted judge is fooled on purpose
// (it says ACHIEVED) so that what stops a false pass is flower's own run of the checks: the negative control
// catches a test that always passes, a failing check overrules the judge and its output reaches the next
// round, and an item that needs macOS is never ACHIEVED on this host.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { agentSpec } from '../../src/agent/agent-spec.js';
import { HumanChannel } from '../../src/human/human-channel.js';
import { Goal } from '../../src/roles/goal.js';
import { setGoalInstructions, verdictInstructions } from '../../src/roles/judge.js';
import { readManifest } from '../../src/runtime/manifest.js';
import {
  MAIN_THREAD,
  lastUserText,
  message,
  text,
  toolUse,
  type FakeRequest,
  type FakeResponse,
} from '../../src/testing/index.js';
import { step } from '../../src/workflow/step.js';
import { withGoal } from '../../src/workflow/with-goal.js';
import { Workflow } from '../../src/workflow/workflow.js';
import { inProcessRuns } from './support/in-process-run.js';
import { firstUserText } from './support/tool-results.js';

const setUp = inProcessRuns();

const ACHIEVED = '## Conclusion\nACHIEVED\n\n## Reason\nThe worker says it is done.\n\n## Failed\n(none)';
const SUM_OK = 'console.log(Number(process.argv[2]) + Number(process.argv[3]))';
const SUM_CHECK = { item: '`node sum.js 2 3` prints 5', block: 'run: node sum.js 2 3\nstdout: ^5$' };

/** The scripted model: the worker runs `commands` in order (one Bash call per round), the judge is fooled. */
function script(commands: string[], repaired = ''): (request: FakeRequest) => FakeResponse {
  return (request) => {
    if (request.thread !== MAIN_THREAD) return message([text('no subagents here')]);
    const first = firstUserText(request);
    if (first.includes(verdictInstructions())) return message([text(ACHIEVED)]);
    if (first.includes(setGoalInstructions())) return message([text(repaired)]);
    if (lastUserText(request) === '' || /tool_result/.test(JSON.stringify(request.body.messages?.at(-1)))) {
      return message([text('Done: sum.js works and its test passes.')]);
    }
    const round = lastUserText(request).includes('did not meet the goal') ? 2 : 1;
    const command = commands[round - 1] ?? 'true';
    return message([toolUse('Bash', { command, description: `round ${round}` }, `toolu_round${round}`)]);
  };
}

function writeGoal(workspace: string, items: Array<{ item: string; block: string }>): string {
  const notes = join(workspace, '.flower', 'notes');
  mkdirSync(notes, { recursive: true });
  const path = join(notes, 'goal.md');
  const goal = new Goal({
    statement: 'sum.js adds two numbers.',
    checks: items.map((entry) => entry.item),
    blocks: items.map((entry) => entry.block),
  });
  writeFileSync(path, goal.toMarkdown());
  return path;
}

const work = () =>
  step(
    'work',
    agentSpec({ name: 'worker', instructions: '', tools: ['Bash'], allowedTools: ['Bash'] }),
    'Write sum.js.',
    { verbatim: true },
  );

function gitInit(workspace: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: workspace,
      stdio: 'ignore',
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
}

describe('goal checks run by flower (e2e)', () => {
  test('a test that always passes: the negative control flags it, NOT_YET, the manifest says why, the judge replaces it', async () => {
    const repaired = new Goal({
      statement: 'sum.js adds two numbers.',
      checks: [SUM_CHECK.item],
      blocks: [SUM_CHECK.block],
    }).toMarkdown();
    const { scratch, runtime } = await setUp(
      script(['mkdir -p tests && printf "exit 0\\n" > tests/sum.sh'], repaired),
    );
    const workspace = scratch.workspace;
    // The project's test runner: every tests/*.sh must pass; with no tests at all, it passes.
    writeFileSync(
      join(workspace, 'run-tests.sh'),
      'for t in tests/*.sh; do [ -e "$t" ] || continue; sh "$t" || exit 1; done\n',
    );
    gitInit(workspace);
    const goalPath = writeGoal(workspace, [
      { item: 'the tests of sum.js pass', block: 'run: sh run-tests.sh' },
    ]);
    const rt = runtime({ workbench: false });
    const channel = new HumanChannel({ timeoutS: 0 });

    const ctx = await new Workflow([withGoal(work(), channel, { goalPath, rounds: 1 })], { channel }).run(rt);

    expect(ctx._failedAt).toBe('work');
    const rows = readManifest(rt.runDir);
    expect(rows.map((row) => row.step)).toEqual(['work', 'work/verdict#1', 'work/checks#1']);
    const verdict = rows[1];
    expect(verdict?.text).toContain('ACHIEVED');
    expect(verdict?.checks).toMatchObject({
      judge: 'ACHIEVED',
      result: 'NOT_YET',
      items: [{ item: 'the tests of sum.js pass', passes_on_round: true, passes_on_base: true }],
    });
    expect(verdict?.checks?.reason).toMatch(/passes on the base tree too/);
    expect(verdict?.checks?.tree).toMatch(/^refs\/flower\/rounds\/1 /);
    // The judge was told, and its replacement is the goal now.
    expect(readFileSync(goalPath, 'utf8')).toContain('run: node sum.js 2 3');
    expect(readFileSync(join(workspace, '.flower', 'notes', 'checks.md'), 'utf8')).toContain('[BLIND]');
    // The user's branch was not touched: HEAD is still the base commit, tests/ is still untracked.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: workspace, encoding: 'utf8' })).toContain(
      '?? tests/',
    );
  });

  test('the judge says ACHIEVED while a check fails: NOT_YET, and the next round is shown the check output', async () => {
    const { server, scratch, runtime } = await setUp(
      script([`printf '%s\\n' 'console.log(6)' > sum.js`, `printf '%s\\n' '${SUM_OK}' > sum.js`]),
    );
    const goalPath = writeGoal(scratch.workspace, [SUM_CHECK]);
    const rt = runtime({ workbench: false });
    const channel = new HumanChannel({ timeoutS: 0 });

    const ctx = await new Workflow([withGoal(work(), channel, { goalPath, rounds: 3 })], { channel }).run(rt);

    expect(ctx._failedAt).toBeUndefined();
    const verdicts = readManifest(rt.runDir).filter((row) => row.step.startsWith('work/verdict#'));
    expect(verdicts.map((row) => [row.checks?.judge, row.checks?.result])).toEqual([
      ['ACHIEVED', 'NOT_YET'],
      ['ACHIEVED', 'ACHIEVED'],
    ]);
    expect(verdicts[0]?.checks?.items[0]).toMatchObject({ passes_on_round: false, stdout_tail: '6\n' });
    expect(verdicts[1]?.checks?.summary).toBe('1 of 1 item verified here');
    // The second round's prompt carried the failing check and what it printed.
    const round2 = server.calls.find((call) => lastUserText(call).includes('did not meet the goal'));
    expect(lastUserText(round2 as FakeRequest)).toMatch(
      /node sum\.js 2 3[\s\S]*stdout does not match[\s\S]*```\n6\n```/,
    );
  });

  test('a macOS target on this Linux host is never ACHIEVED: the run ends naming the unverifiable item', async () => {
    const { scratch, runtime } = await setUp(script([`printf '%s\\n' '${SUM_OK}' > sum.js`]));
    const goalPath = writeGoal(scratch.workspace, [
      SUM_CHECK,
      { item: 'runs in a macOS terminal', block: 'manual: must be started on a Mac\nneeds: macOS' },
    ]);
    const rt = runtime({ workbench: false });
    const channel = new HumanChannel({ timeoutS: 0 });

    const ctx = await new Workflow([withGoal(work(), channel, { goalPath, rounds: 3 })], { channel }).run(rt);

    expect(ctx._failedAt).toBe('work');
    expect(ctx._aborted).toContain('1 of 2 items verified here; 1 needs macOS');
    expect(ctx._aborted).toContain('"runs in a macOS terminal"');
    const verdicts = readManifest(rt.runDir).filter((row) => row.step.startsWith('work/verdict#'));
    // One round only: more rounds cannot verify a Mac here.
    expect(verdicts.map((row) => [row.checks?.judge, row.checks?.result])).toEqual([
      ['ACHIEVED', 'UNREACHABLE'],
    ]);
  });
});
