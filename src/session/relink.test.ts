import { describe, expect, test } from 'vitest';
import { deepFreeze } from '../../test/fixtures/transcripts/transcript-builder.js';
import type { Entry } from './entry-content.js';
import { relink } from './relink.js';

const entry = (uuid: string, parentUuid: string | null, extra: Record<string, unknown> = {}): Entry => ({
  type: 'user',
  uuid,
  parentUuid,
  ...extra,
});

describe('relink', () => {
  test('returns an equal list when nothing is dropped', () => {
    const entries = [entry('a', null), entry('b', 'a')];
    expect(relink(entries, new Set())).toEqual(entries);
  });

  test('re-attaches children through a chain of dropped ancestors', () => {
    const entries = deepFreeze([entry('a', null), entry('b', 'a'), entry('c', 'b'), entry('d', 'c')]);
    expect(relink(entries, new Set(['b', 'c']))).toEqual([entry('a', null), entry('d', 'a')]);
  });

  test('gives a child of a dropped root a null parent', () => {
    expect(relink([entry('a', null), entry('b', 'a')], new Set(['a']))).toEqual([entry('b', null)]);
  });

  test('re-points logicalParentUuid, sourceToolAssistantUUID and a last-prompt leafUuid too', () => {
    const entries = [
      entry('a', null),
      entry('b', 'a'),
      entry('c', 'b', { logicalParentUuid: 'b', sourceToolAssistantUUID: 'b' }),
      { type: 'last-prompt', leafUuid: 'b' },
    ];
    expect(relink(entries, new Set(['b']))).toEqual([
      entry('a', null),
      entry('c', 'a', { logicalParentUuid: 'a', sourceToolAssistantUUID: 'a' }),
      { type: 'last-prompt', leafUuid: 'a' },
    ]);
  });

  test('stops at a parent cycle among dropped entries', () => {
    const entries = [entry('a', 'b'), entry('b', 'a'), entry('c', 'a')];
    expect(relink(entries, new Set(['a', 'b']))).toEqual([entry('c', null)]);
  });

  test('keeps uuid-less entries', () => {
    const marker = { type: 'cost-state', totalCostUSD: 1 };
    expect(relink([entry('a', null), marker], new Set(['a']))).toEqual([marker]);
  });
});
