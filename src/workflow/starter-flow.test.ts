import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isFlowerError } from '../errors.js';
import { Brief } from '../roles/brief.js';
import { Goal } from '../roles/goal.js';
import { readManifest } from '../runtime/manifest.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ScriptedStep } from '../testing/scripted-backend.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { BRIEF_REPLY, goalReply, scriptedRuntime, verdictReply } from '../../test/support/go-path.js';
import { buildStarter, starterFlow, type StarterOptions } from './starter-flow.js';
import { CODER_DESCRIPTION } from './starter-prompts.js';

let dir: string;
let workspace: string;
const runtimes: Runtime[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-starter-')));
  workspace = join(dir, 'ws');
  mkdirSync(workspace);
});

afterEach(() => {
  for (const rt of runtimes.splice(0)) void rt.close();
  rmSync(dir, { recursive: true, force: true });
});

const BEQUEST = '## What\ndate-cli prints the date.\n## Workbench\nRead .flower/notes first.';
const ACHIEVED = verdictReply('ACHIEVED', 'ran it and saw the date');
const unattended: StarterOptions = { timeoutS: 0 };

/** One flower process: build the starter, run it on a scripted runtime sharing the workbench. */
async function goProcess(ask: string, steps: ScriptedStep[], options: StarterOptions = {}) {
  const build = buildStarter(ask, { workspace, ...unattended, ...options });
  const { rt, backend } = scriptedRuntime(workspace, steps, { workbench: build.workbench });
  runtimes.push(rt);
  const ctx = await build.workflow.run(rt);
  return { build, rt, backend, ctx };
}

