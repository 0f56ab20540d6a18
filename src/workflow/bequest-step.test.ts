import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { BEQUEST_DEGRADED_MARKER } from '../roles/bequest.js';
import { Brief } from '../roles/brief.js';
import { Goal } from '../roles/goal.js';
import { Verdict } from '../roles/verdict.js';
import type { Runtime } from '../runtime/runtime.js';
import { newStepResult } from '../runtime/step-result.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { BRIEF_REPLY, scriptedRuntime } from '../../test/support/go-path.js';
import { bequestStep } from './bequest-step.js';
import { Workflow } from './workflow.js';

let dir: string;
let workspace: string;
const runtimes: Runtime[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-bequest-')));
  workspace = join(dir, 'ws');
});

afterEach(() => {
  for (const rt of runtimes.splice(0)) void rt.close();
  rmSync(dir, { recursive: true, force: true });
});

function runtime(steps: Parameters<typeof scriptedRuntime>[1]) {
  const made = scriptedRuntime(workspace, steps);
  runtimes.push(made.rt);
  return made;
}

const BEQUEST = [
  '## What',
  'date-cli prints today in ISO form.',
  '## Acceptance',
  'Met: prints the date. Unmet: none.',
  '## Workbench',
  'Read .flower/notes first.',
].join('\n');

const context = () => ({
  _brief: Brief.parse(BRIEF_REPLY),
  _goal: new Goal({ statement: 'date-cli works', checks: ['run it → see a date'] }),
  _verdict: new Verdict({ state: 'ACHIEVED', reason: 'saw the date' }),
  _results: { work: { ...newStepResult('work', 0), text: 'All done: bin/date-cli.' } },
});

const claude = (): string => readFileSync(join(workspace, 'CLAUDE.md'), 'utf8');
const agents = (): string => readFileSync(join(workspace, 'AGENTS.md'), 'utf8');

describe('bequestStep', () => {
  test('writes the finishing turn’s bequest into CLAUDE.md and AGENTS.md', async () => {
    const { rt, backend } = runtime([turn('s-bequest', BEQUEST)]);
    const ctx = await new Workflow([bequestStep({ workspace })], { context: context() }).run(rt);
    expect(ctx._failedAt).toBeUndefined();
    expect(claude()).toContain('date-cli prints today in ISO form.');
    expect(claude()).not.toContain(BEQUEST_DEGRADED_MARKER);
    expect(agents()).toBe(claude());
    const request = backend.requests[0];
    expect(request?.options.verbatimPrompts).toBe(true);
    expect(request?.options.allowedTools).toEqual(['Read', 'Glob', 'Grep']);
    expect(request?.prompt).toContain('A CLI that prints the date, for shell scripts.');
    expect(request?.prompt).toContain('- run it → see a date');
    expect(request?.prompt).toContain("The judge's last verdict: ACHIEVED — saw the date");
    expect(request?.prompt).toContain('All done: bin/date-cli.');
    backend.assertComplete();
  });

  test('leaves a degraded bequest, and the run a success, when the reply lacks required sections', async () => {
    const { rt, backend } = runtime([turn('s-bequest', '## What\nSomething.')]);
    const ctx = await new Workflow([bequestStep({ workspace, workbench: '.flower' })], {
      context: context(),
    }).run(rt);
    expect(ctx._failedAt).toBeUndefined();
    expect(claude()).toContain(BEQUEST_DEGRADED_MARKER);
    expect(claude()).toContain('A CLI that prints the date, for shell scripts.');
    expect(claude()).toContain('.flower');
    backend.assertComplete();
  });

  test('leaves a degraded bequest, and the run a success, when the turn fails', async () => {
    const { rt, backend } = runtime([turn('s-bequest', 'ran out', { fail: true })]);
    const ctx = await new Workflow([bequestStep({ workspace })], { context: context() }).run(rt);
    expect(ctx._failedAt).toBeUndefined();
    expect(claude()).toContain(BEQUEST_DEGRADED_MARKER);
    backend.assertComplete();
  });

  test('keeps an earlier complete bequest when a later finishing turn fails', async () => {
    const first = runtime([turn('s-bequest', BEQUEST)]);
    await new Workflow([bequestStep({ workspace })], { context: context() }).run(first.rt);
    const second = runtime([turn('s-bequest-2', 'ran out', { fail: true })]);
    await new Workflow([bequestStep({ workspace })], { context: context() }).run(second.rt);
    expect(claude()).toContain('date-cli prints today in ISO form.');
    expect(claude()).not.toContain(BEQUEST_DEGRADED_MARKER);
  });

  test('does not fail the run when the files cannot be written', async () => {
    mkdirSync(join(workspace, 'CLAUDE.md'), { recursive: true });
    const { rt, backend } = runtime([turn('s-bequest', BEQUEST)]);
    const ctx = await new Workflow([bequestStep({ workspace })], { context: context() }).run(rt);
    expect(ctx._failedAt).toBeUndefined();
    backend.assertComplete();
  });
});
