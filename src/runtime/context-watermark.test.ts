import { describe, expect, test } from 'vitest';
import { uiText } from '../config/ui-text.js';
import { ContextWatermark, type HandoffStop } from './context-watermark.js';
import { HandoffPolicy } from './handoff-policy.js';
import { diagnosedOutcome, outcomeError } from './step-outcome.js';

/** The step error a stop is recorded as, in `lang`: where its diagnosis is worded. */
const diagnosis = (stop: HandoffStop | null, lang: 'en' | 'zh' = 'en'): string | null =>
  stop === null ? null : outcomeError(diagnosedOutcome({ kind: 'handoff-stopped', stop }), lang);

// 200K window: near at 130K, due at 150K.
const policy = new HandoffPolicy({ window: 200_000 });

describe('ContextWatermark', () => {
  test('says near once when crossing warnAt, then due at the threshold', () => {
    const watermark = new ContextWatermark(policy);
    expect([40_000, 129_999, 130_000, 135_000, 140_000].map((tokens) => watermark.note(tokens))).toEqual([
      null,
      null,
      'near',
      null,
      null,
    ]);
    expect(watermark.due).toBe(false);
    expect(watermark.note(150_000)).toBe('due');
    expect(watermark.due).toBe(true);
    expect(watermark.note(151_000)).toBe('due');
  });

  test('keeps the highest reading, so a lower one does not cancel a due handoff', () => {
    const watermark = new ContextWatermark(policy);
    watermark.note(160_000);
    expect(watermark.note(20_000)).toBe('due');
    expect(watermark.value).toBe(160_000);
    expect(watermark.note(Number.NaN)).toBe('due');
    expect(watermark.value).toBe(160_000);
  });

  test('says due, not near, when one reading jumps past the threshold, and no near afterwards', () => {
    const watermark = new ContextWatermark(policy);
    expect(watermark.note(170_000)).toBe('due');
    watermark.writing = true;
    expect(watermark.note(175_000)).toBeNull();
  });

  test('exempts the writing turn and clears the flag however it ends', async () => {
    const watermark = new ContextWatermark(policy);
    watermark.note(155_000);
    const seen = await watermark.whileWriting(() => {
      expect(watermark.writing).toBe(true);
      expect(watermark.due).toBe(false);
      return Promise.resolve([watermark.note(160_000), watermark.note(190_000)]);
    });
    expect(seen).toEqual([null, null]);
    expect(watermark.writing).toBe(false);
    expect(watermark.value).toBe(190_000);
    await expect(watermark.whileWriting(() => Promise.reject(new Error('turn failed')))).rejects.toThrow(
      'turn failed',
    );
    expect(watermark.writing).toBe(false);
  });

  test('signals nothing when handoff is off but still tracks the context', () => {
    const watermark = new ContextWatermark(new HandoffPolicy({ enabled: false, window: 200_000 }));
    expect([140_000, 190_000].map((tokens) => watermark.note(tokens))).toEqual([null, null]);
    expect(watermark.due).toBe(false);
    expect(watermark.value).toBe(190_000);
  });

  test('starts over after reset: the near notice comes again', () => {
    const watermark = new ContextWatermark(policy);
    expect(watermark.note(135_000)).toBe('near');
    watermark.reset();
    expect(watermark.value).toBe(0);
    expect(watermark.note(60_000)).toBeNull();
    expect(watermark.note(131_000)).toBe('near');
  });

  test('begins a new generation after a complete handoff', () => {
    const watermark = new ContextWatermark(policy);
    watermark.note(152_000);
    expect(watermark.noteHandoff(false)).toBeNull();
    expect([watermark.generation, watermark.degradedInARow, watermark.value]).toEqual([1, 0, 0]);
    expect(watermark.note(40_000)).toBeNull();
    expect(watermark.note(131_000)).toBe('near');
  });

  test('stops after two degraded handoffs in a row, explaining window, threshold and margin', () => {
    const watermark = new ContextWatermark(policy);
    expect(watermark.noteHandoff(true)).toBeNull();
    expect(watermark.noteHandoff(false)).toBeNull();
    expect(watermark.noteHandoff(true)).toBeNull();
    expect(watermark.degradedInARow).toBe(1);
    const stop = watermark.noteHandoff(true);
    expect(stop).toEqual({
      verdict: 'stop',
      reason: 'degraded',
      count: 2,
      window: 200_000,
      threshold: 150_000,
      room: 50_000,
    });
    expect(diagnosis(stop)).toBe(
      uiText('ho.stop.degraded', { n: 2, win: '200,000', at: '150,000', room: '50,000' }),
    );
    expect(diagnosis(stop)).toContain('--window');
    expect(diagnosis(stop)).toContain('headroom');
    expect(watermark.generation).toBe(4);
  });

  test('stops at maxGenerations handoffs with the runaway diagnosis', () => {
    const watermark = new ContextWatermark(new HandoffPolicy({ window: 40_000, maxGenerations: 3 }));
    expect(watermark.noteHandoff(false)).toBeNull();
    expect(watermark.noteHandoff(true)).toBeNull();
    const stop = watermark.noteHandoff(true);
    expect(stop?.reason).toBe('runaway');
    expect(diagnosis(stop ?? null)).toBe(
      uiText('ho.stop.runaway', { n: 3, win: '40,000', at: '10,000', room: '50,000' }),
    );
    expect(diagnosis(stop ?? null)).toContain('3 handoffs');
  });

  test('lets the default policy make eight handoffs', () => {
    const watermark = new ContextWatermark(policy);
    const verdicts = Array.from({ length: 8 }, () => watermark.noteHandoff(false)?.reason ?? null);
    expect(verdicts).toEqual([null, null, null, null, null, null, null, 'runaway']);
  });

  test('writes the diagnosis in the chosen language', () => {
    const watermark = new ContextWatermark(policy);
    watermark.noteHandoff(true);
    expect(diagnosis(watermark.noteHandoff(true), 'zh')).toBe(
      uiText('ho.stop.degraded', { n: 2, win: '200,000', at: '150,000', room: '50,000' }, 'zh'),
    );
  });
});
