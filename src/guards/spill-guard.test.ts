import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { FlowerEvent } from '../events/flower-event.js';
import { isFlowerError } from '../errors.js';
import { Workbench } from '../workbench/workbench.js';
import type { ToolHookInput } from './guard.js';
import { toHooks } from './hooks.js';
import { SPILL_TOOLS, spillGuard, spillPointer } from './spill-guard.js';

let dir = '';
let workspace = '';
let bench: Workbench;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'flower-spill-')));
  workspace = join(dir, 'app');
  mkdirSync(workspace);
  bench = new Workbench(workspace).ensure();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function call(
  toolName: string,
  toolInput: Record<string, unknown>,
  toolResponse: unknown,
  agentId: string | null = null,
): ToolHookInput {
  return {
    event: 'PostToolUse',
    toolName,
    toolInput,
    toolResponse,
    toolUseId: 'tu_1',
    agentId,
    agentType: agentId === null ? null : 'worker',
    cwd: workspace,
  };
}

function bash(stdout: string, command = 'make'): ToolHookInput {
  return call(
    'Bash',
    { command },
    { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
  );
}

const hash16 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);

function guardOf(options: Parameters<typeof spillGuard>[1] = {}): NonNullable<ReturnType<typeof spillGuard>> {
  const guard = spillGuard(bench, options);
  if (guard === null) throw new Error('expected a guard');
  return guard;
}

