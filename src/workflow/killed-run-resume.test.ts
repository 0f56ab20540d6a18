// Running the same command again after a kill goes on as if nothing had happened: docs/decisions.md D332
// (the request is no new remark) and docs/decisions.md D333 (a round cut off is picked up there). A SIGKILL
// leaves the row of the step it cut off unfinished; here that row is made by hand from a finished run's.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MANIFEST_FILE, readManifest } from '../runtime/manifest.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ScriptedStep } from '../testing/scripted-backend.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { BRIEF_REPLY, goalReply, scriptedRuntime, verdictReply } from '../../test/support/go-path.js';
import { buildStarter, type StarterOptions } from './starter-flow.js';
import { interruptedRound, roundOf } from './interrupted-round.js';

let dir: string;
let workspace: string;
const runtimes: Runtime[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-killed-')));
  workspace = join(dir, 'ws');
  mkdirSync(workspace);
});

afterEach(() => {
  for (const rt of runtimes.splice(0)) void rt.close();
  rmSync(dir, { recursive: true, force: true });
});

const REQUEST = 'build me a date CLI';
const BEQUEST = '## What\ndate-cli prints the date.\n## Workbench\nRead .flower/notes first.';
const ACHIEVED = verdictReply('ACHIEVED', 'ran it and saw the date');
const NOT_YET = verdictReply('NOT_YET', 'no binary was built', ['run date-cli → see a date']);

async function goProcess(steps: ScriptedStep[], options: StarterOptions = {}) {
  const build = buildStarter(REQUEST, { workspace, timeoutS: 0, ...options });
  const { rt, backend } = scriptedRuntime(workspace, steps, { workbench: build.workbench });
  runtimes.push(rt);
  const ctx = await build.workflow.run(rt);
  return { build, rt, backend, ctx };
}

/** Makes the manifest row of `step` (the last one) look as a SIGKILL left it: unfinished, ended_at 0. */
function cutOff(runDir: string, step: string): void {
  const path = join(runDir, MANIFEST_FILE);
  const rows = JSON.parse(readFileSync(path, 'utf8')) as Array<Record<string, unknown>>;
  const row = rows.findLast((candidate) => candidate['step'] === step);
  if (row === undefined) throw new Error(`no row ${step}`);
  Object.assign(row, { ok: false, error: null, ended_at: 0, text: '' });
  writeFileSync(path, JSON.stringify(rows));
}

const brief = (): string => readFileSync(join(workspace, '.flower', 'notes', 'brief.md'), 'utf8');

describe('the same command run again after a kill', () => {
  test('the original request is no new remark: nothing is added to the brief, the goal is not set again', async () => {
    await goProcess([
      turn('s-clarify', BRIEF_REPLY),
      turn('s-goal', goalReply(['run date-cli → see a date'])),
      turn('s-work', 'halfway', { fail: true }),
    ]);
    const again = await goProcess([turn('s-work', 'done'), turn('s-judge', ACHIEVED), turn('s-b', BEQUEST)]);
    expect(again.build.waking).toBe(true);
    expect(again.build.amended).toBe(false);
    expect(brief()).not.toContain('Added on wake');
    expect(again.backend.requests[0]?.options.resume).toBe('s-work');
    expect(again.backend.requests[0]?.prompt).not.toContain(REQUEST);
    again.backend.assertComplete();
  });

  test('a round cut off is picked up under its own label, with the feedback of the verdict before it', async () => {
    const first = await goProcess(
      [
        turn('s-clarify', BRIEF_REPLY),
        turn('s-goal', goalReply(['run date-cli → see a date'])),
        turn('s-work', 'done'),
        turn('s-judge-1', NOT_YET),
        // Failed here so that the run stops in round 2, where the kill is then put.
        turn('s-work', 'building the binary', { fail: true }),
      ],
      { rounds: 2 },
    );
    cutOff(first.rt.runDir, 'work#round2');
    const again = await goProcess([
      turn('s-work', 'built the binary'),
      turn('s-judge-3', ACHIEVED),
      turn('s-b', BEQUEST),
    ]);
    expect(again.ctx._failedAt).toBeUndefined();
    const [work] = again.backend.requests;
    expect(work?.options.resume).toBe('s-work');
    expect(work?.prompt).toContain('no binary was built');
    expect(
      readManifest(again.rt.runDir)
        .filter((row) => row.run === again.rt.runId)
        .map((row) => row.step),
    ).toEqual(['work#round2', 'work/verdict#2', 'bequest']);
    again.backend.assertComplete();
  });

  test('a finished round whose judge was cut off is judged, not worked again', async () => {
    const first = await goProcess(
      [
        turn('s-clarify', BRIEF_REPLY),
        turn('s-goal', goalReply(['run date-cli → see a date'])),
        turn('s-work', 'done, the binary prints the date'),
        turn('s-judge-1', NOT_YET),
      ],
      { rounds: 1 },
    );
    cutOff(first.rt.runDir, 'work/verdict#1');
    const again = await goProcess([turn('s-judge-2', ACHIEVED), turn('s-b', BEQUEST)]);
    expect(again.ctx._failedAt).toBeUndefined();
    const [judge] = again.backend.requests;
    expect(judge?.options.resume).toBeUndefined();
    expect(judge?.prompt).toContain('done, the binary prints the date');
    expect(
      readManifest(again.rt.runDir)
        .filter((row) => row.run === again.rt.runId)
        .map((row) => row.step),
    ).toEqual(['work/verdict#1', 'bequest']);
    again.backend.assertComplete();
  });
});

