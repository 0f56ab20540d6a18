import { describe, expect, test } from 'vitest';
import { editDistance, nearestName } from './nearest-name.js';

describe('nearestName', () => {
  test('finds a slip of up to two edits, swaps included, and prefers the closest', () => {
    expect(nearestName('reveiw', ['survey', 'review'])).toBe('review');
    expect(nearestName('mian', ['main', 'other'])).toBe('main');
    expect(nearestName('revie', ['review', 'reviews'])).toBe('review');
    expect(nearestName('MAIN', ['main'])).toBe('main');
  });

  test('suggests nothing far away, for short names, or the word itself', () => {
    expect(nearestName('deploy', ['survey', 'review'])).toBeNull();
    expect(nearestName('xy', ['go'])).toBeNull();
    expect(nearestName('main', ['main'])).toBeNull();
    expect(nearestName('main', [])).toBeNull();
  });

  test('editDistance counts an adjacent swap as one edit', () => {
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
