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
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AgentBackend } from '../../agent/agent-backend.js';
import { sdk, SdkLikeBackend } from '../../../test/support/sdk-like-backend.js';
import { EventLog } from '../../runtime/event-log.js';
import { readManifest } from '../../runtime/manifest.js';
import { ScriptedBackend } from '../../testing/scripted-backend.js';
import { scriptedTurn } from '../../testing/scripted-turn.js';
import { existingWorkbench, recentLines } from './ask.js';
import { startCli, type Outcome } from '../../../test/support/cli-session.js';

const source = (path: string): string =>
  pathToFileURL(fileURLToPath(new URL(`../../${path}`, import.meta.url))).href;

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-ask-')));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function flower(
  argv: string[],
  backend: AgentBackend,
  env: Record<string, string> = {},
): Promise<Outcome> {
  return startCli(dir, argv, { backend, env, input: '' }).done;
}

function textEvent(text: string, kind: 'text' | 'thinking' = 'text') {
  return { kind, text, at: Date.now() / 1000, step: 'work', subagent: false, parentToolUseId: null };
}

describe('flower ask', () => {
  test('answers from the events of the run in progress; the answer goes to stdout', async () => {
    const log = new EventLog(join(dir, 'runs'));
    log.sink(textEvent('Refactoring the parser into three files.'));
    log.sink(textEvent('thinking about the lexer', 'thinking'));
    const backend = new ScriptedBackend([
      scriptedTurn('aside-1', 'It is splitting the parser.', { costUsd: 0.04 }),
    ]);

    const outcome = await flower(['ask', 'what is it doing?'], backend);
    log.close();

    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toBe('It is splitting the parser.\n');
    expect(outcome.stderr).toBe(
      '# Aside · the oracle answers\n($0.0400, the running job was not disturbed)\n',
    );
    const prompt = backend.requests[0]?.prompt ?? '';
    expect(prompt).toContain('what is it doing?');
    expect(prompt).toContain('[text·main] Refactoring the parser into three files.');
    expect(prompt).not.toContain('thinking about the lexer');
    expect(readManifest(join(dir, 'runs', 'aside'))).toEqual([
      expect.objectContaining({ step: 'aside', ok: true }),
    ]);
    expect(readManifest(join(dir, 'runs'))).toEqual([]);
  });

  test('reads the log of a finished `flower run`, says no run is in progress, and leaves the run untouched', async () => {
    writeFileSync(
      join(dir, 'flows.mjs'),
      [
        `import { Workflow } from '${source('workflow/workflow.ts')}';`,
        `import { step } from '${source('workflow/step.ts')}';`,
        `import { agentSpec } from '${source('agent/agent-spec.ts')}';`,
        `export const main = () => new Workflow([step('work', agentSpec({ name: 'worker', instructions: '' }), 'do the work')]);`,
      ].join('\n'),
    );
    const run = await flower(
      ['run', 'flows.mjs:main'],
      new SdkLikeBackend([
        [sdk.init(), sdk.text('Made the three files.', { id: 'm1' }), sdk.result({ total_cost_usd: 0.25 })],
      ]),
    );
    expect(run.code, run.stderr).toBe(0);
    const logText = readFileSync(join(dir, 'runs', 'events.jsonl'), 'utf8');
    expect(logText).toContain('"kind":"step"');
    expect(logText.trim().split('\n').at(-1)).toMatch(/^\{"log":"close"/);
    const rowsBefore = readManifest(join(dir, 'runs'));

    const backend = new ScriptedBackend([scriptedTurn('aside-1', 'It finished.')]);
    const outcome = await flower(['ask', 'did it finish?'], backend);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stderr.split('\n')[0]).toBe(
      '(no run is in progress here; answering from the last events of the run that ended)',
    );
    expect(backend.requests[0]?.prompt).toContain('[text·main] Made the three files.');
    expect(readManifest(join(dir, 'runs'))).toEqual(rowsBefore);
    expect(readFileSync(join(dir, 'runs', 'events.jsonl'), 'utf8')).toBe(logText);
  });

  test('exits 1 with one line when no run has been recorded here, creating nothing and asking nobody', async () => {
    const backend = new ScriptedBackend([]);
    const outcome = await flower(['ask', 'what is it doing?'], backend);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
    expect(outcome.stderr).toContain(
      `No run has been recorded here (${join(dir, 'runs', 'events.jsonl')} does not exist)`,
    );
    expect(outcome.stderr).toContain('Start one with flower "…"');
    expect(backend.requests).toEqual([]);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  test('finds the run with -w and -r on either side of the command', async () => {
    new EventLog(join(dir, 'elsewhere')).sink(textEvent('over there'));
    const backend = new ScriptedBackend([scriptedTurn('aside-1', 'yes'), scriptedTurn('aside-2', 'yes')]);
    mkdirSync(join(dir, 'project'));
    const first = await flower(['-w', 'project', 'ask', 'there?', '-r', 'elsewhere'], backend);
    expect(first.code, first.stderr).toBe(0);
    expect(backend.requests[0]?.prompt).toContain('[text·main] over there');
    expect(backend.requests[0]?.options.cwd).toBe(join(dir, 'project'));
    const second = await flower(['-w', 'project', 'ask', 'there?'], backend);
    expect(second.code).toBe(1);
  });

  test('prints the failure line and exits 1 when the oracle fails', async () => {
    new EventLog(join(dir, 'runs')).sink(textEvent('busy'));
    const backend = new ScriptedBackend([scriptedTurn('aside-1', '', { fail: true })]);
    const outcome = await flower(['ask', 'why?'], backend);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain('# Aside failed: error_max_turns: Reached maximum number of turns (3)');
  });

  test('refuses an empty question and a missing one', async () => {
    const empty = await flower(['ask', '  '], new ScriptedBackend([]));
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe('The question is empty. Ask one, e.g. flower ask "what is it doing?"\n');
    const missing = await flower(['ask'], new ScriptedBackend([]));
    expect(missing.code).toBe(2);
  });
});

describe('recentLines', () => {
  test('keeps the last sixty window lines even when thinking crowds the log', () => {
    const log = new EventLog(dir);
    for (let index = 0; index < 100; index++) {
      log.sink(textEvent(`said ${index}`));
      log.sink(textEvent(`thought ${index}`, 'thinking'));
    }
    const lines = recentLines(dir);
    expect(lines).toHaveLength(60);
    expect(lines[0]).toBe('[text·main] said 40');
    expect(lines.at(-1)).toBe('[text·main] said 99');
  });
});

describe('existingWorkbench', () => {
  test('finds the workspace workbench, the isolated one, or the run directory one; never creates one', () => {
    const workspace = join(dir, 'app');
    const runDir = join(workspace, 'runs');
    mkdirSync(runDir, { recursive: true });
    expect(existingWorkbench(workspace, runDir, false)).toBeNull();
    mkdirSync(join(runDir, 'workbench'));
    expect(existingWorkbench(workspace, runDir, false)?.root).toBe(join(runDir, 'workbench'));
    mkdirSync(join(dir, '.flower-app'));
    expect(existingWorkbench(workspace, runDir, false)?.root).toBe(join(dir, '.flower-app'));
    mkdirSync(join(workspace, '.flower'));
    expect(existingWorkbench(workspace, runDir, false)?.root).toBe(join(workspace, '.flower'));
    expect(existingWorkbench(workspace, runDir, true)?.root).toBe(join(runDir, 'workbench'));
    expect(existsSync(join(workspace, '.flower', 'notes'))).toBe(false);
  });
});