describe('a run killed in its bequest', () => {
  test('is finished by the bequest alone, told the verdict and the last report', async () => {
    const first = await goProcess([
      turn('s-clarify', BRIEF_REPLY),
      turn('s-goal', goalReply(['run date-cli → see a date'])),
      turn('s-work', 'done, the binary prints the date'),
      turn('s-judge-1', ACHIEVED),
      turn('s-b', BEQUEST),
    ]);
    cutOff(first.rt.runDir, 'bequest');
    const again = await goProcess([turn('s-b2', BEQUEST)]);
    expect(again.ctx._failedAt).toBeUndefined();
    expect(again.backend.requests).toHaveLength(1);
    const [bequest] = again.backend.requests;
    expect(bequest?.prompt).toContain('The run is over');
    expect(bequest?.prompt).toContain('ran it and saw the date');
    expect(bequest?.prompt).toContain('done, the binary prints the date');
    again.backend.assertComplete();
  });

  test('with a new remark, wakes the work as before', async () => {
    const first = await goProcess([
      turn('s-clarify', BRIEF_REPLY),
      turn('s-goal', goalReply(['run date-cli → see a date'])),
      turn('s-work', 'done'),
      turn('s-judge-1', ACHIEVED),
      turn('s-b', BEQUEST),
    ]);
    cutOff(first.rt.runDir, 'bequest');
    const build = buildStarter('Also print the week number.', { workspace, timeoutS: 0 });
    const { rt, backend } = scriptedRuntime(
      workspace,
      [
        turn('s-goal-2', goalReply(['run date-cli → see the week'])),
        turn('s-work', 'added the week'),
        turn('s-judge-2', ACHIEVED),
        turn('s-b2', BEQUEST),
      ],
      { workbench: build.workbench },
    );
    runtimes.push(rt);
    await build.workflow.run(rt);
    expect(backend.requests[1]?.options.resume).toBe('s-work');
    backend.assertComplete();
  });
});

describe('interruptedRound', () => {
  test('names the round of each label of a step, and nothing of another step', () => {
    expect(roundOf('work', 'work')).toBe(1);
    expect(roundOf('work#round3', 'work')).toBe(3);
    expect(roundOf('work/verdict#2', 'work')).toBe(2);
    expect(roundOf('work/checks#1', 'work')).toBe(1);
    expect(roundOf('worker', 'work')).toBeNull();
    expect(roundOf('goal', 'work')).toBeNull();
  });

  test('is null for a step whose last row ended', () => {
    const runDir = join(dir, 'runs');
    mkdirSync(runDir);
    const row = (step: string, ok: boolean, endedAt: number) => ({
      step,
      ok,
      ended_at: endedAt,
      error: null,
    });
    writeFileSync(
      join(runDir, MANIFEST_FILE),
      JSON.stringify([row('work', true, 5), row('work/verdict#1', true, 6)]),
    );
    expect(interruptedRound(runDir, 'work')).toBeNull();
    writeFileSync(
      join(runDir, MANIFEST_FILE),
      JSON.stringify([row('work', true, 5), row('work/verdict#1', false, 0)]),
    );
    expect(interruptedRound(runDir, 'work')?.round).toBe(1);
    expect(interruptedRound(runDir, 'work')?.finished?.step).toBe('work');
    writeFileSync(
      join(runDir, MANIFEST_FILE),
      JSON.stringify([row('work', false, 5), row('work/verdict#1', false, 0)]),
    );
    // The round itself failed: there is nothing to judge again.
    expect(interruptedRound(runDir, 'work')).toBeNull();
  });
});
