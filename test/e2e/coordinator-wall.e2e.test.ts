// The coordinator's wall (acceptance of "Roles, guards and the workbench"): a coordinator built by the role
// factory, run by the Runtime with the real SDK and Claude Code binary against the fake Messages API. It is
// not offered Write or Edit at all; its hands-on Bash is refused as a permission denial whose text is the
// wall's reason; side-effect-free glances run; a worker subagent's
// Bash and Write run; a dispatch without `run_in_background` is rewritten to the foreground
// (decisions.md D8).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { delegateGuard } from '../../src/guards/delegate-guard.js';
import { coordinator } from '../../src/roles/coordinator.js';
import { worker } from '../../src/roles/worker.js';
import { message, scriptTurns, text, toolUse } from '../../src/testing/index.js';
import { inProcessRuns } from './support/in-process-run.js';
import { gitWorkspace } from './support/git-workspace.js';
import { seenToolResult } from './support/tool-results.js';

const setUp = inProcessRuns();

describe('the coordinator wall (e2e)', () => {
  test('denies hands-on calls with a reason, lets glances and the worker through, runs workers in the foreground', async () => {
    // Write and Edit are not even offered to the coordinator; Bash is, and the wall refuses all but glances.
    const notOffered = { write: 'Write', edit: 'Edit' };
    const denied = {
      rm: 'rm -rf x',
      compound: 'git status && rm -rf x',
      newline: 'git status\nrm x/keep.txt',
    };
    const glances = ['status', 'ls', 'log'];
    const {
      server,
      scratch,
      runtime: runtimeWith,
    } = await setUp(
      scriptTurns({
        main: [
          message([
            toolUse('Write', { file_path: 'w.txt', content: 'x' }, 'write'),
            toolUse('Edit', { file_path: 'README.md', old_string: 'hello', new_string: 'bye' }, 'edit'),
            toolUse('Bash', { command: denied.rm, description: 'clean' }, 'rm'),
            toolUse('Bash', { command: denied.compound, description: 'clean' }, 'compound'),
            toolUse('Bash', { command: denied.newline, description: 'clean' }, 'newline'),
            toolUse('Bash', { command: 'git status', description: 'look' }, 'status'),
            toolUse('Bash', { command: 'ls', description: 'look' }, 'ls'),
            toolUse('Bash', { command: 'git log --oneline | head', description: 'look' }, 'log'),
          ]),
          message([
            toolUse(
              'Agent',
              { description: 'make files', prompt: 'Make sub.txt and sub2.txt.', subagent_type: 'coder' },
              'dispatch',
            ),
          ]),
          message([text('All done.')]),
        ],
        subagent: [
          message([toolUse('Bash', { command: 'echo sub > sub.txt', description: 'make sub.txt' })]),
          message([toolUse('Write', { file_path: 'sub2.txt', content: 'two\n' })]),
          message([text('Conclusion: made sub.txt and sub2.txt.')]),
        ],
      }),
    );
    const workspace = scratch.workspace;
    gitWorkspace(workspace);
    const runtime = runtimeWith({ workbench: false });
    const spec = coordinator('coordinator', '', {
      coder: worker('Writes code and tests.', 'Implement what you are asked.'),
    });

    const result = await runtime.run(spec, 'Make two files.');

    expect(result.error).toBeNull();
    for (const [id, tool] of Object.entries(notOffered)) {
      const seen = seenToolResult(server, id);
      expect(seen?.isError, `${id}: ${seen?.text}`).toBe(true);
      expect(seen?.text, id).toContain(`No such tool available: ${tool}.`);
    }
    const wall = delegateGuard({ allowGlance: true });
    for (const [id, command] of Object.entries(denied)) {
      const seen = seenToolResult(server, id);
      expect(seen?.isError, `${id}: ${seen?.text}`).toBe(true);
      // A permission denial that is the wall's own reason, which points to a worker; not a "hook error".
      const decision = await wall.decide({
        event: 'PreToolUse',
        toolName: 'Bash',
        toolInput: { command },
        toolUseId: id,
        agentId: null,
        agentType: null,
        cwd: workspace,
      });
      expect(decision.action, id).toBe('deny');
      expect(seen?.text, id).toBe(decision.action === 'deny' ? decision.reason : '');
      expect(seen?.text, id).toMatch(/Dispatch a worker with Agent/);
    }
    for (const id of glances) {
      const seen = seenToolResult(server, id);
      expect(seen?.isError, `${id}: ${seen?.text}`).toBe(false);
    }
    expect(seenToolResult(server, 'ls')?.text).toContain('README.md');
    expect(seenToolResult(server, 'log')?.text).toContain('first commit of the fixture');
    // Nothing the coordinator tried by hand happened.
    expect(existsSync(join(workspace, 'w.txt'))).toBe(false);
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toBe('hello\n');
    expect(existsSync(join(workspace, 'x', 'keep.txt'))).toBe(true);
    // The worker's hands did, and its report came back in the same turn (foreground).
    expect(readFileSync(join(workspace, 'sub.txt'), 'utf8')).toBe('sub\n');
    expect(readFileSync(join(workspace, 'sub2.txt'), 'utf8')).toBe('two\n');
    const report = seenToolResult(server, 'dispatch');
    expect(report?.text).toContain('Conclusion: made sub.txt and sub2.txt.');
    expect(report?.text).not.toMatch(/Async agent launched/);
  }, 90_000);

  test('dispatches only the workers it was given: a built-in agent type is denied', async () => {
    const {
      server,
      scratch,
      runtime: runtimeWith,
    } = await setUp(
      scriptTurns({
        main: [
          message([
            toolUse(
              'Agent',
              { description: 'do it', prompt: 'Make gp.txt.', subagent_type: 'general-purpose' },
              'builtin',
            ),
            toolUse('Agent', { description: 'do it', prompt: 'Make gp.txt.' }, 'untyped'),
          ]),
          message([text('Refused.')]),
        ],
        // What a dispatched agent would do, were it let through.
        subagent: [
          message([toolUse('Write', { file_path: 'gp.txt', content: 'x' })]),
          message([text('Conclusion: made gp.txt.')]),
        ],
      }),
    );
    gitWorkspace(scratch.workspace);
    const runtime = runtimeWith({ workbench: false });
    const spec = coordinator('coordinator', '', { coder: worker('Writes code.', 'Implement it.') });

    const result = await runtime.run(spec, 'Make gp.txt.');

    expect(result.error).toBeNull();
    for (const id of ['builtin', 'untyped']) {
      const seen = seenToolResult(server, id);
      expect(seen?.isError, `${id}: ${seen?.text}`).toBe(true);
      expect(seen?.text, id).toMatch(/subagent_type to one of coder/);
    }
    expect(existsSync(join(scratch.workspace, 'gp.txt'))).toBe(false);
  }, 90_000);

  test('refuses isolated workers outside a git repository before any request is made', async () => {
    const { server, runtime: runtimeWith } = await setUp(scriptTurns({ main: [] }));
    const runtime = runtimeWith();
    const spec = coordinator('coordinator', '', { coder: worker('Codes.', 'Code.', { isolate: true }) });
    await expect(runtime.run(spec, 'Make two files.')).rejects.toMatchObject({ code: 'NOT_A_GIT_REPO' });
    expect(server.calls).toHaveLength(0);
  });
});
