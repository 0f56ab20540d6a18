// Honest work through the built CLI (docs/goal-checks.md), with the real SDK and Claude Code binary against
// the fake Messages API: the judge sets a goal with a machine check, the coder writes sum.js, flower's check
// is green on the round and red on the base, so the run ends ACHIEVED; `flower verify` then exits 0 with no
// model; a broken sum.js makes it exit 1 and mark the verdict stale, and the next `flower` says so.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { BEQUEST_REPLY } from '../../src/demo/demo-replies.js';
import { systemText } from '../../src/demo/demo-conversation.js';
import { Brief } from '../../src/roles/brief.js';
import { setGoalInstructions, verdictInstructions } from '../../src/roles/judge.js';
import { readManifest } from '../../src/runtime/manifest.js';
import {
  MAIN_THREAD,
  message,
  text,
  toolUse,
  type FakeRequest,
  type FakeResponse,
} from '../../src/testing/index.js';
import { flowerCli, type FlowerCli } from './support/flower-cli.js';
import { firstUserText } from './support/tool-results.js';

let cli: FlowerCli | null = null;
afterEach(async () => {
  await cli?.close();
  cli = null;
});

const GOAL_REPLY = [
  '## Goal',
  'sum.js adds two numbers given on the command line.',
  '',
  '## Checklist',
  '- `node sum.js 2 3` prints 5',
  '  ```check',
  '  run: node sum.js 2 3',
  '  stdout: ^5$',
  '  timeout: 20',
  '  ```',
].join('\n');

const SUM = 'console.log(Number(process.argv[2]) + Number(process.argv[3]))';

/** True when the conversation's last message carries a tool result: the model answers with its report. */
function afterTool(request: FakeRequest): boolean {
  return JSON.stringify(request.body.messages?.at(-1) ?? '').includes('tool_result');
}

/** Every role of the go path, decided from the request alone. */
function model(request: FakeRequest): FakeResponse {
  if (request.thread !== MAIN_THREAD) {
    return afterTool(request)
      ? message([text('sum.js written.')])
      : message([
          toolUse(
            'Bash',
            { command: `printf '%s\\n' '${SUM}' > sum.js`, description: 'write sum.js' },
            'toolu_write',
          ),
        ]);
  }
  const first = firstUserText(request);
  if (first.includes(setGoalInstructions())) return message([text(GOAL_REPLY)]);
  if (first.includes(verdictInstructions())) {
    return message([text('## Conclusion\nACHIEVED\n\n## Reason\nRan it: 5.\n\n## Failed\n(none)')]);
  }
  if (first.includes('The run is over. Write its bequest')) return message([text(BEQUEST_REPLY)]);
  if (systemText(request.body).includes('# Your role: coordinator')) {
    return afterTool(request)
      ? message([text('Done: the coder wrote sum.js.')])
      : message([
          toolUse(
            'Agent',
            { description: 'write sum.js', prompt: 'Write sum.js.', subagent_type: 'coder' },
            'toolu_coder',
          ),
        ]);
  }
  return message([text('ok')]);
}

describe('flower verify after honest work (e2e)', () => {
  test('ACHIEVED on green-on-round, red-on-base; verify exits 0; broken, it exits 1 and the next wake says the verdict is stale', async () => {
    cli = await flowerCli(model);
    const { run, scratch } = cli;
    const notes = join(scratch.workspace, '.flower', 'notes');
    mkdirSync(notes, { recursive: true });
    writeFileSync(
      join(notes, 'brief.md'),
      new Brief({
        goal: 'sum.js adds two numbers.',
        accept: '`node sum.js 2 3` prints 5.',
        bounds: 'Node only.',
        unknowns: 'None.',
      }).toMarkdown(),
    );

    const went = await run(['go', '--timeout', '0', 'write sum.js']);

    expect(went.exitCode, went.stderr).toBe(0);
    const rows = readManifest(join(scratch.workspace, 'runs'));
    const verdict = rows.find((row) => row.step === 'work/verdict#1');
    expect(verdict?.checks).toMatchObject({
      judge: 'ACHIEVED',
      result: 'ACHIEVED',
      summary: '1 of 1 item verified here',
      items: [{ passes_on_round: true, passes_on_base: false }],
    });
    expect(went.stderr).toContain('(1 of 1 item verified here)');

    const json = await run(['verify', '--json']);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ passed: true, summary: '1 of 1 item verified here' });

    writeFileSync(join(scratch.workspace, 'sum.js'), 'console.log(6)\n');
    const broken = await run(['verify']);
    expect(broken.exitCode).toBe(1);
    expect(broken.stdout).toMatch(/^item +check +result +time$/m);
    expect(broken.stdout).toMatch(/^`node sum\.js 2 3` prints 5 +node sum\.js 2 3 +FAIL +\d+\.\d s$/m);
    expect(broken.stdout).toContain('marked stale');
    const stale = readManifest(join(scratch.workspace, 'runs')).find((row) => row.step === 'work/verdict#1');
    expect(stale?.checks?.stale?.failed).toEqual(['`node sum.js 2 3` prints 5']);

    const woke = await run(['go', '--clarify-only', '--timeout', '0'], { input: '\n' });
    expect(woke.stderr).toMatch(
      /The last verdict, ACHIEVED, is stale: a later `flower verify` failed \("`node sum\.js 2 3` prints 5"\)/,
    );
  });
});
