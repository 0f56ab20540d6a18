// The workbench index (acceptance of "Roles, guards and the workbench"): a worker writes a script with a
// `desc:` line, INDEX.md lists it with that description, and the first request of a new session carries
// the index (decisions.md D20: in the first user message, not the system prompt). Real SDK and binary, fake
// API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { coordinator } from '../../src/roles/coordinator.js';
import { worker } from '../../src/roles/worker.js';
import {
  MAIN_THREAD,
  message,
  text,
  toolUse,
  type FakeRequest,
  type FakeResponse,
} from '../../src/testing/index.js';
import { inProcessRuns } from './support/in-process-run.js';
import { Workbench } from '../../src/workbench/workbench.js';
import { firstUserText } from './support/tool-results.js';

const setUp = inProcessRuns();

const DESCRIPTION = 'prints the size of the build folder';

describe('the workbench index (e2e)', () => {
  test('lists a script a worker wrote, with its description, and hands the index to a new session', async () => {
    let scriptPath = '';
    const script = (request: FakeRequest): FakeResponse => {
      if (request.thread !== MAIN_THREAD) {
        if (request.turn === 0) {
          return message([
            toolUse('Write', {
              file_path: scriptPath,
              content: `#!/bin/sh\n# desc: ${DESCRIPTION}\ndu -sh build\n`,
            }),
          ]);
        }
        return message([text('Conclusion: wrote the size script.')]);
      }
      if (firstUserText(request).includes('Second task')) return message([text('Noted.')]);
      if (request.turn === 0) {
        return message([
          toolUse('Agent', {
            description: 'size script',
            prompt: 'Write the size script.',
            subagent_type: 'coder',
          }),
        ]);
      }
      return message([text('Done.')]);
    };
    const { server, scratch, runtime: runtimeWith } = await setUp(script);
    const workbench = new Workbench(scratch.workspace);
    scriptPath = join(workbench.scripts, 'size.sh');
    const runtime = runtimeWith({ workbench });
    const spec = coordinator('coordinator', '', { coder: worker('Writes code and tests.', 'Implement it.') });

    const first = await runtime.run(spec, 'First task: a size script.');
    expect(first.error).toBeNull();

    const index = readFileSync(join(workbench.root, 'INDEX.md'), 'utf8');
    expect(index).toContain('size.sh');
    expect(index).toContain(DESCRIPTION);

    const second = await runtime.run(spec, 'Second task: use it.');
    expect(second.error).toBeNull();
    expect(second.sessionId).not.toBe(first.sessionId);
    const opening = server.calls.find(
      (call) => call.thread === MAIN_THREAD && firstUserText(call).includes('Second task'),
    );
    expect(opening).toBeDefined();
    const firstMessage = firstUserText(opening!);
    expect(firstMessage).toContain('size.sh');
    expect(firstMessage).toContain(DESCRIPTION);
    // The block is in the message, not the system prompt: the cached prefix stays stable.
    expect(JSON.stringify((opening!.body as { system?: unknown }).system)).not.toContain(DESCRIPTION);
  }, 90_000);
});
