import { describe, expect, test } from 'vitest';
import { CATALOG_KEYS, EN_CATALOG, humanDuration, languageOf, uiText } from './ui-text.js';
import { ZH_CATALOG } from './ui-text-zh.js';

const placeholders = (text: string) =>
  [...text.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1]).sort();

describe('uiText', () => {
  test('fills placeholders and leaves unknown ones visible', () => {
    expect(uiText('close', { c: '0.1234', path: '/runs/manifest.json' })).toBe(
      'Total cost $0.1234 · manifest /runs/manifest.json',
    );
    expect(uiText('err.abortedAt')).toBe("Stopped: the '{step}' step did not finish");
  });

  test('says a count of one in the singular and leaves the count markup visible without its value', () => {
    expect(uiText('ask.left', { n: 1 })).toBe('1 question left');
    expect(uiText('ask.left', { n: 2 })).toBe('2 questions left');
    expect(uiText('ask.left', { n: 0 })).toBe('0 questions left');
    expect(uiText('close.incomplete', { n: 1 })).toBe('record incomplete: 1 failure above');
    expect(uiText('goal.unverifiableAsk', { n: 1, items: 'x' })).toContain(
      '1 goal check cannot be verified here and will never pass: x. What should happen to it?',
    );
    expect(uiText('ask.left')).toBe('{n} {n:question|questions} left');
    // A filled-in value is never read as count markup.
    expect(uiText('aside.fail', { t: 'error', m: '{n:a|b}' })).toContain('{n:a|b}');
    expect(uiText('ask.left', { n: 1 }, 'zh')).toBe('还可以问 1 次');
  });

  test('hedges no English plural with "(s)": every count picks its word', () => {
    expect(Object.entries(EN_CATALOG).filter(([, text]) => text.includes('(s)'))).toEqual([]);
  });

  test('uses the Chinese catalog for zh', () => {
    expect(uiText('cancelled', {}, 'zh')).toBe('已取消');
    expect(uiText('ask.left', { n: 2 }, 'zh')).toBe('还可以问 2 次');
  });

  test('has every key in both languages with the same placeholders', () => {
    expect(Object.keys(ZH_CATALOG).sort()).toEqual([...CATALOG_KEYS].sort());
    for (const key of CATALOG_KEYS) {
      expect(placeholders(ZH_CATALOG[key]), key).toEqual(placeholders(EN_CATALOG[key]));
      expect(ZH_CATALOG[key].trim(), key).not.toBe('');
    }
  });

  test('keeps the English catalog ASCII-iconed and free of emoji', () => {
    for (const key of CATALOG_KEYS) expect(EN_CATALOG[key], key).not.toMatch(/\p{Extended_Pictographic}/u);
  });
});

describe('languageOf', () => {
  test('selects Chinese only for a FLOWER_LANG beginning with zh', () => {
    expect(languageOf({ FLOWER_LANG: 'zh' })).toBe('zh');
    expect(languageOf({ FLOWER_LANG: 'ZH-cn' })).toBe('zh');
    expect(languageOf({ FLOWER_LANG: 'en' })).toBe('en');
    expect(languageOf({ LANG: 'zh_CN.UTF-8' })).toBe('en');
  });
});

describe('humanDuration', () => {
  test.each([
    [0, '0 s'],
    [45.4, '45 s'],
    [59.4, '59 s'],
    [59.6, '1 min'],
    [150, '3 min'],
    [3600, '60 min'],
    [-3, '0 s'],
  ])('renders %d seconds as %s', (seconds, text) => {
    expect(humanDuration(seconds)).toBe(text);
  });

  test('uses the catalog units', () => {
    expect(humanDuration(30, 'zh')).toBe('30 秒');
    expect(humanDuration(120, 'zh')).toBe('2 分钟');
  });
});
