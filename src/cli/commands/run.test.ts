import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { sdk, SdkLikeBackend, type LikeStep } from '../../../test/support/sdk-like-backend.js';
import { readManifest } from '../../runtime/manifest.js';
import { Resilience } from '../../runtime/resilience.js';
import type { CommandContext } from '../command-context.js';
import { runCli } from '../run-cli.js';

const source = (path: string): string =>
  pathToFileURL(fileURLToPath(new URL(`../../${path}`, import.meta.url))).href;

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-run-')));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  backend: SdkLikeBackend;
  signals: string[];
}

async function flower(argv: string[], steps: LikeStep[] = []): Promise<Outcome> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const backend = new SdkLikeBackend(steps);
  const signals: string[] = [];
  const context: CommandContext = {
    io: {
      stdout,
      stderr,
      stdinIsTty: false,
      env: { PATH: '/usr/bin', HOME: join(dir, 'home'), ANTHROPIC_API_KEY: 'sk-test', NO_COLOR: '1' },
      cwd: dir,
    },
    backend,
    resilience: new Resilience({ enabled: false }),
    signals: {
      pid: 1,
      platform: 'linux',
      on: (signal) => signals.push(`on ${signal}`),
      off: (signal) => signals.push(`off ${signal}`),
      kill: () => undefined,
      exit: () => undefined,
    },
  };
  const code = await runCli(argv, context);
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out.join(''), stderr: err.join(''), backend, signals };
}

/** Writes a workflow module with one step `work` (the real Workflow class) and returns its file name. */
function workflowFile(name = 'flows.mjs', exportLine = 'export const main = () => flow;'): string {
  writeFileSync(
    join(dir, name),
    [
      `import { Workflow } from '${source('workflow/workflow.ts')}';`,
      `import { step } from '${source('workflow/step.ts')}';`,
      `import { agentSpec } from '${source('agent/agent-spec.ts')}';`,
      `const flow = new Workflow([step('work', agentSpec({ name: 'worker', instructions: '' }), 'do the work')]);`,
      exportLine,
    ].join('\n'),
  );
  return name;
}

const done: LikeStep = [
  sdk.init(),
  sdk.text('All done.', { id: 'm1', tokens: 1000 }),
  sdk.result({ total_cost_usd: 0.25 }),
];

describe('flower run', () => {
  test('runs the workflow a function export builds: step header, events, closing line, exit 0', async () => {
    const outcome = await flower(['run', `${workflowFile()}:main`], [done]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stderr).toContain('== work ');
    expect(outcome.stderr).toContain('  All done.');
    expect(outcome.stderr).toContain(`Total cost $0.2500 · manifest ${join(dir, 'runs', 'manifest.json')}`);
    expect(outcome.backend.requests[0]?.prompt).toBe('do the work');
    expect(readManifest(join(dir, 'runs'))).toEqual([expect.objectContaining({ step: 'work', ok: true })]);
    // SIGHUP and SIGTERM rescue the row while the run is on; the handlers are gone afterwards.
    expect(outcome.signals).toEqual(
      expect.arrayContaining(['on SIGHUP', 'on SIGTERM', 'off SIGHUP', 'off SIGTERM']),
    );
  });

  test('uses a Workflow export as it is, and resumes the step session on the next run', async () => {
    const file = workflowFile('flows.mjs', 'export { flow };');
    const first = await flower(['run', `${file}:flow`], [done]);
    expect(first.code, first.stderr).toBe(0);
    const second = await flower(['run', `${file}:flow`], [done]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.backend.requests[0]?.options.resume).toBe('sess-1');
  });

  test('caps the whole run with -b and stops with one budget line and exit 1', async () => {
    const outcome = await flower(
      ['run', '-b', '0.5', `${workflowFile()}:main`],
      [
        [
          sdk.init(),
          sdk.result({
            is_error: true,
            subtype: 'error_max_budget_usd',
            errors: ['Reached maximum budget ($0.5)'],
            total_cost_usd: 0.5,
          }),
        ],
      ],
    );
    expect(outcome.backend.requests[0]?.options.maxBudgetUsd).toBe(0.5);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('Run budget $0.50 used up ($0.5000 spent in this run)');
    expect(outcome.stderr).not.toContain('! error_max_budget_usd');
    expect(outcome.stderr).toContain("Stopped: the 'work' step did not finish");
  });

  test('explains a failed step and exits 1', async () => {
    const outcome = await flower(
      ['run', `${workflowFile()}:main`],
      [[sdk.init(), ...sdk.apiFailure('Invalid API key · Fix external API key', 'sess-1', 401)]],
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('Looks like a credential problem');
    expect(outcome.stderr).toContain("Stopped: the 'work' step did not finish");
  });

  test('from a pipe, a workflow whose channel waits is warned with advice run can follow (no --timeout)', async () => {
    const channelled = (timeoutS: number): string =>
      workflowFile(
        `flows-${timeoutS}.mjs`,
        [
          `import { HumanChannel } from '${source('human/human-channel.ts')}';`,
          `export const main = () => new Workflow(flow.steps, { channel: new HumanChannel({ timeoutS: ${timeoutS} }) });`,
        ].join('\n'),
      );
    const waiting = await flower(['run', `${channelled(1800)}:main`], [done]);
    expect(waiting.code, waiting.stderr).toBe(0);
    expect(waiting.stderr).toContain(
      "nobody can answer this workflow's questions: each waits out its channel's timeout. Give the channel " +
        'timeoutS: 0 (new HumanChannel({ timeoutS: 0 }))',
    );
    expect(waiting.stderr).not.toContain('--timeout');
    const unattended = await flower(['run', `${channelled(0)}:main`], [done]);
    expect(unattended.code, unattended.stderr).toBe(0);
    expect(unattended.stderr).not.toContain('nobody can answer');
  });

  test('names each kind of bad target in one line, exit 1, before any agent call', async () => {
    workflowFile();
    writeFileSync(
      join(dir, 'other.mjs'),
      'export const notAFlow = 42;\nexport const broken = () => { throw new Error("no flow today"); };\n',
    );
    writeFileSync(join(dir, 'bad.mjs'), 'export const = ;\n');
    const cases: Array<[string, string]> = [
      ['flows.mjs', 'Expected module:export, e.g. ./flows.js:main'],
      ['missing.mjs:main', 'Cannot find missing.mjs'],
      ['flows.mjs:nope', "'flows.mjs' has no export 'nope'. Its exports: main."],
      ['flows.mjs:mian', "'flows.mjs' has no export 'mian'. Did you mean 'main'? Its exports: main."],
      ['other.mjs:brokne', "Did you mean 'broken'? Its exports: broken, notAFlow."],
      ['other.mjs:notAFlow', "'other.mjs:notAFlow' is not a Workflow"],
      ['other.mjs:broken', "Failed to import 'other.mjs:broken': Error: no flow today"],
      // Under vitest the parse error comes from its bundler; under node it is a SyntaxError.
      ['bad.mjs:main', "Failed to import 'bad.mjs': "],
      ['no-such-package:main', "Failed to import 'no-such-package'"],
    ];
    for (const [target, message] of cases) {
      const outcome = await flower(['run', target]);
      expect(outcome.code, target).toBe(1);
      expect(outcome.stderr, target).toContain(message);
      expect(outcome.stderr.trim().split('\n'), target).toHaveLength(1);
      expect(outcome.backend.requests).toEqual([]);
    }
  });
});
