import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { displayWidth } from '../render/display-width.js';
import type { OutputStream } from './cli-io.js';
import { writeErrorLines } from './error-lines.js';

function stream(columns: number | null): { out: OutputStream; text: () => string } {
  const out = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  if (columns !== null) {
    out.isTTY = true;
    out.columns = columns;
  }
  const chunks: string[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return { out, text: () => chunks.join('') };
}

const path = `/home/someone/projects/${'nested/'.repeat(9)}flows.mjs`;
const message = `Failed to import '${path}': SyntaxError: The requested module './render-step.js' does not provide an export named 'renderStep'`;

describe('writeErrorLines', () => {
  test('wraps an error at word boundaries on a 60-column terminal and keeps the path whole', async () => {
    const { out, text } = stream(60);
    await writeErrorLines(out, message);
    const lines = text().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines).toContain(`  '${path}':`);
    for (const line of lines.filter((line) => !line.includes(path))) {
      expect(displayWidth(line)).toBeLessThanOrEqual(60);
    }
    // Every word whole: joining the rows gives the message back.
    expect(lines.map((line) => line.trim()).join(' ')).toBe(message);
  });

  test('writes the error whole into a pipe', async () => {
    const { out, text } = stream(null);
    await writeErrorLines(out, message);
    expect(text()).toBe(`${message}\n`);
  });
});
