import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SpillListing } from './spill-listing.js';

let root: string;
let folder: string;
let listings: number;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flower-spill-listing-'));
  folder = join(root, 'spill');
  mkdirSync(folder);
  writeFileSync(join(folder, 'a.txt'), 'a');
  writeFileSync(join(folder, 'b.txt'), 'b');
  listings = 0;
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A listing whose directory reads are counted. */
function counted(now?: () => number): SpillListing {
  return new SpillListing({
    list: (directory) => {
      listings += 1;
      return readdirSync(directory);
    },
    ...(now === undefined ? {} : { now }),
  });
}

/** Sets the folder's timestamps to `secondsAgo` before now (a folder last changed that long ago). */
function stillFor(secondsAgo: number, at: number = Date.now()): void {
  const when = new Date(at - secondsAgo * 1000);
  utimesSync(folder, when, when);
}

describe('SpillListing', () => {
  test('reuses the listing of a folder unchanged since, and lists again once a file is added or removed', () => {
    stillFor(60);
    const listing = counted();
    expect([...listing.namesIn(folder)].sort()).toEqual(['a.txt', 'b.txt']);
    expect([...listing.namesIn(folder)].sort()).toEqual(['a.txt', 'b.txt']);
    expect(listings).toBe(1);

    writeFileSync(join(folder, 'c.txt'), 'c');
    expect([...listing.namesIn(folder)].sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(listings).toBe(2);

    stillFor(60);
    listing.namesIn(folder);
    rmSync(join(folder, 'a.txt'));
    expect([...listing.namesIn(folder)].sort()).toEqual(['b.txt', 'c.txt']);
    expect(listings).toBe(4);
  });

  test('lists again a folder replaced by another of the same name and modification time', () => {
    const at = Date.now();
    stillFor(60, at);
    const listing = counted();
    listing.namesIn(folder);
    rmSync(folder, { recursive: true });
    mkdirSync(folder);
    writeFileSync(join(folder, 'z.txt'), 'z');
    stillFor(60, at);
    expect([...listing.namesIn(folder)]).toEqual(['z.txt']);
    expect(listings).toBe(2);
  });

  test('does not reuse a listing of a folder that changed just before it was listed', () => {
    // A change right after such a listing could carry the same coarse timestamp and go unnoticed.
    const changed = Number(statSync(folder, { bigint: true }).mtimeNs / 1_000_000n);
    const listing = counted(() => changed + 50);
    listing.namesIn(folder);
    listing.namesIn(folder);
    expect(listings).toBe(2);
  });

  test('asks a folder with whole-second timestamps to have been still for longer', () => {
    const whole = Math.floor(Date.now() / 1000) * 1000;
    stillFor(2, whole);
    const soon = counted(() => whole);
    soon.namesIn(folder);
    soon.namesIn(folder);
    expect(listings).toBe(2);

    stillFor(4, whole);
    const later = counted(() => whole);
    later.namesIn(folder);
    later.namesIn(folder);
    expect(listings).toBe(3);
  });

  test('keeps one listing per folder: another folder is listed, and so is the first again', () => {
    const other = join(root, 'other');
    mkdirSync(other);
    stillFor(60);
    utimesSync(other, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const listing = counted();
    listing.namesIn(folder);
    expect([...listing.namesIn(other)]).toEqual([]);
    listing.namesIn(folder);
    expect(listings).toBe(3);
  });
});
