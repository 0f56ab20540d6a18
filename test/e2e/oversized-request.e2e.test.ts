// Requests and prompts too large for one message, through the built CLI with the real SDK and Claude Code
// binary against the fake Messages API. Claude Code refuses such a first message locally ("Prompt is too
// long"); flower must never lose it: it is saved to a file and the agent reads it in parts. A first message
// refused as too long is an input error, never a context overflow with a handoff.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readManifest } from '../../src/runtime/manifest.js';
import { Brief } from '../../src/roles/brief.js';
import { lastUserText, message, text, toolUse, type FakeRequest } from '../../src/testing/index.js';
import { flowerCli, type FlowerCli } from './support/flower-cli.js';

let cli: FlowerCli | null = null;

afterEach(async () => {
  await cli?.close();
  cli = null;
});

const BRIEF = new Brief({
  goal: 'Index the glossary.',
  accept: 'Every term has an entry.',
  bounds: 'Plain text only.',
  unknowns: 'None.',
});

function firstUserText(request: FakeRequest): string {
  return JSON.stringify((request.body?.messages as unknown[] | undefined)?.[0] ?? '');
}

function bodySize(request: FakeRequest): number {
  return JSON.stringify(request.body).length;
}

describe('oversized input (e2e)', () => {
  test('a 5 MB request is saved under the notes and read in parts; the brief points to it', async () => {
    // Distinct words, so any lost or reordered part of the request shows.
    const words = Array.from({ length: 700_000 }, (_, index) => `term${index}`);
    const request = words.join(' ');
    expect(request.length).toBeGreaterThan(5_000_000);
    let requestPath = '';
    cli = await flowerCli((call) => {
      const opening = firstUserText(call);
      if (call.thread === 'main' && opening.includes('Clarify this request')) {
        const saved = /saved in full at (\S+?\.md)\./.exec(
          lastUserText({ body: { messages: [call.body.messages?.[0]] } }),
        );
        if (call.turn === 0) {
          requestPath = saved?.[1] ?? '';
          return message([toolUse('Read', { file_path: requestPath, offset: 1, limit: 100 })]);
        }
        return message([text(BRIEF.promptBlock())]);
      }
      return { kind: 'status', status: 400, errorType: 'invalid_request_error', message: 'not scripted' };
    });

    const outcome = await cli.run(['go', '--timeout', '0'], { input: `${request}\n` });

    const notes = join(cli.scratch.workspace, '.flower', 'notes');
    expect(requestPath).toBe(join(notes, 'request.md'));
    // Every call fits one message; the request is in the file, whole and in order.
    expect(Math.max(...cli.server.calls.map(bodySize))).toBeLessThan(200_000);
    expect(readFileSync(requestPath, 'utf8').split(/\s+/).filter(Boolean)).toEqual(words);
    // The clarifier read the first part through Claude Code's Read tool.
    const afterRead = cli.server.calls.find(
      (call) =>
        firstUserText(call).includes('Clarify this request') &&
        JSON.stringify(call.body).includes('tool_result'),
    );
    expect(JSON.stringify(afterRead?.body)).toContain('term0 term1 term2');
    // The frozen brief tells every later step where the request is; nothing was handed off.
    const brief = readFileSync(join(notes, 'brief.md'), 'utf8');
    expect(brief).toContain(`The full request (too long for one message) is kept in ${requestPath}`);
    expect(outcome.stderr).not.toMatch(/handoff|too long/i);
    const [clarify] = readManifest(join(cli.scratch.workspace, 'runs'));
    expect(clarify).toMatchObject({ step: 'clarify', ok: true, errors: [], retired: [] });
  });

  test('a once prompt over the one-message limit goes to a file under the run directory', async () => {
    const words = Array.from({ length: 18_000 }, (_, index) => `w${index}`);
    const prompt = words.join(' ');
    expect(prompt.length).toBeGreaterThan(100_000);
    cli = await flowerCli(() => message([text('read it')]));

    const outcome = await cli.run(['once', prompt]);

    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const folder = join(cli.scratch.workspace, 'runs', 'prompts');
    const [saved] = readdirSync(folder);
    expect(saved).toMatch(/^prompt-ad-hoc-\d+\.md$/);
    const path = join(folder, saved ?? '');
    expect(readFileSync(path, 'utf8').split(/\s+/).filter(Boolean)).toEqual(words);
    const sent = lastUserText(cli.server.calls[0] ?? { body: {} });
    expect(sent.length).toBeLessThan(2_000);
    expect(sent).toContain(`saved in full at ${path}. Read it in parts with the Read tool`);
  });

  test('"prompt is too long" on the first turn is an input error: exit 1 at once, no handoff, no retry', async () => {
    cli = await flowerCli(() => ({
      kind: 'status',
      status: 400,
      errorType: 'invalid_request_error',
      message: 'prompt is too long: 250123 tokens > 200000 maximum',
    }));

    const outcome = await cli.run(['once', 'hello']);

    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr).toMatch(
      /^! The first message is too long for the model \(.*prompt is too long.*\); nothing was handed over or retried\./im,
    );
    expect(outcome.stderr).not.toMatch(/handoff|Attempt \d+ failed/i);
    expect(cli.server.calls.filter((call) => call.path === '/v1/messages')).toHaveLength(1);
    const [row] = readManifest(join(cli.scratch.workspace, 'runs'));
    expect(row).toMatchObject({ ok: false, attempts: 1, retired: [] });
    expect(existsSync(join(cli.scratch.workspace, 'runs', 'workbench'))).toBe(false);
  });
});
