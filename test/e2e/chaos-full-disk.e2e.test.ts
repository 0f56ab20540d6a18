import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { FullDisk } from '../../src/chaos/full-disk.js';

let root: string;
let runs: string;
let disk: FullDisk | null = null;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'flower-full-disk-')));
  runs = join(root, 'runs');
  mkdirSync(runs);
});

afterEach(async () => {
  await disk?.close();
  disk = null;
  rmSync(root, { recursive: true, force: true });
});

/** Runs `script` with `sh` inside the disk's namespace, in `runs`; its exit code and stderr. */
function inside(full: FullDisk, script: string): { status: number | null; stderr: string } {
  const command = full.wrap('sh', ['-c', script], runs);
  const run = spawnSync(command.command, command.args, { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('FullDisk (a real tmpfs in a namespace of its own, no root needed)', () => {
  test('a process inside writes to the tmpfs; filled, a write gets ENOSPC; freed, it works again', async () => {
    disk = await FullDisk.mount(runs);
    // Inside, `runs` is the tmpfs; outside it is still the empty folder under it.
    expect(inside(disk, 'printf before > kept.txt').status).toBe(0);
    expect(existsSync(join(runs, 'kept.txt'))).toBe(false);

    disk.fill();
    const failed = inside(disk, 'head -c 65536 /dev/zero > more.bin');
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toMatch(/No space left on device/);

    disk.free();
    expect(inside(disk, 'head -c 65536 /dev/zero > more.bin').status).toBe(0);

    // What the tmpfs holds is copied out for the checks; the filler is gone.
    disk.copyOut();
    expect(readFileSync(join(runs, 'kept.txt'), 'utf8')).toBe('before');
    expect(readFileSync(join(runs, 'more.bin')).length).toBe(65_536);
    expect(existsSync(join(runs, '.chaos-disk-filler'))).toBe(false);
  });

  test('the namespace ends with close(): a wrapped command can no longer enter it', async () => {
    const full = await FullDisk.mount(runs);
    await full.close();
    expect(inside(full, 'true').status).not.toBe(0);
  });

  test('a folder that does not exist is refused with the reason', async () => {
    await expect(FullDisk.mount(join(root, 'missing'))).rejects.toThrow(/ENOENT/);
  });
});
