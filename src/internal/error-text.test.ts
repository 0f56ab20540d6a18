import { describe, expect, it } from 'vitest';

import { errorMessage, errorText } from './error-text.js';

describe('errorText', () => {
  it('names the error class before the message', () => {
    expect(errorText(new TypeError('bad input'))).toBe('TypeError: bad input');
  });

  it('gives any other value as text', () => {
    expect(errorText('plain')).toBe('plain');
    expect(errorText(42)).toBe('42');
  });
});

describe('errorMessage', () => {
  it('gives the message alone for an Error', () => {
    expect(errorMessage(new RangeError('too far'))).toBe('too far');
  });

  it('gives any other value as text', () => {
    expect(errorMessage(undefined)).toBe('undefined');
  });
});
