// A judge with `canRun: 'inspect'` (decisions.md D101), run by the Runtime with the real SDK and Claude Code
// binary against the fake Messages API: the runtime's whitelist approves Bash (it is in the judge's tools),
// while the judge's own inspection hook denies anything but an inspection — and the binary lets the deny win,
// so the judge can look at an artifact but cannot change the workspace. Its rule text reaches the model as
// the system prompt.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { judge } from '../../src/roles/judge.js';
import { message, scriptTurns, text, toolUse } from '../../src/testing/index.js';
import { inProcessRuns } from './support/in-process-run.js';
import { seenToolResult } from './support/tool-results.js';

const setUp = inProcessRuns();

describe('a judge that may only inspect (e2e)', () => {
  test('runs inspection commands, and is refused a write although Bash is in its tools', async () => {
    const {
      server,
      scratch,
      runtime: runtimeWith,
    } = await setUp(
      scriptTurns({
        main: [
          message([
            toolUse('Bash', { command: 'rm app.txt', description: 'remove' }, 'rm'),
            toolUse('Bash', { command: 'echo fixed > app.txt', description: 'fix' }, 'write'),
            toolUse(
              'Bash',
              { command: 'file app.txt && sha256sum app.txt', description: 'inspect' },
              'inspect',
            ),
            toolUse('Write', { file_path: 'pass.txt', content: 'pass' }, 'tool'),
          ]),
          message([
            text('## Conclusion\nNOT_YET\n\n## Reason\nThe app is a text file.\n\n## Failed\n- it runs'),
          ]),
        ],
      }),
    );
    const workspace = scratch.workspace;
    writeFileSync(join(workspace, 'app.txt'), 'not a binary\n');
    const runtime = runtimeWith({ workbench: false });

    const result = await runtime.run(
      judge('work/verdict#1', null, { canRun: 'inspect' }),
      'Job B: judge this round.',
    );

    expect(result.error).toBeNull();
    expect(result.text).toContain('NOT_YET');
    for (const id of ['rm', 'write']) {
      const seen = seenToolResult(server, id);
      expect(seen?.isError, `${id}: ${seen?.text}`).toBe(true);
      expect(seen?.text, id).toContain('Bash here only inspects');
    }
    expect(seenToolResult(server, 'tool')?.isError).toBe(true);
    const inspected = seenToolResult(server, 'inspect');
    expect(inspected?.isError, inspected?.text).toBe(false);
    expect(inspected?.text).toContain('app.txt: ASCII text');
    expect(inspected?.text).toMatch(/^[0-9a-f]{64} {2}app\.txt$/m);
    // Nothing changed, nothing was written.
    expect(existsSync(join(workspace, 'app.txt'))).toBe(true);
    expect(existsSync(join(workspace, 'pass.txt'))).toBe(false);
    // The rule text went out as part of the system prompt.
    const system = JSON.stringify(server.calls[0]?.body.system);
    expect(system).toContain('Judge the artifact, not the source');
    expect(system).toContain('Bash runs inspection commands only');
  }, 60_000);
});
