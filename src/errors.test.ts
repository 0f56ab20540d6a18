import { describe, expect, test } from 'vitest';
import { FlowerError, isFlowerError } from './errors.js';

describe('FlowerError', () => {
  test('maps USAGE to exit code 2 and every other code to 1', () => {
    expect(new FlowerError('USAGE', 'bad flag').exitCode).toBe(2);
    expect(new FlowerError('CREDENTIALS_MISSING', 'no key').exitCode).toBe(1);
  });

  test('is recognised by its marker, not by instanceof', () => {
    const error = new FlowerError('CANCELLED', 'Cancelled');
    expect(isFlowerError(error)).toBe(true);
    // An error made by another copy of the package carries the same Symbol.for marker.
    const fromAnotherCopy = Object.assign(new Error('x'), { [Symbol.for('flower-agent.error')]: true });
    expect(isFlowerError(fromAnotherCopy)).toBe(true);
    expect(isFlowerError(new Error('plain'))).toBe(false);
    expect(error.name).toBe('FlowerError');
  });
});
