import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { agentSpec } from '../agent/agent-spec.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { HumanChannel } from '../human/human-channel.js';
import { Brief } from '../roles/brief.js';
import type { Runtime } from '../runtime/runtime.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { BRIEF_REPLY, scriptedRuntime } from '../../test/support/go-path.js';
import { CLARIFY_RESUME_PROMPT, clarifyStep } from './clarify-step.js';
import { step } from './step.js';
import { Workflow } from './workflow.js';

let dir: string;
let briefPath: string;
const runtimes: Runtime[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-clarify-')));
  briefPath = join(dir, 'ws', '.flower', 'notes', 'brief.md');
});

afterEach(() => {
  for (const rt of runtimes.splice(0)) void rt.close();
  rmSync(dir, { recursive: true, force: true });
});

function runtime(steps: Parameters<typeof scriptedRuntime>[1]) {
  const made = scriptedRuntime(join(dir, 'ws'), steps);
  runtimes.push(made.rt);
  return made;
}

const echo = agentSpec({ name: 'worker', instructions: 'work' });
const channel = (): HumanChannel => new HumanChannel({ timeoutS: 0 });

describe('clarifyStep', () => {
  test('freezes a complete brief, fills the context and sends the request verbatim', async () => {
    const { rt, backend } = runtime([turn('s-clarify', BRIEF_REPLY), turn('s-next', 'ok')]);
    const flow = new Workflow([
      clarifyStep(channel(), { briefPath, prompt: '/build me a date CLI' }),
      step('next', echo, (ctx) => `brief was: ${String(ctx['clarify'])}`),
    ]);
    const ctx = await flow.run(rt);
    expect(ctx._failedAt).toBeUndefined();
    const frozen = Brief.load(briefPath);
    expect(frozen?.complete()).toBe(true);
    expect(ctx._brief).toBeInstanceOf(Brief);
    expect(ctx['clarify']).toBe(frozen?.promptBlock());
    expect(backend.requests[0]?.prompt).toContain('/build me a date CLI');
    expect(backend.requests[0]?.options.verbatimPrompts).toBe(true);
    expect(backend.requests[1]?.prompt).toBe(`brief was: ${frozen?.promptBlock() ?? ''}`);
    backend.assertComplete();
  });

  test('skips when the brief file is complete, and still fills the context for later steps', async () => {
    mkdirSync(join(dir, 'ws', '.flower', 'notes'), { recursive: true });
    writeFileSync(briefPath, Brief.parse(BRIEF_REPLY).toMarkdown());
    const { rt, backend } = runtime([turn('s-next', 'ok')]);
    const ctx = await new Workflow([
      clarifyStep(channel(), { briefPath, prompt: 'build me a date CLI' }),
      step('next', echo, (c) => String(c['clarify'])),
    ]).run(rt);
    expect(backend.requests.map((request) => request.prompt)).toEqual([
      Brief.parse(BRIEF_REPLY).promptBlock(),
    ]);
    expect(ctx._brief).toBeInstanceOf(Brief);
    expect(ctx._results?.['clarify']).toBeUndefined();
    backend.assertComplete();
  });

  test('asks again with alwaysAsk even when the brief is complete', async () => {
    mkdirSync(join(dir, 'ws', '.flower', 'notes'), { recursive: true });
    writeFileSync(briefPath, Brief.parse(BRIEF_REPLY).toMarkdown());
    const { rt, backend } = runtime([
      turn('s-clarify', BRIEF_REPLY.replace('No network access.', 'No GUI.')),
    ]);
    await new Workflow([clarifyStep(channel(), { briefPath, prompt: 'again', alwaysAsk: true })]).run(rt);
    expect(Brief.load(briefPath)?.bounds).toBe('No GUI.');
    backend.assertComplete();
  });

  test('rejects an incomplete brief, writes nothing and names the missing sections', async () => {
    const { rt, backend } = runtime([
      turn('s-clarify', '## Goal\nA date CLI.\n## Acceptance criteria\n- run it'),
    ]);
    const ctx = await new Workflow([
      clarifyStep(channel(), { briefPath, prompt: 'build me a date CLI' }),
    ]).run(rt);
    expect(ctx._failedAt).toBe('clarify');
    expect(ctx._briefMissing).toEqual(['Boundaries', 'Unknowns and assumptions']);
    expect(existsSync(briefPath)).toBe(false);
    expect(ctx['clarify']).toBeUndefined();
    backend.assertComplete();
  });

  test('does not take fake headings in pasted code for a brief', async () => {
    const pasted = ['Here is the code I would write:', '```markdown', BRIEF_REPLY, '```'].join('\n');
    const { rt, backend } = runtime([turn('s-clarify', pasted)]);
    const ctx = await new Workflow([
      clarifyStep(channel(), { briefPath, prompt: 'build me a date CLI' }),
    ]).run(rt);
    expect(ctx._failedAt).toBe('clarify');
    expect(ctx._briefMissing).toEqual([
      'Goal',
      'Acceptance criteria',
      'Boundaries',
      'Unknowns and assumptions',
    ]);
    expect(existsSync(briefPath)).toBe(false);
    backend.assertComplete();
  });

  test('keeps words a human appended to the brief file while the clarifier was asking', async () => {
    const during = new HumanChannel({ timeoutS: 0, amendPath: briefPath });
    during.send('Also print the week number.');
    const { rt, backend } = runtime([turn('s-clarify', BRIEF_REPLY)]);
    await new Workflow([clarifyStep(during, { briefPath, prompt: 'build me a date CLI' })]).run(rt);
    const text = readFileSync(briefPath, 'utf8');
    expect(text).toContain('## Goal');
    expect(text).toMatch(/## Added during the run \(\d\d:\d\d:\d\d\)\n\nAlso print the week number\./);
    expect(Brief.load(briefPath)?.promptBlock()).toContain('Also print the week number.');
    backend.assertComplete();
  });

  test('warns when a turn cap would silently cap unlimited questions, and not otherwise', async () => {
    const capped = runtime([turn('s-1', BRIEF_REPLY)]);
    const events: FlowerEvent[] = [];
    await new Workflow([clarifyStep(channel(), { briefPath, prompt: 'x', maxTurns: 8 })]).run(capped.rt, {
      onEvent: (event) => events.push(event),
    });
    const warnings = events.filter((event) => event.kind === 'warning');
    expect(warnings.map((event) => event.kind === 'warning' && event.code)).toEqual(['clarifier_max_turns']);
    expect(warnings[0]?.text).toContain('8 turns');

    rmSync(briefPath);
    const open = runtime([turn('s-2', BRIEF_REPLY)]);
    const quiet: FlowerEvent[] = [];
    await new Workflow([clarifyStep(channel(), { briefPath, prompt: 'x' })]).run(open.rt, {
      onEvent: (event) => quiet.push(event),
    });
    expect(quiet.filter((event) => event.kind === 'warning')).toEqual([]);
  });

  test('resumes an interrupted clarification with the continue prompt, not the request', async () => {
    const first = runtime([turn('s-clarify', 'Which time zone?')]);
    await new Workflow([clarifyStep(channel(), { briefPath, prompt: 'build me a date CLI' })]).run(first.rt);
    const second = runtime([turn('s-clarify', BRIEF_REPLY)]);
    await new Workflow([clarifyStep(channel(), { briefPath, prompt: 'build me a date CLI' })]).run(second.rt);
    expect(second.backend.requests.map((request) => [request.prompt, request.options.resume])).toEqual([
      [CLARIFY_RESUME_PROMPT, 's-clarify'],
    ]);
    expect(Brief.load(briefPath)?.complete()).toBe(true);
  });
});