function failure(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const notes = (): string => join(workspace, '.flower', 'notes');

describe('starterFlow', () => {
  test('runs clarify, goal, judged work rounds and the bequest, with English names on disk', async () => {
    const { build, rt, backend, ctx } = await goProcess('build me a date CLI', [
      turn('s-clarify', BRIEF_REPLY),
      turn('s-goal', goalReply(['run date-cli → see a date'])),
      turn('s-work', 'done'),
      turn('s-judge-1', verdictReply('NOT_YET', 'no binary', ['run date-cli → see a date'])),
      turn('s-work', 'done, with a binary'),
      turn('s-judge-2', ACHIEVED),
      turn('s-bequest', BEQUEST),
    ]);
    expect(ctx._failedAt).toBeUndefined();
    expect(build.workflow.name).toBe('starter');
    expect(build.workflow.channel).toBe(build.channel);
    expect(build.workflow.workbench).toBe(build.workbench);
    expect(readManifest(rt.runDir).map((row) => row.step)).toEqual([
      'clarify',
      'goal',
      'work',
      'work/verdict#1',
      'work#round2',
      'work/verdict#2',
      'bequest',
    ]);
    expect(build.briefPath).toBe(join(notes(), 'brief.md'));
    expect(Brief.load(join(notes(), 'brief.md'))?.complete()).toBe(true);
    expect(Goal.load(join(notes(), 'goal.md'))?.checks).toEqual(['run date-cli → see a date']);
    expect(readFileSync(join(workspace, 'CLAUDE.md'), 'utf8')).toContain('date-cli prints the date.');

    const work = backend.requests[2];
    expect(work?.prompt).toContain('Do it per this brief.');
    expect(work?.prompt).toContain('A CLI that prints the date, for shell scripts.');
    expect(work?.prompt).toContain('an independent judge checks each item');
    expect(work?.prompt).toContain('- run date-cli → see a date');
    expect(work?.options.verbatimPrompts).toBe(true);
    expect(work?.options.agents?.['coder']?.description).toBe(CODER_DESCRIPTION);
    expect(work?.options.agents?.['coder']?.prompt).toContain('run a verification after every change');
    expect(Object.keys(work?.options.mcpServers ?? {})).toEqual(['human']);
    backend.assertComplete();
  });

  test('on wake, a remark lands in the brief, sets the goal again and reaches the coordinator', async () => {
    await goProcess('build me a date CLI', [
      turn('s-clarify', BRIEF_REPLY),
      turn('s-goal', goalReply(['run date-cli → see a date'])),
      turn('s-work', 'done'),
      turn('s-judge-1', ACHIEVED),
      turn('s-bequest', BEQUEST),
    ]);
    const remark = 'Also print the week number.';
    const wake = await goProcess(remark, [
      turn('s-goal', goalReply(['run date-cli → see a date', 'run date-cli → see the week'])),
      turn('s-work', 'added the week'),
      turn('s-judge-2', ACHIEVED),
      turn('s-bequest', BEQUEST),
    ]);
    expect(wake.build.waking).toBe(true);
    expect(wake.build.amended).toBe(true);
    expect(wake.ctx._failedAt).toBeUndefined();
    expect(readFileSync(join(notes(), 'brief.md'), 'utf8')).toMatch(
      /## Added on wake \(\d\d:\d\d:\d\d\)\n\nAlso print the week number\./,
    );
    const [goal, work, , bequest] = wake.backend.requests;
    expect(goal?.prompt).toContain(remark);
    // The goal setter is a judge: a fresh session, never the one that set the old goal (docs/roles.md).
    expect(goal?.options.resume).toBeUndefined();
    expect(bequest?.options.resume).toBeUndefined();
    expect(work?.options.resume).toBe('s-work');
    // The workbench index goes first when it changed since it was last sent (decisions.md D20).
    expect(work?.prompt).toContain(`${remark}\n\n---\n\nThe goal and checklist were derived again`);
    expect(work?.prompt).toContain('they prevail over the earlier ones');
    expect(work?.prompt).toContain('- run date-cli → see the week');
    expect(Goal.load(join(notes(), 'goal.md'))?.checks).toHaveLength(2);
    expect(readManifest(wake.rt.runDir).map((row) => row.step)).toEqual([
      'clarify',
      'goal',
      'work',
      'work/verdict#1',
      'bequest',
      'goal',
      'work',
      'work/verdict#1',
      'bequest',
    ]);
    wake.backend.assertComplete();

    // The same remark again (the same command rerun): not appended twice, and the goal is not set again.
    const again = await goProcess(remark, [
      turn('s-work', 'nothing left'),
      turn('s-judge-3', ACHIEVED),
      turn('s-bequest', BEQUEST),
    ]);
    expect(again.build.amended).toBe(false);
    expect(readFileSync(join(notes(), 'brief.md'), 'utf8').split(remark)).toHaveLength(2);
    expect(again.backend.requests[0]?.prompt.endsWith(`\n\n${remark}`)).toBe(true);
    again.backend.assertComplete();
  });

  test('an empty wake continues the work session and costs no goal setting', async () => {
    await goProcess('build me a date CLI', [
      turn('s-clarify', BRIEF_REPLY),
      turn('s-goal', goalReply(['run date-cli → see a date'])),
      turn('s-work', 'halfway', { fail: true }),
    ]);
    const wake = await goProcess('  ', [
      turn('s-work', 'done'),
      turn('s-judge', ACHIEVED),
      turn('s-b', BEQUEST),
    ]);
    expect(wake.build.amended).toBe(false);
    expect(wake.backend.requests[0]?.options.resume).toBe('s-work');
    expect(wake.backend.requests[0]?.prompt).toMatch(
      /\n\nContinue where you stopped\. First say in one line what you will touch first\.$/,
    );
    expect(readFileSync(join(notes(), 'brief.md'), 'utf8')).not.toContain('Added on wake');
    wake.backend.assertComplete();
  });

  test('a wake after the rounds ran out tells the work session what the judge found', async () => {
    const rejected = verdictReply('NOT_YET', 'the date is printed in UTC, not local time', [
      'run date-cli → see a local date',
    ]);
    const first = await goProcess(
      'build me a date CLI',
      [
        turn('s-clarify', BRIEF_REPLY),
        turn('s-goal', goalReply(['run date-cli → see a local date'])),
        turn('s-work', 'done'),
        turn('s-judge-1', rejected),
        turn('s-b', BEQUEST),
      ],
      { rounds: 1 },
    );
    expect(first.ctx._failedAt).toBe('work');
    const wake = await goProcess('', [
      turn('s-work', 'fixed'),
      turn('s-judge-2', ACHIEVED),
      turn('s-b', BEQUEST),
    ]);
    const resumed = wake.backend.requests[0];
    expect(resumed?.options.resume).toBe('s-work');
    expect(resumed?.prompt).toContain('Continue where you stopped.');
    expect(resumed?.prompt).toContain("Judge's reason: the date is printed in UTC, not local time");
    expect(resumed?.prompt).toContain('- run date-cli → see a local date');
    wake.backend.assertComplete();
  });

  test('--new moves the lineage, brief, goal and Q&A log into the archive and starts over', async () => {
    const first = await goProcess(
      'build me a date CLI',
      [turn('s-clarify', BRIEF_REPLY), turn('s-goal', goalReply(['run date-cli → see a date']))],
      { clarifyOnly: false, goal: true, bequest: false, rounds: 1 },
    ).catch(() => null);
    expect(first).not.toBeNull();
    writeFileSync(join(notes(), 'qa-log.md'), '# Q&A log\n');
    const brief = readFileSync(join(notes(), 'brief.md'), 'utf8');
    const build = buildStarter('a new thing', { workspace, fresh: true, ...unattended });
    expect(build.waking).toBe(false);
    const archive = join(notes(), 'archive');
    const [folder, ...others] = readdirSync(archive);
    expect(others).toEqual([]);
    expect(folder).toMatch(/^\d{8}-\d{6}$/);
    expect(readdirSync(join(archive, folder ?? '')).sort()).toEqual([
      'brief.md',
      'goal.md',
      'lineage.json',
      'qa-log.md',
    ]);
    expect(readFileSync(join(archive, folder ?? '', 'brief.md'), 'utf8')).toBe(brief);
    expect(existsSync(join(notes(), 'brief.md'))).toBe(false);
    expect(existsSync(join(workspace, 'runs', 'lineage.json'))).toBe(false);
  });

  test('a deleted brief with a new request starts over; a clarification cut short is resumed instead', () => {
    const lineage = join(workspace, 'runs', 'lineage.json');
    // Cut short: only the clarifier ran and no brief was frozen. The next run must resume it, not archive.
    mkdirSync(join(workspace, 'runs'), { recursive: true });
    writeFileSync(lineage, JSON.stringify({ workspace, steps: { clarify: 's-clarify' }, woke: 1 }));
    buildStarter('build me a date CLI', { workspace, ...unattended });
    expect(existsSync(join(notes(), 'archive'))).toBe(false);
    expect(existsSync(lineage)).toBe(true);

    // A finished clarification whose brief the human deleted: the old goal and lineage go to the archive.
    writeFileSync(
      lineage,
      JSON.stringify({ workspace, steps: { clarify: 's-clarify', goal: 's-goal' }, woke: 1 }),
    );
    writeFileSync(join(notes(), 'goal.md'), goalReply(['run date-cli → see a date']));
    const build = buildStarter('a clock instead', { workspace, ...unattended });
    expect(build.waking).toBe(false);
    const [folder] = readdirSync(join(notes(), 'archive'));
    expect(readdirSync(join(notes(), 'archive', folder ?? '')).sort()).toEqual(['goal.md', 'lineage.json']);
    expect(existsSync(lineage)).toBe(false);
  });

  test('throws NOT_A_GIT_REPO for isolate outside a git work tree, before creating anything', () => {
    const error = failure(() => starterFlow('build it', { workspace, isolate: true }));
    expect(isFlowerError(error) && error.code).toBe('NOT_A_GIT_REPO');
    expect((error as Error).message).toContain(workspace);
    expect(existsSync(join(dir, '.flower-ws'))).toBe(false);

    execFileSync('git', ['init', '-q', workspace]);
    const build = buildStarter('build it', { workspace, isolate: true });
    expect(build.workbench.root).toBe(join(dir, '.flower-ws'));
  });

  test('throws EMPTY_REQUEST for an empty request when there is nothing to continue', () => {
    for (const ask of ['', '   \n']) {
      const error = failure(() => starterFlow(ask, { workspace }));
      expect(isFlowerError(error) && error.code).toBe('EMPTY_REQUEST');
    }
    const fresh = failure(() => starterFlow('', { workspace, fresh: true }));
    expect(isFlowerError(fresh) && fresh.code).toBe('EMPTY_REQUEST');
  });

  test('builds only the steps asked for', () => {
    const names = (options: StarterOptions): string[] =>
      starterFlow('build it', { workspace, ...options }).steps.map((s) => s.name);
    expect(names({})).toEqual(['clarify', 'goal', 'work', 'bequest']);
    expect(names({ clarifyOnly: true })).toEqual(['clarify']);
    expect(names({ goal: false, bequest: false })).toEqual(['clarify', 'work']);
    const work = starterFlow('build it', { workspace, rounds: 5 }).steps[2];
    expect(work?.retries).toBe(4);
    expect(starterFlow('build it', { workspace, goal: false }).steps[1]?.gate).toBeNull();
  });
});