describe('spillGuard', () => {
  test('is a fail-open PostToolUse guard on SPILL_TOOLS, and null when the threshold is null or 0', () => {
    expect(guardOf()).toMatchObject({
      name: 'spill',
      event: 'PostToolUse',
      matcher: SPILL_TOOLS,
      failClosed: false,
    });
    expect(spillGuard(bench, { threshold: null })).toBeNull();
    expect(spillGuard(bench, { threshold: 0 })).toBeNull();
    expect(guardOf({ tools: 'Bash' }).matcher).toBe('Bash');
  });

  test('rejects a negative threshold with a clear error', () => {
    let thrown: unknown = null;
    try {
      spillGuard(bench, { threshold: -5 });
    } catch (error) {
      thrown = error;
    }
    expect(isFlowerError(thrown)).toBe(true);
    expect((thrown as Error).message).toContain('got -5');
  });

  test('saves a big result once under its content hash and shows a pointer plus the first 400 characters', async () => {
    const events: FlowerEvent[] = [];
    const text = `${'line one\n'.repeat(100)}${'z'.repeat(5000)}`;
    const decision = await guardOf({ onSpill: (event) => events.push(event) }).decide(bash(text));
    const name = `${hash16(text)}.txt`;
    const path = join(bench.spill, name);
    expect(readFileSync(path, 'utf8')).toBe(text);
    const pointer =
      `[5900 characters spilled to .flower/spill/${name} — Read it for all of it, Grep to search it]\n` +
      `First 400 characters: ${'line one '.repeat(44)}line`;
    expect(decision).toEqual({
      action: 'replace',
      output: { stdout: pointer, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
    });
    expect(events).toEqual([
      {
        kind: 'spill',
        text: `Bash result of 5900 characters spilled to .flower/spill/${name}`,
        at: expect.any(Number) as unknown,
        step: null,
        subagent: false,
        parentToolUseId: null,
        tool: 'Bash',
        chars: 5900,
        path: `.flower/spill/${name}`,
      },
    ]);
    expect(readdirSync(bench.spill)).toEqual([name]);
  });

  test('never rewrites an existing spill file', async () => {
    const text = 'q'.repeat(4000);
    const path = join(bench.spill, `${hash16(text)}.txt`);
    writeFileSync(path, 'already here');
    expect((await guardOf().decide(bash(text))).action).toBe('replace');
    expect(readFileSync(path, 'utf8')).toBe('already here');
  });

  test('passes results below the threshold', async () => {
    expect(await guardOf().decide(bash('q'.repeat(3999)))).toEqual({ action: 'pass' });
    expect(await guardOf({ threshold: 10 }).decide(bash('q'.repeat(10)))).toMatchObject({
      action: 'replace',
    });
  });

  test('shows an external spill directory by its absolute path', async () => {
    const outside = new Workbench(workspace, { root: join(dir, '.flower-app') }).ensure();
    const text = 'w'.repeat(4000);
    const decision = await spillGuard(outside)?.decide(bash(text));
    const path = join(dir, '.flower-app', 'spill', `${hash16(text)}.txt`);
    expect(decision).toMatchObject({
      action: 'replace',
      output: { stdout: expect.stringContaining(`spilled to ${path} —`) as unknown },
    });
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  test('spills subagent results too, unless mainOnly', async () => {
    const events: FlowerEvent[] = [];
    const sub = { ...bash('s'.repeat(4000)), agentId: 'a51b68b08a2be5e4b' };
    expect((await guardOf({ onSpill: (event) => events.push(event) }).decide(sub)).action).toBe('replace');
    expect(events[0]).toMatchObject({ kind: 'spill', subagent: true });
    expect(await guardOf({ mainOnly: true }).decide(sub)).toEqual({ action: 'pass' });
    expect((await guardOf({ mainOnly: true }).decide(bash('s'.repeat(4000)))).action).toBe('replace');
  });

  test('leaves the human channel and tools outside its matcher alone', async () => {
    const blocks = [{ type: 'text', text: 'h'.repeat(5000) }];
    expect(await guardOf().decide(call('mcp__human__ask', {}, blocks))).toEqual({ action: 'pass' });
    expect((await guardOf().decide(call('mcp__fw__dump', {}, blocks))).action).toBe('replace');
    expect(await guardOf({ tools: 'Read' }).decide(bash('h'.repeat(5000)))).toEqual({ action: 'pass' });
    expect(readdirSync(bench.spill)).toHaveLength(1);
  });

  describe('reading a spilled file back', () => {
    const text = 'r'.repeat(6000);
    const read = (filePath: string, cwd = workspace): ToolHookInput => ({
      ...call(
        'Read',
        { file_path: filePath },
        { type: 'text', file: { filePath, content: text, numLines: 1, startLine: 1, totalLines: 1 } },
      ),
      cwd,
    });

    test('passes a Read of the spill directory by absolute, relative or linked path', async () => {
      const guard = guardOf();
      expect(await guard.decide(read(join(bench.spill, 'abcdef0123456789.txt')))).toEqual({ action: 'pass' });
      expect(await guard.decide(read('.flower/spill/abcdef0123456789.txt'))).toEqual({ action: 'pass' });
      expect(await guard.decide(read('../.flower/spill/x.txt', join(workspace, 'src')))).toEqual({
        action: 'pass',
      });
      symlinkSync(workspace, join(dir, 'link'));
      expect(await guard.decide(read(join(dir, 'link', '.flower', 'spill', 'x.txt')))).toEqual({
        action: 'pass',
      });
    });

    test('passes a Read of the trim archive when the workbench lives elsewhere', async () => {
      const outside = new Workbench(workspace, { root: join(dir, 'runs', 'workbench') });
      const guard = spillGuard(outside);
      expect(await guard?.decide(read('.flower/spill/abcdef0123456789.txt'))).toEqual({ action: 'pass' });
      expect(await guard?.decide(read(join(outside.spill, 'abcdef0123456789.txt')))).toEqual({
        action: 'pass',
      });
    });

    test('passes a Grep or Glob inside the spill directory, and a Bash command naming it', async () => {
      const guard = guardOf();
      const grep = (input: Record<string, unknown>): ToolHookInput =>
        call(
          'Grep',
          { pattern: 'r', ...input },
          { mode: 'content', numFiles: 0, filenames: [], content: text },
        );
      expect(await guard.decide(grep({ path: '.flower/spill' }))).toEqual({ action: 'pass' });
      expect(await guard.decide({ ...grep({}), cwd: bench.spill })).toEqual({ action: 'pass' });
      expect((await guard.decide(grep({}))).action).toBe('replace');
      const glob = call('Glob', { pattern: '*', path: bench.spill }, { filenames: [text], numFiles: 1 });
      expect(await guard.decide(glob)).toEqual({ action: 'pass' });
      expect(await guard.decide(bash(text, 'sed -n 1,400p .flower/spill/abcdef0123456789.txt'))).toEqual({
        action: 'pass',
      });
      expect(await guard.decide(bash(text, `cat ${bench.spill}/abcdef0123456789.txt`))).toEqual({
        action: 'pass',
      });
    });

    test('still spills paths that only look like the spill directory', async () => {
      const guard = guardOf();
      mkdirSync(join(workspace, '.flower', 'spillover'));
      expect((await guard.decide(read('.flower/spillover/x.txt'))).action).toBe('replace');
      expect((await guard.decide(read(join(workspace, 'spill', 'x.txt')))).action).toBe('replace');
    });
  });

  test('a throwing event sink does not undo the spill', async () => {
    const guard = guardOf({
      onSpill: () => {
        throw new Error('sink broke');
      },
    });
    expect((await guard.decide(bash('t'.repeat(4000)))).action).toBe('replace');
  });

  test('through toHooks the replacement becomes updatedToolOutput', async () => {
    const hooks = toHooks(guardOf());
    const matcher = hooks.PostToolUse?.[0];
    expect(matcher?.matcher).toBe(SPILL_TOOLS);
    const callback = matcher?.hooks[0];
    const output = await callback?.(
      {
        hook_event_name: 'PostToolUse',
        session_id: 's',
        transcript_path: '/t',
        cwd: workspace,
        tool_name: 'Agent',
        tool_input: { description: 'd', prompt: 'p' },
        tool_response: { status: 'completed', content: [{ type: 'text', text: 'A'.repeat(4000) }] },
        tool_use_id: 'tu_9',
      } as never,
      'tu_9',
      { signal: new AbortController().signal },
    );
    expect(output).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        updatedToolOutput: {
          status: 'completed',
          content: [
            {
              type: 'text',
              text: spillPointer(4000, `.flower/spill/${hash16('A'.repeat(4000))}.txt`, 'A'.repeat(4000)),
            },
          ],
        },
      },
    });
  });
});

describe('spillPointer', () => {
  test('cuts the head at 400 code points and turns every line break into a space', () => {
    const pointer = spillPointer(9999, 'p.txt', `a\r\nb\rc\n${'😀'.repeat(500)}`);
    const [first, second] = pointer.split('\n');
    expect(first).toBe('[9999 characters spilled to p.txt — Read it for all of it, Grep to search it]');
    expect(second).toBe(`First 400 characters: a b c ${'😀'.repeat(393)}`);
  });
});
