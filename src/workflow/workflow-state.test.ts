// The framework's typed state in a workflow's context: its language comes from the runtime's configuration
// (not the process environment), the run fills in its channel and workbench, and the brief, goal and verdict
// are typed so their readers need no instanceof (checked by tsc: this file is in tsconfig.json).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, expectTypeOf, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import { uiText, type Lang } from '../config/ui-text.js';
import { isFlowerError } from '../errors.js';
import { HumanChannel } from '../human/human-channel.js';
import type { Brief } from '../roles/brief.js';
import { Goal } from '../roles/goal.js';
import type { Verdict } from '../roles/verdict.js';
import { Runtime } from '../runtime/runtime.js';
import { ScriptedBackend, type ScriptedStep } from '../testing/scripted-backend.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { Workbench } from '../workbench/workbench.js';
import { verdictReply } from '../../test/support/go-path.js';
import type { RuntimeLike } from './runtime-like.js';
import { step, type Ctx } from './step.js';
import { withGoal } from './with-goal.js';
import { Workflow } from './workflow.js';

let dir: string;
const runtimes: Runtime[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-workflow-state-')));
});

afterEach(() => {
  for (const rt of runtimes.splice(0)) void rt.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A real Runtime on the scripted backend whose configuration says `lang` (the process says English). */
function runtime(lang: Lang, steps: ScriptedStep[]): { rt: Runtime; backend: ScriptedBackend } {
  const backend = new ScriptedBackend(steps);
  const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' }, lang };
  const rt = new Runtime({ workspace: join(dir, 'ws'), config, backend, resilience: false });
  runtimes.push(rt);
  return { rt, backend };
}

const worker = agentSpec({ name: 'worker', instructions: 'work' });

describe('workflow language', () => {
  test('a runtime configured for Chinese gets Chinese workflow errors', async () => {
    const { rt, backend } = runtime('zh', []);
    const flow = new Workflow([
      step('a', worker, 'skipped', { when: () => false }),
      step('b', worker, 'go', { resumeFrom: 'a' }),
    ]);
    const error = await flow.run(rt).catch((caught: unknown) => caught);
    expect(isFlowerError(error) && error.code).toBe('MISSING_SESSION');
    expect((error as Error).message).toBe(uiText('step.noResumeSource', { step: 'b', from: 'a' }, 'zh'));
    expect(uiText('step.noResumeSource', { step: 'b', from: 'a' }, 'zh')).not.toBe(
      uiText('step.noResumeSource', { step: 'b', from: 'a' }, 'en'),
    );
    backend.assertComplete();
  });

  test('a runtime configured for Chinese gets the judge’s abort reason in Chinese', async () => {
    const notes = join(dir, 'ws', '.flower', 'notes');
    const goalPath = join(notes, 'goal.md');
    mkdirSync(notes, { recursive: true });
    writeFileSync(goalPath, new Goal({ statement: 'clock works.', checks: ['run clock'] }).toMarkdown());
    const unreachable = verdictReply('UNREACHABLE', 'needs a real iPhone');
    const { rt, backend } = runtime('zh', [turn('s-work', 'done'), turn('s-judge', unreachable)]);
    const work = step('work', worker, 'build it', { verbatim: true });
    const channel = new HumanChannel({ timeoutS: 0 });
    const ctx = await new Workflow([withGoal(work, channel, { goalPath })]).run(rt);
    const manifest = join(rt.runDir, 'manifest.json');
    const vars = { reason: 'needs a real iPhone', goal: goalPath, manifest };
    expect(ctx._lang).toBe('zh');
    expect(ctx._aborted).toBe(uiText('verdict.aborted', vars, 'zh'));
    backend.assertComplete();
  });

  test('sets the typed state at the start of each run: language, channel and workbench', async () => {
    const { rt, backend } = runtime('en', [turn('s1', 'ok')]);
    const channel = new HumanChannel({ timeoutS: 0 });
    const workbench = new Workbench(join(dir, 'bench'));
    let seen: Ctx = {};
    const flow = new Workflow(
      [step('work', worker, 'go', { gate: (_result, ctx) => ((seen = { ...ctx }), true) })],
      {
        channel,
        workbench,
      },
    );
    await flow.run(rt);
    expect(seen._lang).toBe('en');
    expect(seen._channel).toBe(channel);
    expect(seen._workbench).toBe(workbench);
    backend.assertComplete();
  });

  test('speaks English on a runtime that names no language', async () => {
    const rt: RuntimeLike = { onSession: null, run: () => Promise.reject(new Error('not run')) };
    const flow = new Workflow([
      step('a', worker, 'skipped', { when: () => false }),
      step('b', worker, 'go', { resumeFrom: 'a' }),
    ]);
    const error = await flow.run(rt).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(uiText('step.noResumeSource', { step: 'b', from: 'a' }, 'en'));
    expect(flow.context._lang).toBe('en');
  });
});

describe('typed workflow state', () => {
  test('brief, goal, verdict, channel and workbench are typed where they are read', () => {
    const ctx: Ctx = {};
    expectTypeOf(ctx._brief).toEqualTypeOf<Brief | undefined>();
    expectTypeOf(ctx._goal).toEqualTypeOf<Goal | undefined>();
    expectTypeOf(ctx._verdict).toEqualTypeOf<Verdict | undefined>();
    expectTypeOf(ctx._lang).toEqualTypeOf<Lang | undefined>();
    expectTypeOf(ctx._channel).toEqualTypeOf<HumanChannel | null | undefined>();
    expectTypeOf(ctx._workbench).toEqualTypeOf<Workbench | null | undefined>();
    expectTypeOf<Workflow['channel']>().toEqualTypeOf<HumanChannel | null>();
    expectTypeOf<Workflow['workbench']>().toEqualTypeOf<Workbench | null>();
    // A user value stays unknown: it must be checked before use.
    expectTypeOf(ctx['work']).toEqualTypeOf<unknown>();
    // Read without a cast or instanceof.
    ctx._goal = new Goal({ statement: 'clock works.', checks: ['run clock'] });
    expect(ctx._goal.checks).toEqual(['run clock']);
  });
});
